"""tbk: template-block kit from Python.

Clean text and template probabilities of web pages, their declared
metadata, the HTML records of WARC files, and the paper's auto-labels of a
site's blocks, computed by libtbk (the C library the tbk-* programs are
built on) through ctypes: no compiled extension.

    import tbk
    text = tbk.extract(html_bytes)       # the clean text, or None
    doc = tbk.extract(html_bytes, url=u, output_format="json")  # + metadata
    model = tbk.Model()                  # the shipped two-stage model
    print(model.text(html_bytes))        # what `tbk-predict -f text` prints
    for b in model.blocks(html_bytes):   # what `tbk-predict -f jsonl` writes
        print(b.p_template, b.template, b.text)
    for rec in tbk.read_warc("crawl.warc.gz"):
        print(rec.url, rec.record_id, tbk.extract(rec))

Thread safety: a Model may be shared by threads. A call takes a predictor
from the model's pool (a new one when none is idle) and gives it back;
the pool keeps at most `pool_size` idle predictors and frees the rest, so
memory follows the number of calls running at once, not the number of
threads that ever used the model. The library's calls release the GIL
(ctypes does), so threads run in parallel. close() waits for the calls
running to finish; any call after it raises ValueError. Functions that
label a site keep their state per call.

The library is found through $TBK_LIBRARY, then the install prefix this
package was installed into, then the loader's path (libtbk.so.1). The
shipped model through $TBK_MODEL, then beside the library loaded
(LIBDIR/../share/tbk/default.model: an installation or a build tree), then
the source tree of a build tree's library (SOURCE/models/default.model),
then /usr/local/share/tbk and /usr/share/tbk.
"""
import ctypes
import ctypes.util
import io
import json
import math
import os
import threading
import warnings

try:
    from . import _config  # written by `cmake --install`
except ImportError:  # running from the source tree, or installed by pip
    _config = None

__all__ = ["Model", "Block", "Error", "TooFewPagesWarning", "WarcWarning", "WarcRecord", "WarcReader",
           "extract", "metadata", "keywords", "label_site", "read_warc", "site_of_url", "__version__"]


class Error(Exception):
    """A failure of the library, with its one-line message (which names the
    file when there is one). `code` is the library's status name
    ("I/O error", "limit exceeded", ...)."""

    def __init__(self, msg, code=None):
        super().__init__(msg)
        self.code = code


class TooFewPagesWarning(UserWarning):
    """label_site was given fewer readable pages than min_pages: no labels
    (tbk-label's "pages < --min-pages (skipped)")."""


class WarcWarning(UserWarning):
    """A WARC record skipped or damaged, as the programs warn of it."""


class _Err(ctypes.Structure):
    _fields_ = [("code", ctypes.c_int), ("msg", ctypes.c_char * 512)]


class _Buf(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("len", ctypes.c_size_t), ("cap", ctypes.c_size_t),
                ("sink", ctypes.c_void_p)]  # tbk.h's tbk_buf: NULL, the buffer holds everything


class _ContentOptions(ctypes.Structure):  # tbk.h's tbk_content_options
    _fields_ = [("threshold", ctypes.c_double), ("title", ctypes.c_int), ("keep_comments", ctypes.c_int),
                ("min_kept_words", ctypes.c_size_t), ("fallback_threshold", ctypes.c_double),
                ("body", ctypes.c_int), ("prose_share", ctypes.c_double), ("text_share", ctypes.c_double)]


class _PredictOptions(ctypes.Structure):  # tbk_predict_options
    _fields_ = [("stage", ctypes.c_int), ("threshold", ctypes.c_double), ("precision", ctypes.c_double),
                ("content", _ContentOptions)]


class _Summary(ctypes.Structure):  # tbk_page_summary
    _fields_ = [("blocks", ctypes.c_size_t), ("template_blocks", ctypes.c_size_t),
                ("chars", ctypes.c_size_t), ("template_chars", ctypes.c_size_t)]


class _LabelOptions(ctypes.Structure):  # tbk_label_options
    _fields_ = [("template_share", ctypes.c_double), ("template_min_df", ctypes.c_size_t),
                ("min_pages", ctypes.c_size_t), ("emit_ignored", ctypes.c_int)]


class _WarcRec(ctypes.Structure):  # tbk_warc_record
    _fields_ = [("url", ctypes.c_char_p), ("record_id", ctypes.c_char_p), ("date", ctypes.c_char_p),
                ("charset", ctypes.c_char_p), ("warc_headers", ctypes.c_void_p),
                ("warc_headers_len", ctypes.c_size_t), ("http_headers", ctypes.c_void_p),
                ("http_headers_len", ctypes.c_size_t), ("body", ctypes.c_void_p), ("body_len", ctypes.c_size_t),
                ("offset", ctypes.c_uint64), ("skip", ctypes.c_uint64)]


_WRITE_FN = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t)
_FORMATS = {"txt": 0, "text": 0, "jsonl": 1, "html": 2, "json": 0}
_STAGES = {None: -1, "combined": 1, "template": 0, "content": 2}
_ERR_EMPTY, _ERR_BINARY = 3, 4


def _here(rel):
    return os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), rel))


def _load_library():
    candidates = []
    env = os.environ.get("TBK_LIBRARY")
    if env:
        candidates.append(env)
    if _config is not None:
        candidates.append(_here(_config.LIBRARY))
    candidates.append("libtbk.so.1")  # the SONAME whose structures _ContentOptions and the rest match
    found = ctypes.util.find_library("tbk")
    if found:
        candidates.append(found)
    errors = []
    for c in candidates:
        try:
            return ctypes.CDLL(c)
        except OSError as e:
            errors.append(str(e))
    raise ImportError("tbk: cannot load libtbk (set TBK_LIBRARY): " + "; ".join(errors))


def _loaded_path():
    """The file of the libtbk this process loaded (None when unknown)."""
    try:
        with open("/proc/self/maps", encoding="utf-8", errors="replace") as f:
            for line in f:
                p = line.split(None, 5)[-1].strip()
                if os.path.basename(p).startswith("libtbk.so"):
                    return p
    except OSError:
        pass
    return None


_lib = _load_library()
_P = ctypes.c_void_p
_ERR = ctypes.POINTER(_Err)
_sig = {
    "tbk_version": (ctypes.c_char_p, []),
    "tbk_status_str": (ctypes.c_char_p, [ctypes.c_int]),
    "tbk_buf_free": (None, [ctypes.POINTER(_Buf)]),
    "tbk_model_load": (ctypes.c_int, [ctypes.c_char_p, ctypes.POINTER(_P), _ERR]),
    "tbk_model_free": (None, [_P]),
    "tbk_predictor_new": (ctypes.c_int, [_P, ctypes.POINTER(_P), _ERR]),
    "tbk_predictor_free": (None, [_P]),
    "tbk_page_parse_for": (ctypes.c_int, [_P, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p,
                                          ctypes.POINTER(_P), _ERR]),
    "tbk_page_parse_fingerprinted": (ctypes.c_int, [_P, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p,
                                                    ctypes.POINTER(_P), _ERR]),
    "tbk_history_open_for": (ctypes.c_int, [_P, ctypes.c_char_p, ctypes.c_int, ctypes.POINTER(_P), _ERR]),
    "tbk_history_begin": (ctypes.c_int, [_P, ctypes.c_char_p, ctypes.c_char_p, _ERR]),
    "tbk_history_pages": (ctypes.c_uint32, [_P]),
    "tbk_history_close": (ctypes.c_int, [_P, _ERR]),
    "tbk_predictor_set_history": (None, [_P, _P]),
    "tbk_page_free": (None, [_P]),
    "tbk_page_metadata": (ctypes.c_int, [_P, ctypes.POINTER(_Buf), _ERR]),
    "tbk_predict_options_init": (None, [ctypes.POINTER(_PredictOptions)]),
    "tbk_predict_render_opts": (ctypes.c_int, [_P, _P, ctypes.c_char_p, ctypes.c_int,
                                               ctypes.POINTER(_PredictOptions), ctypes.POINTER(_Buf),
                                               ctypes.POINTER(_Summary), _ERR]),
    "tbk_site_of_url": (_P, [ctypes.c_char_p, ctypes.c_int]),
    "tbk_label_options_init": (None, [ctypes.POINTER(_LabelOptions)]),
    "tbk_labeler_new": (ctypes.c_int, [ctypes.c_char_p, ctypes.POINTER(_LabelOptions), ctypes.POINTER(_P), _ERR]),
    "tbk_labeler_free": (None, [_P]),
    "tbk_labeler_add": (ctypes.c_int, [_P, ctypes.c_char_p, ctypes.c_char_p, _P, _ERR]),
    "tbk_labeler_finish": (ctypes.c_int, [_P, _WRITE_FN, _P, _P, _ERR]),
    "tbk_labeler_use_history": (None, [_P, _P]),
    "tbk_labeler_pages": (ctypes.c_size_t, [_P]),
    "tbk_keyword_table_load": (ctypes.c_int, [ctypes.c_char_p, ctypes.c_char_p, ctypes.POINTER(_P), _ERR]),
    "tbk_keyword_table_free": (None, [_P]),
    "tbk_keywords_page": (ctypes.c_int, [_P, _P, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_char_p,
                                         ctypes.c_int, ctypes.c_size_t, ctypes.POINTER(_Buf), _ERR]),
    "tbk_warc_open": (ctypes.c_int, [ctypes.c_char_p, ctypes.c_size_t, ctypes.POINTER(_P), _ERR]),
    "tbk_warc_free": (None, [_P]),
    "tbk_warc_count": (ctypes.c_size_t, [_P]),
    "tbk_warc_skipped": (ctypes.c_size_t, [_P]),
    "tbk_warc_warnings": (ctypes.c_char_p, [_P]),
    "tbk_warc_record_get": (ctypes.c_int, [_P, ctypes.c_size_t, ctypes.POINTER(_WarcRec), _ERR]),
}
for _name, (_res, _args) in _sig.items():
    _f = getattr(_lib, _name)
    _f.restype = _res
    _f.argtypes = _args
_libc = ctypes.CDLL(None)
_libc.free.argtypes = [_P]

__version__ = _lib.tbk_version().decode()


def _check(status, err, what=None):
    if status:
        msg = err.msg.decode("utf-8", "replace")
        raise Error(f"{what}: {msg}" if what else msg, _lib.tbk_status_str(status).decode())


# ------------------------------------------------------------ arguments

def _cstr(value, what, none_ok=True):
    """A str or bytes argument as the C string the library takes: str is
    sent as UTF-8; None passes when none_ok; another type is a TypeError, a
    NUL (which would cut the string short) a ValueError."""
    if value is None and none_ok:
        return None
    if isinstance(value, str):
        b = value.encode("utf-8", "surrogateescape")
    elif isinstance(value, (bytes, bytearray)):
        b = bytes(value)
    else:
        raise TypeError(f"{what} must be str or bytes{' or None' if none_ok else ''}, not {type(value).__name__}")
    if b"\0" in b:
        raise ValueError(f"{what} contains a NUL character")
    return b


def _fspath(path, what="path"):
    """A file name (str, bytes or os.PathLike) as bytes: TypeError for
    another type, ValueError for an embedded NUL."""
    try:
        p = os.fspath(path)
    except TypeError:
        raise TypeError(f"{what} must be str, bytes or os.PathLike, not {type(path).__name__}") from None
    b = os.fsencode(p)
    if b"\0" in b:
        raise ValueError(f"{what} contains a NUL character")
    return b


def _page_bytes(html, charset=None):
    """The page's bytes and the charset to tell the library. bytes are
    sniffed for their charset as the programs do, after the charset of an
    HTTP Content-Type when one is given (as tbk-predict takes a WARC
    record's); str is sent as UTF-8 and said to be so; an os.PathLike names
    a file to read; an object with read() (a file opened in binary or text
    mode) is read."""
    hint = _cstr(charset, "charset")
    if isinstance(html, os.PathLike):
        with open(html, "rb") as f:
            html = f.read()
    elif hasattr(html, "read") and not isinstance(html, (str, bytes, bytearray, memoryview)):
        html = html.read()
    if isinstance(html, str):
        return html.encode("utf-8", "surrogatepass"), b"UTF-8"
    if isinstance(html, (bytes, bytearray, memoryview)):
        return bytes(html), hint
    raise TypeError("html must be str, bytes, an os.PathLike naming a file, or a file object, not "
                    + type(html).__name__)


def _take_record(html, url, charset):
    """A WarcRecord given as html brings its own URL and charset."""
    if isinstance(html, WarcRecord):
        return html.html, (url if url is not None else html.url), (charset if charset is not None else
                                                                  (html.charset or None))
    return html, url, charset


class _Page:
    def __init__(self, model_handle, html, name, charset=None, fingerprints=False):
        data, hint = _page_bytes(html, charset)
        self.handle = _P()
        err = _Err()
        _check((_lib.tbk_page_parse_fingerprinted if fingerprints else _lib.tbk_page_parse_for)(model_handle, data, len(data), hint, ctypes.byref(self.handle),
                                       ctypes.byref(err)), err, name)

    def close(self):
        if self.handle:
            _lib.tbk_page_free(self.handle)
            self.handle = _P()


def _take_buf(buf):
    try:
        return ctypes.string_at(buf.data, buf.len).decode("utf-8") if buf.len else ""
    finally:
        _lib.tbk_buf_free(ctypes.byref(buf))


def _page_metadata(page_handle, name):
    buf = _Buf()
    err = _Err()
    st = _lib.tbk_page_metadata(page_handle, ctypes.byref(buf), ctypes.byref(err))
    out = _take_buf(buf)
    _check(st, err, name)
    return json.loads(out)


class Block:
    """One scored unit (two-stage model) or block (template-only model), as
    one line of `tbk-predict -f jsonl`: path, tag, p_template (the
    template probability of its innermost block), p_content (None for a
    template-only model), template (True when removed), text (its first
    characters, as in the JSONL), and record (the whole JSON object)."""

    __slots__ = ("path", "tag", "p_template", "p_content", "template", "text", "record")

    def __init__(self, record):
        self.record = record
        self.path = record["path"]
        self.tag = record["tag"]
        self.text = record["text"]
        if "p_content" in record:
            self.p_template = record["p_template"]
            self.p_content = record["p_content"]
            self.template = not record["content"]
        else:
            self.p_template = record["p"]
            self.p_content = None
            self.template = record["template"]

    def __repr__(self):
        return (f"Block(path={self.path!r}, tag={self.tag!r}, p_template={self.p_template}, "
                f"p_content={self.p_content}, template={self.template}, text={self.text[:40]!r})")


def _default_model():
    env = os.environ.get("TBK_MODEL")
    if env:
        return env
    places = [_here(_config.MODEL)] if _config is not None else []
    lib = _loaded_path()
    if lib:
        d = os.path.dirname(os.path.realpath(lib))
        # an installation (PREFIX/lib or PREFIX/lib/<multiarch>) or a build
        # tree (BUILD/core, whose share/ holds a copy)
        places += [os.path.join(d, "..", "share", "tbk", "default.model"),
                   os.path.join(d, "..", "..", "share", "tbk", "default.model")]
        # a build tree's library: its source tree's models/
        for up in (d, os.path.dirname(d)):
            cache = os.path.join(up, "CMakeCache.txt")
            if os.path.exists(cache):
                with open(cache, encoding="utf-8", errors="replace") as f:
                    for line in f:
                        if line.startswith("CMAKE_HOME_DIRECTORY:"):
                            places.append(os.path.join(line.split("=", 1)[1].strip(), "models", "default.model"))
    places += ["/usr/local/share/tbk/default.model", "/usr/share/tbk/default.model"]
    for p in places:
        if os.path.exists(p):
            return os.path.normpath(p)
    return places[0]  # loading it names the missing file


def _float_or_nan(value, what):
    if value is None:
        return math.nan
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{what} must be a number or None, not {type(value).__name__}")
    if not 0 <= value <= 1:
        raise ValueError(f"{what} must be in [0, 1], not {value}")
    return float(value)


def _bool(value, what):
    if not isinstance(value, (bool, int)):
        raise TypeError(f"{what} must be a bool, not {type(value).__name__}")
    return 1 if value else 0


class Model:
    """A model file (str, bytes or os.PathLike); None is the shipped default
    model (see the module's docstring for where it is looked for). Raises
    Error (naming the file) when it cannot be loaded, TypeError for a path
    of another type, ValueError for a NUL in it. pool_size: the idle
    predictors kept for reuse (default: twice the CPUs, at least 4).

    history: a site-history store (a file, made when absent): each page
    given with its url is decided with what the store knows of its site's
    other pages (its blocks' counts; see the README's "Site history"), and
    counted into it; history_only: read the store, never add to it. Each
    predictor of the pool has its own connection; what it counted is
    committed every 256 pages and by close() (or the end of a with block):
    a process that ends without close() loses its uncommitted pages."""

    def __init__(self, path=None, pool_size=None, history=None, history_only=False):
        self._handle = None
        self._history = None
        self._hist = {}  # predictor handle value -> its history handle
        if path is None:
            path = _default_model()
        bpath = _fspath(path, "model path")
        self.path = os.fsdecode(bpath)
        if pool_size is None:
            pool_size = max(4, 2 * (os.cpu_count() or 1))
        if isinstance(pool_size, bool) or not isinstance(pool_size, int) or pool_size < 0:
            raise TypeError("pool_size must be an int >= 0")
        self._pool_size = pool_size
        self._cond = threading.Condition(threading.Lock())
        self._idle = []
        self._busy = 0
        self._closing = False
        self._kw_tables = {}
        h = _P()
        err = _Err()
        _check(_lib.tbk_model_load(bpath, ctypes.byref(h), ctypes.byref(err)), err, self.path)
        self._handle = h
        if history is not None:
            self._history = _fspath(history, "history path")
            self._history_only = 1 if _bool(history_only, "history_only") else 0
            # refused stores fail here, not at the first page
            self._free_predictor(self._new_predictor())

    def _new_predictor(self):
        pr = _P()
        err = _Err()
        st = _lib.tbk_predictor_new(self._handle, ctypes.byref(pr), ctypes.byref(err))
        if st:
            _check(st, err, self.path)
        if self._history is not None:
            hh = _P()
            st = _lib.tbk_history_open_for(self._handle, self._history, self._history_only, ctypes.byref(hh),
                                           ctypes.byref(err))
            if st:
                _lib.tbk_predictor_free(pr)
                _check(st, err, os.fsdecode(self._history))
            _lib.tbk_predictor_set_history(pr, hh)
            self._hist[pr.value] = hh
        return pr

    def _free_predictor(self, pr):
        """Free a predictor and commit and close its history connection."""
        hh = self._hist.pop(pr.value, None)
        _lib.tbk_predictor_free(pr)
        if hh is not None:
            err = _Err()
            _check(_lib.tbk_history_close(hh, ctypes.byref(err)), err, os.fsdecode(self._history))

    # A call holds the model open: close() waits for it, and a call after
    # close() (or during it) raises ValueError instead of touching freed
    # memory.
    def _enter(self):
        with self._cond:
            if self._handle is None or self._closing:
                raise ValueError("tbk.Model: the model is closed")
            self._busy += 1
            return self._idle.pop() if self._idle else None

    def _leave(self, pr):
        with self._cond:
            self._busy -= 1
            if pr:
                if len(self._idle) < self._pool_size and not self._closing:
                    self._idle.append(pr)
                else:
                    self._free_predictor(pr)
            if self._busy == 0:
                self._cond.notify_all()

    def _call(self, fn):
        pr = self._enter()
        try:
            if pr is None:
                pr = self._new_predictor()
            return fn(pr)
        finally:
            self._leave(pr)

    @property
    def closed(self):
        """True once close() was called."""
        return self._handle is None or self._closing

    def _render(self, html, url, fmt, charset, opts=None, want_meta=False):
        html, url, charset = _take_record(html, url, charset)
        burl = _cstr(url, "url")
        name = os.fsdecode(burl) if burl else "page"

        history = self._history is not None and burl

        def run(pr):
            page = _Page(self._handle, html, name, charset, fingerprints=history)
            buf = _Buf()
            err = _Err()
            summary = _Summary()
            try:
                hh = self._hist.get(pr.value)
                # a page without a url has no site: decided alone
                _lib.tbk_predictor_set_history(pr, hh if history else None)
                if history:
                    site = site_of_url(burl) or os.fsdecode(burl)
                    _check(_lib.tbk_history_begin(hh, site.encode(), burl, ctypes.byref(err)), err,
                           os.fsdecode(self._history))
                if opts is None:
                    o = None
                else:
                    o = ctypes.byref(opts)
                st = _lib.tbk_predict_render_opts(pr, page.handle, burl or b"", fmt, o, ctypes.byref(buf),
                                                  ctypes.byref(summary), ctypes.byref(err))
                out = _take_buf(buf)
                _check(st, err, name)
                meta = _page_metadata(page.handle, name) if want_meta else None
                return out, summary, meta
            finally:
                page.close()

        return self._call(run)

    def text(self, html, url=None, charset=None):
        """The page's clean text: exactly what `tbk-predict -f text` prints
        for it (the headline, then one line per kept unit). charset: that of
        the HTTP Content-Type, when html is bytes from a response that had
        one (a WARC record's, say): it comes before <meta> and sniffing.
        html: bytes, str, an os.PathLike (a file to read), a file object, or
        a WarcRecord. Raises Error when the page cannot be read (empty,
        binary, over a limit), TypeError/ValueError for bad arguments,
        ValueError after close()."""
        return self._render(html, url, 0, charset)[0]

    def blocks(self, html, url=None, charset=None):
        """The page's scored units (or blocks), in page order, with the same
        probabilities as `tbk-predict -f jsonl`; url becomes the records'
        page id; html and charset as for text()."""
        out = self._render(html, url, 1, charset)[0]
        return [Block(json.loads(line)) for line in out.splitlines() if line]

    def _keyword_table(self, df, ranker):
        if df is _BESIDE:
            df = os.path.join(os.path.dirname(os.path.abspath(self.path)), "keywords.df")
            df = df if os.path.exists(df) else None
        key = (None if df is None else _fspath(df, "df"), None if ranker is None else _fspath(ranker, "ranker"))
        with self._cond:
            if self._handle is None or self._closing:
                raise ValueError("tbk.Model: the model is closed")
            t = self._kw_tables.get(key)
        if t is None:
            t = _P()
            err = _Err()
            _check(_lib.tbk_keyword_table_load(key[0], key[1], ctypes.byref(t), ctypes.byref(err)), err)
            with self._cond:
                if key in self._kw_tables or self._handle is None:
                    _lib.tbk_keyword_table_free(t)
                    t = self._kw_tables.get(key)
                    if t is None:
                        raise ValueError("tbk.Model: the model is closed")
                else:
                    self._kw_tables[key] = t
        return t

    def keywords(self, html, url=None, top=10, denoise=None, df=None, ranker=None, charset=None):
        """tbk.keywords() with this model."""
        return keywords(html, url=url, top=top, denoise=denoise, df=df, ranker=ranker, charset=charset, model=self)

    def metadata(self, html, url=None, charset=None):
        """What the page declares about itself, as tbk.metadata()."""
        return metadata(html, url=url, charset=charset)

    def extract(self, html, url=None, output_format="txt", threshold=None, precision=None, stage=None,
                body=False, keep_comments=False, title=True, charset=None, min_kept_words=None,
                prose_share=None, text_share=None, annotate=False):
        """tbk.extract() with this model."""
        if not isinstance(output_format, str) or output_format not in _FORMATS:
            raise ValueError("output_format must be one of 'txt', 'json', 'html', 'jsonl', not %r"
                             % (output_format,))
        if stage not in _STAGES:
            raise ValueError("stage must be None, 'combined', 'template' or 'content', not %r" % (stage,))
        if threshold is not None and precision is not None:
            raise ValueError("threshold and precision exclude each other")
        if annotate and output_format != "html":
            raise ValueError("annotate needs output_format='html'")
        o = _PredictOptions()
        _lib.tbk_predict_options_init(ctypes.byref(o))
        o.stage = _STAGES[stage]
        o.threshold = _float_or_nan(threshold, "threshold")
        o.precision = _float_or_nan(precision, "precision")
        o.content.body = _bool(body, "body")
        o.content.keep_comments = _bool(keep_comments, "keep_comments")
        o.content.title = _bool(title, "title")
        if min_kept_words is not None:
            if isinstance(min_kept_words, bool) or not isinstance(min_kept_words, int) or min_kept_words < 0:
                raise TypeError("min_kept_words must be an int >= 0")
            o.content.min_kept_words = min_kept_words
        if prose_share is not None:
            o.content.prose_share = _float_or_nan(prose_share, "prose_share")
        if text_share is not None:
            o.content.text_share = _float_or_nan(text_share, "text_share")
        fmt = 3 if annotate else _FORMATS[output_format]
        html, url, charset = _take_record(html, url, charset)
        try:
            out, summary, meta = self._render(html, url, fmt, charset, o, output_format == "json")
        except Error as e:
            if e.code in (_lib.tbk_status_str(_ERR_EMPTY).decode(), _lib.tbk_status_str(_ERR_BINARY).decode()):
                return None
            raise
        if summary.chars <= summary.template_chars:
            return None  # nothing kept
        if output_format != "json":
            return out
        doc = {"url": url if isinstance(url, str) else (os.fsdecode(url) if url else meta["url"])}
        doc.update((k, v) for k, v in meta.items() if k != "url")
        doc["canonical"] = meta["url"]
        doc["text"] = out
        return json.dumps(doc, ensure_ascii=False)

    def close(self):
        """Release the model and its predictors now. Calls running in other
        threads are waited for; any call after close() raises ValueError.
        Closing twice does nothing."""
        with self._cond:
            if self._handle is None or self._closing:
                return
            self._closing = True
            while self._busy:
                self._cond.wait()
            idle, self._idle = self._idle, []
            failed = None
            for pr in idle:
                try:
                    self._free_predictor(pr)  # commits its history
                except Error as e:
                    failed = failed or e
            for t in self._kw_tables.values():
                _lib.tbk_keyword_table_free(t)
            self._kw_tables = {}
            _lib.tbk_model_free(self._handle)
            self._handle = None
            if failed:
                raise failed

    def __del__(self):
        try:
            if getattr(self, "_handle", None) is not None:
                self.close()
        except Exception:
            pass

    def __enter__(self):
        if self.closed:
            raise ValueError("tbk.Model: the model is closed")
        return self

    def __exit__(self, *exc):
        self.close()


_default = None
_default_lock = threading.Lock()


def _default_instance():
    global _default
    with _default_lock:
        if _default is None or _default.closed:
            _default = Model()
        return _default


def extract(html, url=None, output_format="txt", threshold=None, precision=None, stage=None, body=False,
            keep_comments=False, title=True, charset=None, min_kept_words=None, prose_share=None,
            text_share=None, annotate=False, model=None):
    """The page's main content, as trafilatura.extract() gives it; None when
    nothing is kept (or the page is empty or not HTML).

    html: bytes (charset sniffed as the programs do, after charset=, an
    HTTP Content-Type's), str (taken as text), an os.PathLike naming a file,
    a file object, or a WarcRecord (its URL and charset then used unless
    given). url: names the page (JSONL records, json's "url").
    output_format: "txt" (what `tbk-predict -f text` prints: the headline,
    then one line per kept unit), "jsonl" (`-f jsonl`: one JSON object a
    unit, in one str), "html" (`-f html`: the page without what is removed;
    annotate=True: `--annotate`), "json" (one JSON object: url, title,
    author, date, date_modified, site_name, language, description,
    canonical, image, keywords (declared in <meta>), type, text: the
    metadata as tbk.metadata() reads it, each a str or None, and the
    "txt" output).
    Every tbk-predict option, per call: threshold (-t), precision (-p;
    excludes threshold), stage (None: the model's best; "combined",
    "template", "content"), body (--body), keep_comments (--keep comments),
    title (False: --no-title), min_kept_words, prose_share
    (--min-prose-share), text_share (--min-text-share); the combined stage's options with the template
    stage raise Error. model: a Model (default: the shipped model, loaded
    once and shared).

    Raises TypeError for an argument of the wrong type, ValueError for a
    bad value (an unknown output_format or stage, threshold with precision,
    a NUL in url or charset), Error for a page the library refuses (over a
    limit) or an option the model cannot honour (no content stage, no
    operating point for precision)."""
    if model is None:
        model = _default_instance()
    elif not isinstance(model, Model):
        raise TypeError("model must be a tbk.Model, not " + type(model).__name__)
    return model.extract(html, url=url, output_format=output_format, threshold=threshold,
                         precision=precision, stage=stage, body=body, keep_comments=keep_comments, title=title,
                         charset=charset, min_kept_words=min_kept_words, prose_share=prose_share,
                         text_share=text_share, annotate=annotate)


_BESIDE = object()
_DENOISE = {None: -1, "none": 0, "template": 1, "content": 2}


def keywords(html, url=None, top=10, denoise=None, df=None, ranker=None, charset=None, model=None):
    """The page's top keywords after its template or boilerplate is removed,
    as `tbk-keywords -f jsonl` ranks them: a list of dicts {"term", "score",
    "tf"}, best first (empty when the page has no candidate).

    html, url, charset as for extract(). top: how many (int >= 1).
    denoise: None (the content stage's kept text with a two-stage model,
    else the template stage's), "none", "template", "content" (--denoise).
    df: a background document-frequency file (tbk-keywords --build-df);
    None: keywords.df beside the model file, when there is one (the shipped
    one is), else idf 1. ranker: a trained ranker file (--train-ranker);
    None: TF-IDF. Tables are loaded once per model. Raises as extract()
    does; Error for a df or ranker file the library refuses, or
    denoise="content" with a template-only model."""
    if model is None:
        model = _default_instance()
    elif not isinstance(model, Model):
        raise TypeError("model must be a tbk.Model, not " + type(model).__name__)
    if isinstance(top, bool) or not isinstance(top, int) or top < 1:
        raise TypeError("top must be an int >= 1")
    if denoise not in _DENOISE:
        raise ValueError("denoise must be None, 'none', 'template' or 'content', not %r" % (denoise,))
    html, url, charset = _take_record(html, url, charset)
    burl = _cstr(url, "url")
    data, hint = _page_bytes(html, charset)
    table = model._keyword_table(_BESIDE if df is None else df, ranker)
    name = os.fsdecode(burl) if burl else "page"

    def run(pr):
        buf = _Buf()
        err = _Err()
        st = _lib.tbk_keywords_page(pr, table, data, len(data), hint, burl or b"", _DENOISE[denoise], top,
                                    ctypes.byref(buf), ctypes.byref(err))
        out = _take_buf(buf)
        _check(st, err, name)
        return json.loads(out)["keywords"]

    return model._call(run)


def metadata(html, url=None, charset=None):
    """What the page declares about itself, as a dict of str or None:
    title, author, date, date_modified, site_name, language, description,
    url (canonical or og:url), image, keywords, type. Read by the library
    (tbk_page_metadata) from JSON-LD, Open Graph and other <meta>, <html
    lang>, <link rel=canonical> and <title>; nothing is guessed from the
    text (a page that declares no author has author None). html and
    charset as for extract(); raises Error for a page that cannot be read."""
    html, url, charset = _take_record(html, url, charset)
    burl = _cstr(url, "url")
    page = _Page(None, html, os.fsdecode(burl) if burl else "page", charset)
    try:
        return _page_metadata(page.handle, "page")
    finally:
        page.close()


def site_of_url(url, host=False):
    """The site key of a URL (str or bytes): its registered domain
    (public-suffix list), or its host without "www." when host is true;
    None without a host."""
    p = _lib.tbk_site_of_url(_cstr(url, "url", none_ok=False), 1 if host else 0)
    if not p:
        return None
    try:
        return ctypes.string_at(p).decode()
    finally:
        _libc.free(p)


def label_site(pages, site=None, min_pages=10, template_share=0.10, min_df=3, emit_ignored=False, history=None,
               history_only=False):
    """The paper's auto-labels of one site's blocks, as tbk-label writes
    them: pages is an iterable of (url, html), or of (page_id, url, html)
    when the records should name the pages otherwise (tbk-label names a
    file's page by its path); returns the records (a dict per labelled
    block) in the order given. site (str) defaults to the registered domain
    of the first URL. Options as tbk-label's --min-pages, --template-share,
    --min-df and --emit-ignored.

    Pages that cannot be parsed (empty, binary, over a limit) are skipped,
    as tbk-label skips them. A site with fewer than min_pages readable
    pages gets no labels, as in tbk-label: the result is [] and a
    TooFewPagesWarning says why (warnings.simplefilter("error",
    tbk.TooFewPagesWarning) turns it into an exception).

    history (a path): tbk-label --history: the pages are counted into that
    site-history store (each page once ever, keyed by its URL, else its
    page_id) and labelled by the store's counts for the site, so a site
    labelled in several calls or runs is labelled by all of its pages;
    min_pages then counts the store's pages. history_only: read the store,
    count nothing."""
    rows = []
    for p in pages:
        if not isinstance(p, (tuple, list)) or len(p) not in (2, 3):
            raise TypeError("each page must be a (url, html) or (page_id, url, html) tuple")
        rows.append(tuple(p) if len(p) == 3 else (p[0], p[0], p[1]))
    for what, v in (("min_pages", min_pages), ("min_df", min_df)):
        if isinstance(v, bool) or not isinstance(v, int) or v < 1:
            raise TypeError(f"{what} must be an int >= 1")
    lopt = _LabelOptions()
    _lib.tbk_label_options_init(ctypes.byref(lopt))
    lopt.min_pages = min_pages
    lopt.template_min_df = min_df
    lopt.template_share = _float_or_nan(template_share, "template_share")
    lopt.emit_ignored = _bool(emit_ignored, "emit_ignored")
    if site is None:
        site = (site_of_url(rows[0][1]) if rows and rows[0][1] else None) or "-"
    bsite = _cstr(site, "site", none_ok=False)
    bhist = None if history is None else _fspath(history, "history path")
    read_only = 1 if _bool(history_only, "history_only") else 0
    lab = _P()
    err = _Err()
    _check(_lib.tbk_labeler_new(bsite, ctypes.byref(lopt), ctypes.byref(lab), ctypes.byref(err)), err,
           os.fsdecode(bsite))
    hist = None
    if bhist is not None:
        hist = _P()
        st = _lib.tbk_history_open_for(None, bhist, read_only, ctypes.byref(hist), ctypes.byref(err))
        if st:
            _lib.tbk_labeler_free(lab)
            _check(st, err, os.fsdecode(bhist))
        _lib.tbk_labeler_use_history(lab, hist)
    chunks = []

    @_WRITE_FN
    def collect(_ctx, data, n):
        chunks.append(ctypes.string_at(data, n))
        return 0

    try:
        readable = 0
        for page_id, url, html in rows:
            bid = _cstr(page_id, "page_id", none_ok=False)
            burl = _cstr(url, "url")
            try:
                page = _Page(None, html, os.fsdecode(bid))
            except Error:
                continue
            try:
                _check(_lib.tbk_labeler_add(lab, bid, burl or b"", page.handle, ctypes.byref(err)), err,
                       os.fsdecode(bid))
            finally:
                page.close()
            readable += 1
        counted = _lib.tbk_labeler_pages(lab) if hist is not None else readable
        if counted < min_pages:
            where = "pages in the history store" if hist is not None else "readable pages"
            warnings.warn(f"site {os.fsdecode(bsite)}: {counted} {where} < min_pages {min_pages}: "
                          "no labels (as tbk-label skips the site)", TooFewPagesWarning, stacklevel=2)
            return []
        _check(_lib.tbk_labeler_finish(lab, collect, None, None, ctypes.byref(err)), err, os.fsdecode(bsite))
    finally:
        _lib.tbk_labeler_free(lab)
        if hist is not None:
            herr = _Err()
            _check(_lib.tbk_history_close(hist, ctypes.byref(herr)), herr, os.fsdecode(bhist))
    return [json.loads(line) for line in b"".join(chunks).decode("utf-8").splitlines() if line]


# ------------------------------------------------------------------ WARC

def _parse_headers(raw):
    """Header lines (after the first) as a dict: names as written, values
    stripped, a repeated field's values joined by ", "."""
    out = {}
    lines = raw.split("\r\n") if "\r\n" in raw else raw.split("\n")
    for line in lines[1:]:
        if not line.strip() or ":" not in line:
            continue
        name, value = line.split(":", 1)
        name, value = name.strip(), value.strip()
        out[name] = out[name] + ", " + value if name in out else value
    return out


class WarcRecord:
    """One HTML response record of a WARC file: url (WARC-Target-URI),
    record_id (WARC-Record-ID, "" when absent), date (WARC-Date, "" when
    absent), status (the HTTP status code), headers (the HTTP headers, a
    dict), warc_headers (the WARC headers, a dict), charset (the HTTP
    Content-Type's, "" when none), html (the body as bytes: de-chunked,
    gzip/deflate decoded, not yet decoded to text), offset and skip (where
    the record starts: its gzip member's offset, or the byte offset of a
    plain WARC, and the decompressed bytes into it). Give it to
    extract()/Model.text() as the html: its URL and charset come with it."""

    __slots__ = ("url", "record_id", "date", "status", "headers", "warc_headers", "charset", "html",
                 "offset", "skip")

    def __init__(self, rec):
        dec = lambda b: b.decode("utf-8", "replace") if b else ""
        self.url = dec(rec.url)
        self.record_id = dec(rec.record_id)
        self.date = dec(rec.date)
        self.charset = dec(rec.charset)
        whead = ctypes.string_at(rec.warc_headers, rec.warc_headers_len).decode("utf-8", "replace")
        hhead = ctypes.string_at(rec.http_headers, rec.http_headers_len).decode("iso-8859-1")
        self.warc_headers = _parse_headers(whead)
        self.headers = _parse_headers(hhead)
        parts = hhead.split(None, 2)
        self.status = int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else None
        self.html = ctypes.string_at(rec.body, rec.body_len)
        self.offset = rec.offset
        self.skip = rec.skip

    def __repr__(self):
        return f"WarcRecord(url={self.url!r}, record_id={self.record_id!r}, date={self.date!r}, {len(self.html)} bytes)"


class WarcReader:
    """The HTML response records of one WARC file, as tbk_warc_open lists
    them (read_warc() makes one). Iterating reads each record on demand, in
    file order; len() is their number; skipped and warnings are what the
    listing skipped and why. A context manager; close() frees it."""

    def __init__(self, path, max_record_bytes=0):
        bpath = _fspath(path, "path")
        if isinstance(max_record_bytes, bool) or not isinstance(max_record_bytes, int) or max_record_bytes < 0:
            raise TypeError("max_record_bytes must be an int >= 0")
        self.path = os.fsdecode(bpath)
        self._h = None
        h = _P()
        err = _Err()
        _check(_lib.tbk_warc_open(bpath, max_record_bytes, ctypes.byref(h), ctypes.byref(err)), err, self.path)
        self._h = h
        self._lock = threading.Lock()
        self.skipped = _lib.tbk_warc_skipped(h)
        self.warnings = [w for w in _lib.tbk_warc_warnings(h).decode("utf-8", "replace").split("\n") if w]

    def __len__(self):
        if self._h is None:
            raise ValueError("tbk.WarcReader: closed")
        return _lib.tbk_warc_count(self._h)

    def record(self, i):
        """Record i (0-based) read now: a WarcRecord. Raises IndexError out
        of range, Error when it cannot be read, ValueError after close()."""
        with self._lock:
            if self._h is None:
                raise ValueError("tbk.WarcReader: closed")
            if not 0 <= i < _lib.tbk_warc_count(self._h):
                raise IndexError("record index out of range")
            rec = _WarcRec()
            err = _Err()
            _check(_lib.tbk_warc_record_get(self._h, i, ctypes.byref(rec), ctypes.byref(err)), err, self.path)
            return WarcRecord(rec)

    def __iter__(self):
        i = 0
        while True:
            with self._lock:
                if self._h is None:
                    raise ValueError("tbk.WarcReader: closed")
                n = _lib.tbk_warc_count(self._h)
            if i >= n:
                return
            yield self.record(i)
            i += 1

    def close(self):
        with self._lock:
            if self._h is not None:
                _lib.tbk_warc_free(self._h)
                self._h = None

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def read_warc(path, max_record_bytes=0):
    """The HTML response records of a WARC file (plain or .gz; str, bytes
    or os.PathLike), through the library's reader (tbk_warc_open): a
    WarcReader, to iterate for WarcRecord objects in file order. The file
    is listed now: Error when it cannot be opened, holds no WARC record
    (TBK_ERR_FORMAT) or no HTML response (TBK_ERR_EMPTY); records the
    reader skips (damaged, over max_record_bytes: 0 means no limit) each
    give a WarcWarning. The records read are what tbk-predict reads from
    the same file."""
    r = WarcReader(path, max_record_bytes)
    for w in r.warnings:
        warnings.warn(f"{r.path}: {w}", WarcWarning, stacklevel=2)
    return r
