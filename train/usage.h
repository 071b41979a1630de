/* tbk-train --help, kept apart from the option parsing it documents. */
#ifndef TBK_TRAIN_USAGE_H
#define TBK_TRAIN_USAGE_H
void train_usage(void);
#endif
