/* tbk-label --method etdm: the options and the per-site loop of Alarte et
 * al.'s template extraction by hyperlink analysis (core/label/etdm.h). */
#ifndef TBK_LABEL_ETDM_CLI_H
#define TBK_LABEL_ETDM_CLI_H
#include "cli.h"
#include "tbk_label.h"

typedef struct label_etdm {
  int on;                 /* --method etdm */
  size_t cs_size;         /* --cs-size N (4) */
  tbk_node_eq eq;         /* --node-equal (weighted) */
  const char *nodes_path; /* --nodes FILE */
  const char *html_dir;   /* --template-html DIR */
  const char *given;      /* an etdm option given, for the error without --method etdm */
} label_etdm;

enum { LABEL_OPT_CS_SIZE = 1300, LABEL_OPT_NODE_EQUAL, LABEL_OPT_NODES, LABEL_OPT_TEMPLATE_HTML };
#define LABEL_ETDM_LONGOPTS                                                                                         \
  {"cs-size", required_argument, 0, LABEL_OPT_CS_SIZE}, {"node-equal", required_argument, 0, LABEL_OPT_NODE_EQUAL}, \
      {"nodes", required_argument, 0, LABEL_OPT_NODES}, {                                                           \
    "template-html", required_argument, 0, LABEL_OPT_TEMPLATE_HTML                                                  \
  }

extern const char label_etdm_help[];
void label_etdm_init(label_etdm *e);
/* Handle one of LABEL_ETDM_LONGOPTS, and --method (code: chunks_cli.h's
 * LABEL_OPT_METHOD): "etdm" is taken (1), any other method turns etdm off
 * and is left to the next handler (0). 1 when code was handled. */
int label_etdm_option(label_etdm *e, int code, const char *arg, int method_code);
/* Dies when an etdm option is given without --method etdm, or an output
 * of it is one of the others. */
void label_etdm_check(const label_etdm *e);
/* Label every site of list by the template ETDM finds for each page;
 * returns the exit code. */
int label_etdm_run(label_etdm *e, cli_pages *pages, const tbk_page_list *list, cli_out *out, const char *output,
                   const char *stats_path, int emit_ignored, int quiet);
#endif
