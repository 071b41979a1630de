/* tbk-keywords --help, kept apart from the option parsing it documents. */
#ifndef TBK_KEYWORDS_USAGE_H
#define TBK_KEYWORDS_USAGE_H
void kw_usage(void);
#endif
