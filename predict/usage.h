/* tbk-predict --help, kept apart from the option parsing it documents. */
#ifndef TBK_PREDICT_USAGE_H
#define TBK_PREDICT_USAGE_H
void predict_usage(void);
#endif
