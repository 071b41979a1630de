#!/usr/bin/env python3
"""page_kind.py — tag each page of a dataset manifest with its kind of page.

Usage: eval/page_kind.py [--all] [--summary] MANIFEST [MANIFEST...] > kinds.tsv

Writes a TSV `dataset<TAB>site<TAB>page<TAB>kind<TAB>why` (dataset = the
manifest's directory name; page = the manifest's page path), one row per page
with gold (every page with --all). --summary prints the count of each kind per
data set to stderr (a Markdown table). Python 3 standard library only.

The kinds are article, encyclopedia, documentation, forum (forum or
comments), listing, error and other. The rule reads the page's HTML only (no
URL, no site name, no gold), signals any site can carry; the first that
matches wins (EVALUATION.md, "Robustness"):

 0. error         — an HTTP error page: its <title> names the error ("404",
                    "403", "410", "Page not found", "Seite nicht gefunden",
                    "Page introuvable", "Página no encontrada", "Pagina non
                    trovata") and it has under 150 words of prose. It has
                    no main text: an extractor that keeps its template is
                    not the one that got it right.
 1. encyclopedia  — wiki software: <meta name=generator> naming MediaWiki
                    or another wiki engine ("wiki" in it), or MediaWiki's
                    markup (an element with id "mw-content-text", or class
                    "mediawiki" on <body>), or a schema.org type of
                    Encyclopedia / DefinedTerm.
 2. documentation — documentation/reference generators in <meta
                    name=generator> (Sphinx, Docutils, MkDocs, Doxygen,
                    Javadoc, rustdoc, pandoc, makeinfo/texi2html, DocBook,
                    Docusaurus, GitBook, VuePress, pkgdown), Sphinx's or
                    readthedocs' markup (class or id "sphinxsidebar",
                    "sphinxsidebarwrapper", "rst-content"), or a
                    schema.org type of TechArticle / APIReference; or, with
                    no article metadata (rule 5), at least 30 % of the
                    page's words inside <pre>/<code>/<samp>/<kbd>.
 3. forum         — forum or Q&A software in the generator or markup
                    (phpBB, vBulletin, XenForo, Discourse, Simple Machines,
                    Invision, MyBB, bbPress, punBB/FluxBB, Vanilla) or a
                    schema.org type of DiscussionForumPosting / QAPage /
                    Question; or a page whose comments outweigh the rest:
                    the words inside comment containers (an element whose
                    class or id has a token "comment"/"comments"/"comment-*"
                    /"*-comments"…, except forms, counts, links and buttons,
                    and containers holding the page's <h1>) are at least 50 %
                    of the page's words outside links.
 4. listing       — no article metadata (rule 5), under 150 words of prose,
                    and one of: a schema.org type of ItemList /
                    CollectionPage / SearchResultsPage, at least 4 <article>
                    elements, at least 5 <h2>-<h4> headings holding a link
                    (teasers), at least 60 % of the page's words in links.
                    (Prose = the words outside links and outside
                    comment containers of the text blocks — text between
                    two block-level tags — that have at least 15 such words
                    and at most a third of their words in links.)
 5. article       — article metadata: og:type "article", an
                    article:published_time meta, or a schema.org type of
                    Article / NewsArticle / BlogPosting / Report /
                    ScholarlyArticle / …Article (JSON-LD "@type" or itemtype);
                    or exactly one to three <article> elements; or at least
                    150 words of prose.
 6. other         — anything else: pages under 150 words of prose without
                    article metadata (short posts, photo and video pages,
                    products, forms).

Words: runs of Unicode letters/digits, each Han/Kana code point a word of its
own (as the metric's tokenizer). Visible text = text outside <script>,
<style>, <noscript>, <template>, <head>, <select>, <svg>.
"""
import collections
import html.parser
import os
import re
import sys

KINDS = ["article", "encyclopedia", "documentation", "forum", "listing", "error", "other"]
KIND_LABEL = {"article": "article", "encyclopedia": "encyclopedia", "documentation": "documentation/reference",
              "forum": "forum or comments", "listing": "listing", "error": "error page", "other": "other"}
ERROR_TITLE = re.compile(r"(^|[^\w.,])(40[34]|410)($|[^\w.,])|page not found|seite nicht gefunden|page introuvable|"
                         r"p[aá]gina no encontrada|pagina non trovata", re.I)

WORD = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]|[^\W_]+", re.UNICODE)
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source",
        "track", "wbr", "keygen", "command"}
HIDDEN = {"script", "style", "noscript", "template", "head", "select", "svg", "title", "textarea"}
CODE = {"pre", "code", "samp", "kbd"}
HEAD_OK = {"meta", "link", "title", "script", "style", "base", "noscript", "template", "object", "param", "html",
           "head"}
BLOCK = {"p", "div", "li", "td", "th", "br", "h1", "h2", "h3", "h4", "h5", "h6", "article", "section", "blockquote",
         "ul", "ol", "dl", "dd", "dt", "table", "tr", "header", "footer", "aside", "nav", "main", "form", "pre",
         "figure", "figcaption", "hr", "body"}

WIKI_GEN = re.compile(r"mediawiki|wiki", re.I)
DOC_GEN = re.compile(r"sphinx|docutils|mkdocs|doxygen|javadoc|rustdoc|pandoc|makeinfo|texi2html|texinfo|docbook|"
                     r"docusaurus|gitbook|vuepress|pkgdown|godoc|yard|jsdoc|hevea|latex2html", re.I)
FORUM_GEN = re.compile(r"phpbb|vbulletin|xenforo|discourse|simple machines|\bsmf\b|invision|ip\.board|mybb|"
                       r"bbpress|punbb|fluxbb|vanilla forums", re.I)
FORUM_MARK = re.compile(r"^(phpbb|vbulletin|vbmenu_.*|xenforo|discourse|smf|ipsforum|ipb|mybb|bbpress|"
                        r"punbb|fluxbb|vanilla)$", re.I)
DOC_MARK = {"sphinxsidebar", "sphinxsidebarwrapper", "rst-content"}
LIST_TYPES = {"itemlist", "collectionpage", "searchresultspage"}
ARTICLE_TYPES = re.compile(r"^(\w*article|blogposting|posting|report|review|liveblogposting|opinionnewsarticle|"
                           r"reportagenewsarticle|analysisnewsarticle|backgroundnewsarticle)$", re.I)
ENC_TYPES = {"encyclopedia", "definedterm"}
DOC_TYPES = {"techarticle", "apireference"}
FORUM_TYPES = {"discussionforumposting", "qapage", "question"}
COMMENT_TOK = re.compile(r"(^|[-_])comments?($|[-_])|^commentlist$|^disqus_thread$|^comment(s)?(list|area|body|"
                         r"wrapper|container|section|thread)$", re.I)
COMMENT_NOT = re.compile(r"form|respond|count|link|button|toggle|closed|number|meta|icon|author-info|reply-title|"
                         r"rss|feed|policy|login|header|title|nav", re.I)
LDTYPE = re.compile(r'"@type"\s*:\s*(\[[^\]]*\]|"[^"]*")')


def decode(raw):
    """The page's text: BOM, then <meta charset> in the first 32 KB, then UTF-8, else windows-1252."""
    if raw.startswith(b"\xef\xbb\xbf"):
        return raw[3:].decode("utf-8", "replace")
    if raw.startswith(b"\xff\xfe"):
        return raw[2:].decode("utf-16-le", "replace")
    if raw.startswith(b"\xfe\xff"):
        return raw[2:].decode("utf-16-be", "replace")
    m = re.search(rb"<meta[^>]+charset\s*=\s*[\"']?\s*([A-Za-z0-9_.:-]+)", raw[:32768], re.I)
    if m:
        label = m.group(1).decode("ascii", "replace").lower()
        alias = {"iso-8859-1": "cp1252", "latin1": "cp1252", "us-ascii": "cp1252", "ascii": "cp1252",
                 "gb2312": "gb18030", "gbk": "gb18030"}
        label = alias.get(label, label)
        if label.startswith("utf-16"):
            label = "utf-8"
        try:
            return raw.decode(label, "replace")
        except LookupError:
            pass
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("cp1252", "replace")


def words(s):
    return len(WORD.findall(s))


class Scan(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack = []  # [tag, is_comment_container, holds_h1, words_inside]
        self.hidden = 0
        self.link = 0
        self.code = 0
        self.comment = 0
        self.generator = ""
        self.og_type = ""
        self.published = False
        self.types = set()
        self.marks = set()
        self.n_article = 0
        self.heading = None  # None, or: does the open <h2>-<h4> hold a link?
        self.n_linked_headings = 0
        self.total = 0
        self.link_words = 0
        self.code_words = 0
        self.prose = 0
        self.block = [0, 0]  # words outside / inside links of the current text block
        self.comment_words = 0
        self.in_ld = False
        self.ld = []
        self.in_title = False
        self.title = []

    # -- elements
    def flush(self):
        """End of a text block: its words are prose when it has >= 15 words outside links and link text
        is at most a third of it."""
        plain, linked = self.block
        if plain >= 15 and linked * 2 <= plain:
            self.prose += plain
        self.block = [0, 0]

    def handle_starttag(self, tag, attrs):
        a = {k: (v or "") for k, v in attrs}
        if tag in BLOCK:
            self.flush()
        if tag not in HEAD_OK and any(e[0] == "head" for e in self.stack):
            # a body element ends an unclosed <head> (as in HTML5 parsing)
            self.handle_endtag("head")
        if tag == "meta":
            name = (a.get("name") or a.get("property") or "").lower()
            if name == "generator":
                self.generator += " " + a.get("content", "")
            elif name == "og:type":
                self.og_type = a.get("content", "").strip().lower()
            elif name in ("article:published_time", "article:modified_time"):
                self.published = True
            return
        if "itemtype" in a:
            for t in a["itemtype"].split():
                self.types.add(t.rstrip("/").rsplit("/", 1)[-1].lower())
        cls = a.get("class", "").split()
        ids = a.get("id", "").split()
        for t in cls + ids:
            tl = t.lower()
            if tl in DOC_MARK:
                self.marks.add("doc:" + tl)
            if FORUM_MARK.match(tl):
                self.marks.add("forum:" + tl)
        if "mw-content-text" in ids or (tag == "body" and "mediawiki" in cls):
            self.marks.add("wiki:mediawiki")
        if tag == "script" and "ld+json" in a.get("type", "").lower():
            self.in_ld = True
        if tag == "title" and not self.title:
            self.in_title = True
        if tag == "article":
            self.n_article += 1
        if tag in ("h2", "h3", "h4"):
            self.heading = False
        if tag == "a" and self.heading is False:
            self.heading = True
        if tag == "h1":
            for e in self.stack:
                if e[1]:
                    e[2] = True
        if tag in VOID:
            return
        is_comment = tag not in ("body", "html", "form", "a", "input", "button", "span") and any(
            COMMENT_TOK.search(t) and not COMMENT_NOT.search(t) for t in cls + ids)
        self.stack.append([tag, is_comment, False, 0])
        self._enter(tag, is_comment, +1)

    def _enter(self, tag, is_comment, d):
        if tag in HIDDEN:
            self.hidden += d
        if tag == "a":
            self.link += d
        if tag in CODE:
            self.code += d
        if is_comment:
            self.comment += d

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.handle_endtag(tag)

    def handle_endtag(self, tag):
        if tag in BLOCK:
            self.flush()
        if tag == "script":
            self.in_ld = False
        if tag == "title":
            self.in_title = False
        if tag in ("h2", "h3", "h4"):
            if self.heading:
                self.n_linked_headings += 1
            self.heading = None
        # close up to the matching open element, if it is open (html.parser
        # does not imply end tags)
        for i in range(len(self.stack) - 1, max(-1, len(self.stack) - 200), -1):
            if self.stack[i][0] == tag:
                while len(self.stack) > i:
                    e = self.stack.pop()
                    self._enter(e[0], e[1], -1)
                    if e[1] and e[2]:
                        # a comment container that holds the <h1> is a wrapper
                        self.comment_words -= e[3]
                return

    def handle_data(self, data):
        if self.in_ld:
            self.ld.append(data)
            return
        if self.in_title:
            self.title.append(data)
        if self.hidden:
            return
        n = words(data)
        if not n:
            return
        self.total += n
        if self.link:
            self.link_words += n
        if self.code:
            self.code_words += n
        if self.comment:
            if not self.link:
                self.comment_words += n
                # words of the outermost open comment container, to take
                # them back when it turns out to hold the <h1>
                for e in self.stack:
                    if e[1]:
                        e[3] += n
                        break
        else:
            self.block[1 if self.link else 0] += n

    def finish(self):
        self.close()
        self.flush()
        while self.stack:
            e = self.stack.pop()
            if e[1] and e[2]:
                self.comment_words -= e[3]
        for chunk in self.ld:
            for m in LDTYPE.finditer(chunk):
                for t in re.findall(r'"([^"]*)"', m.group(1)):
                    self.types.add(t.rsplit("/", 1)[-1].lower())


def classify(text):
    s = Scan()
    try:
        s.feed(text)
        s.finish()
    except Exception:  # noqa: BLE001 - a page html.parser cannot read is "other", not a crash
        pass
    gen = s.generator
    types = s.types
    article_meta = (s.og_type == "article" or s.published or any(ARTICLE_TYPES.match(t) for t in types)
                    or 1 <= s.n_article <= 3)
    nonlink = max(1, s.total - s.link_words)
    link_share = s.link_words / max(1, s.total)
    title = " ".join("".join(s.title).split())
    if s.prose < 150 and ERROR_TITLE.search(title):
        return "error", "title " + title[:40]
    if WIKI_GEN.search(gen) or "wiki:mediawiki" in s.marks or types & ENC_TYPES:
        return "encyclopedia", "wiki generator/markup" if not types & ENC_TYPES else "schema.org " + ",".join(
            sorted(types & ENC_TYPES))
    if DOC_GEN.search(gen):
        return "documentation", "generator " + gen.strip()[:40]
    if types & DOC_TYPES:
        return "documentation", "schema.org " + ",".join(sorted(types & DOC_TYPES))
    doc_marks = sorted(m for m in s.marks if m.startswith("doc:"))
    if doc_marks:
        return "documentation", "markup " + doc_marks[0][4:]
    if not article_meta and s.total >= 50 and s.code_words >= 0.3 * s.total:
        return "documentation", "code share %.2f" % (s.code_words / s.total)
    if FORUM_GEN.search(gen):
        return "forum", "generator " + gen.strip()[:40]
    if types & FORUM_TYPES:
        return "forum", "schema.org " + ",".join(sorted(types & FORUM_TYPES))
    forum_marks = sorted(m for m in s.marks if m.startswith("forum:"))
    if forum_marks:
        return "forum", "markup " + forum_marks[0][6:]
    if s.comment_words >= 0.5 * nonlink and s.comment_words >= 50:
        return "forum", "comment words %.2f" % (s.comment_words / nonlink)
    if not article_meta and s.prose < 150 and (types & LIST_TYPES or s.n_article >= 4 or s.n_linked_headings >= 5
                                                or link_share >= 0.6):
        why = ("schema.org " + ",".join(sorted(types & LIST_TYPES)) if types & LIST_TYPES else
               "%d <article>" % s.n_article if s.n_article >= 4 else
               "%d linked headings" % s.n_linked_headings if s.n_linked_headings >= 5 else
               "link share %.2f" % link_share)
        return "listing", why
    if article_meta:
        why = ("og:type article" if s.og_type == "article" else "article:published_time" if s.published else
               "schema.org " + ",".join(sorted(t for t in types if ARTICLE_TYPES.match(t))) if any(
                   ARTICLE_TYPES.match(t) for t in types) else "%d <article>" % s.n_article)
        return "article", why
    if s.prose >= 150:
        return "article", "prose %d words" % s.prose
    return "other", "prose %d words, link share %.2f" % (s.prose, link_share)


def read_manifest(path, all_rows):
    base = os.path.dirname(os.path.abspath(path))
    with open(path, encoding="utf-8") as f:
        header = f.readline().rstrip("\n").split("\t")
        if header[:2] != ["site", "page"]:
            sys.exit("page_kind.py: %s: bad manifest header" % path)
        gi = header.index("gold") if "gold" in header else None
        for line in f:
            r = line.rstrip("\n").split("\t")
            if len(r) < 2:
                continue
            if not all_rows and (gi is None or gi >= len(r) or not r[gi]):
                continue
            yield r[0], r[1], os.path.join(base, r[1])


def main(argv):
    args = [a for a in argv if not a.startswith("--")]
    opts = {a for a in argv if a.startswith("--")}
    if not args or opts - {"--all", "--summary"}:
        sys.stderr.write(__doc__.split("\n\n")[1] + "\n")
        return 2
    counts = collections.OrderedDict()
    out = sys.stdout
    out.write("dataset\tsite\tpage\tkind\twhy\n")
    for m in args:
        ds = os.path.basename(os.path.dirname(os.path.abspath(m)))
        c = counts.setdefault(ds, collections.Counter())
        for site, page, path in read_manifest(m, "--all" in opts):
            try:
                with open(path, "rb") as f:
                    kind, why = classify(decode(f.read()))
            except OSError as e:
                kind, why = "other", "unreadable: %s" % e.strerror
            c[kind] += 1
            out.write("%s\t%s\t%s\t%s\t%s\n" % (ds, site, page, kind, why))
    if "--summary" in opts:
        err = sys.stderr
        err.write("| data set | pages | " + " | ".join(KIND_LABEL[k] for k in KINDS) + " |\n")
        err.write("|---|---|" + "---|" * len(KINDS) + "\n")
        for ds, c in counts.items():
            n = sum(c.values())
            err.write("| %s | %d | " % (ds, n) + " | ".join(
                "%d (%.1f %%)" % (c[k], 100.0 * c[k] / n) if c[k] else "0" for k in KINDS) + " |\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
