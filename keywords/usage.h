/* tbk-keywords: its --help, kept apart from the option parsing it
 * documents, and where its default background table is. */
#ifndef TBK_KEYWORDS_USAGE_H
#define TBK_KEYWORDS_USAGE_H
void kw_usage(void);
/* keywords.df in the directory of model_path when readable, else NULL. */
const char *kw_shipped_df(const char *model_path);
#endif
