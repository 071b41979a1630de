/* tbk-train: fit the site-independent template model on the pooled,
 * auto-labelled blocks of many sites (stage 3). */
#include <getopt.h>
#include <stdlib.h>

#include "train_cli.h"

static void progress(void *ctx, const char *what) { cli_progress_note(ctx, what); }

/* The model fitted on ds, with its progress on stderr; with
 * --nontext-stage, the content stage without the text model is fitted
 * first, on the same rows, and attached. */
static tbk_model *fit(const run *r, tbk_dataset *ds) {
  tbk_model *model, *nontext = NULL;
  tbk_error err = {0};
  cli_progress meter;
  cli_progress_start(&meter, r->want_progress, NULL, 0);
  tbk_train_options no_text = r->opt;
  no_text.parts = TBK_PARTS_NONTEXT;
  tbk_status st = r->keep_content   ? tbk_train_consume(ds, &no_text, progress, &meter, &model, &err)
                  : r->nontext_lang ? tbk_train(ds, &no_text, progress, &meter, &nontext, &err)
                                    : TBK_OK;
  if (!st && !r->keep_content)
    st = r->context_folds ? tbk_train_context(ds, &r->opt, r->context_folds, progress, &meter, &model, &err)
                          : tbk_train_consume(ds, &r->opt, progress, &meter, &model, &err); /* ds: only freed after */
  cli_progress_end(&meter);
  if (st) cli_die(TBK_EXIT_FAIL, "training failed: %s", err.msg);
  if (nontext && tbk_model_attach_nontext(model, nontext, r->nontext_lang, &err))
    cli_die(TBK_EXIT_FAIL, "training failed: %s", err.msg);
  return model;
}

int main(int argc, char **argv) {
  cli_init("tbk-train");
  run r = {.want_progress = CLI_PROGRESS_AUTO};
  tbk_train_options_init(&r.opt);
  train_parse_options(&r, argc, argv);
  cli_reads_argv(argv + optind, argc - optind);
  cli_reads_add(r.template_path);
  cli_output_check("-o", r.output);
  tbk_error err = {0};
  tbk_model *tmpl = NULL;
  if (r.template_path) {
    if (tbk_model_load(r.template_path, &tmpl, &err)) cli_die(TBK_EXIT_MODEL, "%s: %s", r.template_path, err.msg);
    /* a two-stage file gives its template stage; its content stage is
     * replaced, or kept for the stage without the text model */
    if (!r.keep_content) tbk_model_drop_content(tmpl);
    else if (!tbk_model_content(tmpl))
      cli_die(TBK_EXIT_MODEL, "%s: --keep-content: no content stage to keep", r.template_path);
  }
  size_t skipped_rows = 0;
  tbk_dataset *ds = cli_read_dataset(argc, argv, optind, &skipped_rows);
  /* Block rows would be fitted first and refused only when attached, with
   * the template model blamed for the rows' schema: say so up front. */
  if (tmpl && tbk_schema_stage(tbk_dataset_schema(ds)) != TBK_STAGE_UNITS)
    cli_die(TBK_EXIT_FAIL, "--template needs the content stage's rows (tbk-features --units), not rows of schema %s",
            tbk_dataset_schema(ds));
  /* A content stage alone is no model any program reads: it needs the
   * template stage it was featurized with. */
  if (!tmpl && tbk_schema_stage(tbk_dataset_schema(ds)) == TBK_STAGE_UNITS)
    cli_usage_error("rows of the content stage (schema %s) need --template MODEL", tbk_dataset_schema(ds));
  if (!r.quiet)
    fprintf(stderr, "%s: %zu rows from %zu sites (schema %s)\n", cli_prog(), tbk_dataset_rows(ds),
            tbk_dataset_sites(ds), tbk_dataset_schema(ds));
  /* Cross-site CV (cv_pr_auc, the operating points -p reads, --auto-C)
   * needs two sites: say so now, not when tbk-predict -p refuses the model. */
  if (r.strict && skipped_rows) cli_die(TBK_EXIT_FAIL, "%zu malformed rows (--strict)", skipped_rows);
  /* Named by the meta file (the sites' column) and the one site. */
  const char *meta_file = argv[argc - 1], *only = tbk_dataset_rows(ds) ? tbk_dataset_site(ds, 0) : "none";
  if (tbk_dataset_sites(ds) < 2 && r.strict)
    cli_die(TBK_EXIT_FAIL, "%s: rows from %zu site (%s): no cross-site CV, so no operating points (--strict)",
            meta_file, tbk_dataset_sites(ds), only);
  if (tbk_dataset_sites(ds) < 2)
    cli_warn("%s: rows from %zu site (%s): no cross-site CV, so the model gets no operating points (tbk-predict -p "
             "will refuse it; -t works)",
             meta_file, tbk_dataset_sites(ds), only);
  tbk_model *model = fit(&r, ds);
  if (tmpl) {
    tbk_status st = r.keep_content ? tbk_model_attach_nontext(tmpl, model, r.nontext_lang, &err)
                                   : tbk_model_attach_content(tmpl, model, &err);
    /* what --keep-content cannot add to is the --template model's fault */
    if (st)
      cli_die(st == TBK_ERR_SCHEMA || r.keep_content ? TBK_EXIT_MODEL : TBK_EXIT_FAIL, "%s: %s", r.template_path,
              err.msg);
    model = tmpl; /* owns the content stage now */
  }
  tbk_buf text = {0};
  if (tbk_model_write(model, &text, &err)) cli_die(TBK_EXIT_FAIL, "%s", err.msg);
  cli_out out;
  cli_out_open(&out, r.output);
  if (fwrite(text.data, 1, text.len, out.f) != text.len) cli_die(TBK_EXIT_WRITE, "%s: cannot write", r.output);
  cli_out_commit(&out);
  if (!r.quiet) {
    const tbk_operating_point *ops;
    size_t nops = tbk_model_operating_points(tmpl ? tbk_model_content(tmpl) : model, &ops);
    for (size_t i = 0; i < nops; i++)
      fprintf(stderr, "%s: cross-site CV: %s precision %.2f -> threshold %.4f, %s recall %.4f\n", cli_prog(),
              tmpl ? "kept-unit" : "template", ops[i].precision, ops[i].threshold, tmpl ? "content" : "template",
              ops[i].recall);
  }
  tbk_buf_free(&text);
  tbk_model_free(model);
  tbk_dataset_free(ds);
  return cli_exit(skipped_rows ? TBK_EXIT_PARTIAL : TBK_EXIT_OK);
}
