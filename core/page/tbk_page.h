/* What the programs use of the page layer beyond tbk.h: the page's
 * tables read through tbk_page_view_of, its HTML rendered with an edit
 * (tbk_page_html, for --template-html and --strip), its notes, title and
 * element names (page_view.h). struct tbk_page's fields stay the
 * layer's own. */
#ifndef TBK_PAGE_PROGRAMS_H
#define TBK_PAGE_PROGRAMS_H
#include "page_view.h"
#endif
