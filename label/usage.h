/* tbk-label --help, kept apart from the option parsing it documents. */
#ifndef TBK_LABEL_USAGE_H
#define TBK_LABEL_USAGE_H
void label_usage(void);
#endif
