/* tbk-features --help, kept apart from the option parsing it documents. */
#ifndef TBK_FEATURES_USAGE_H
#define TBK_FEATURES_USAGE_H
void features_usage(void);
#endif
