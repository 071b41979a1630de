"""tbk: template-block kit from Python.

Clean text and template probabilities of web pages, and the paper's
auto-labels of a site's blocks, computed by libtbk (the C library the tbk-*
programs are built on) through ctypes: no compiled extension.

    import tbk
    model = tbk.Model()                  # the shipped two-stage model
    print(model.text(html_bytes))        # what `tbk-predict -f text` prints
    for b in model.blocks(html_bytes):   # what `tbk-predict -f jsonl` writes
        print(b.p_template, b.template, b.text)

Thread safety: a Model may be shared by threads (each thread gets its own
predictor); the library's calls release the GIL (ctypes does), so threads
run in parallel. Close a Model only when no thread is using it. Functions
that label a site keep their state per call.

The library is found through $TBK_LIBRARY, then the install prefix this
package was installed into, then the loader's path (libtbk.so.0).
"""
import ctypes
import ctypes.util
import json
import os
import threading

try:
    from . import _config  # written by `cmake --install`
except ImportError:  # running from the source tree
    _config = None

__all__ = ["Model", "Block", "Error", "label_site", "__version__"]


class Error(Exception):
    """A failure of the library, with its one-line message (which names the
    file when there is one)."""


class _Err(ctypes.Structure):
    _fields_ = [("code", ctypes.c_int), ("msg", ctypes.c_char * 512)]


class _Buf(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("len", ctypes.c_size_t), ("cap", ctypes.c_size_t),
                ("sink", ctypes.c_void_p)]  # tbk.h's tbk_buf: NULL, the buffer holds everything


_WRITE_FN = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t)
_FORMAT_TEXT, _FORMAT_JSONL = 0, 1


def _here(rel):
    return os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), rel))


def _load_library():
    candidates = []
    env = os.environ.get("TBK_LIBRARY")
    if env:
        candidates.append(env)
    if _config is not None:
        candidates.append(_here(_config.LIBRARY))
    candidates.append("libtbk.so.0")
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


_lib = _load_library()
_P = ctypes.c_void_p
_ERR = ctypes.POINTER(_Err)
_sig = {
    "tbk_version": (ctypes.c_char_p, []),
    "tbk_buf_free": (None, [ctypes.POINTER(_Buf)]),
    "tbk_model_load": (ctypes.c_int, [ctypes.c_char_p, ctypes.POINTER(_P), _ERR]),
    "tbk_model_free": (None, [_P]),
    "tbk_predictor_new": (ctypes.c_int, [_P, ctypes.POINTER(_P), _ERR]),
    "tbk_predictor_free": (None, [_P]),
    "tbk_page_parse_for": (ctypes.c_int, [_P, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p,
                                          ctypes.POINTER(_P), _ERR]),
    "tbk_page_free": (None, [_P]),
    "tbk_predict_render": (ctypes.c_int, [_P, _P, ctypes.c_char_p, ctypes.c_int, _P,
                                          ctypes.POINTER(_Buf), _ERR]),
    "tbk_site_of_url": (_P, [ctypes.c_char_p, ctypes.c_int]),
    "tbk_labeler_new": (ctypes.c_int, [ctypes.c_char_p, _P, ctypes.POINTER(_P), _ERR]),
    "tbk_labeler_free": (None, [_P]),
    "tbk_labeler_add": (ctypes.c_int, [_P, ctypes.c_char_p, ctypes.c_char_p, _P, _ERR]),
    "tbk_labeler_finish": (ctypes.c_int, [_P, _WRITE_FN, _P, _P, _ERR]),
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
        raise Error(f"{what}: {msg}" if what else msg)


def _page_bytes(html, charset=None):
    """bytes are sniffed for their charset as the programs do, after the
    charset of an HTTP Content-Type when one is given (as tbk-predict takes
    a WARC record's); str is sent as UTF-8 and said to be so."""
    if isinstance(html, str):
        return html.encode("utf-8", "surrogatepass"), b"UTF-8"
    if isinstance(html, (bytes, bytearray, memoryview)):
        return bytes(html), charset.encode("ascii", "replace") if charset else None
    raise TypeError("html must be str or bytes")


class _Page:
    def __init__(self, model_handle, html, name, charset=None):
        data, hint = _page_bytes(html, charset)
        self.handle = _P()
        err = _Err()
        _check(_lib.tbk_page_parse_for(model_handle, data, len(data), hint, ctypes.byref(self.handle),
                                       ctypes.byref(err)), err, name)

    def close(self):
        if self.handle:
            _lib.tbk_page_free(self.handle)
            self.handle = _P()


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
    places += ["/usr/local/share/tbk/default.model", "/usr/share/tbk/default.model"]
    for p in places:
        if os.path.exists(p):
            return p
    return places[0]  # loading it names the missing file


class Model:
    """A model file; None is the shipped default model. Raises Error (naming
    the file) when it cannot be loaded."""

    def __init__(self, path=None):
        if path is None:
            path = _default_model()
        self.path = os.fspath(path)
        self._handle = _P()
        err = _Err()
        _check(_lib.tbk_model_load(os.fsencode(self.path), ctypes.byref(self._handle), ctypes.byref(err)),
               err, self.path)
        self._local = threading.local()
        self._predictors = []
        self._lock = threading.Lock()

    def _predictor(self):
        pr = getattr(self._local, "pr", None)
        if pr is None:
            pr = _P()
            err = _Err()
            _check(_lib.tbk_predictor_new(self._handle, ctypes.byref(pr), ctypes.byref(err)), err, self.path)
            self._local.pr = pr
            with self._lock:
                self._predictors.append(pr)
        return pr

    def _render(self, html, url, fmt, charset):
        pr = self._predictor()
        page = _Page(self._handle, html, url or "page", charset)
        buf = _Buf()
        err = _Err()
        try:
            _check(_lib.tbk_predict_render(pr, page.handle, (url or "").encode(), fmt, None,
                                           ctypes.byref(buf), ctypes.byref(err)), err, url)
            return ctypes.string_at(buf.data, buf.len).decode("utf-8") if buf.len else ""
        finally:
            _lib.tbk_buf_free(ctypes.byref(buf))
            page.close()

    def text(self, html, url=None, charset=None):
        """The page's clean text: exactly what `tbk-predict -f text` prints
        for it (the headline, then one line per kept unit). charset: that of
        the HTTP Content-Type, when html is bytes from a response that had
        one (a WARC record's, say): it comes before <meta> and sniffing."""
        return self._render(html, url, _FORMAT_TEXT, charset)

    def blocks(self, html, url=None, charset=None):
        """The page's scored units (or blocks), in page order, with the same
        probabilities as `tbk-predict -f jsonl`; url becomes the records'
        page id; charset as for text()."""
        out = self._render(html, url, _FORMAT_JSONL, charset)
        return [Block(json.loads(line)) for line in out.splitlines() if line]

    def close(self):
        """Release the model (and every thread's predictor) now; no thread
        may be using it."""
        with self._lock:
            for pr in self._predictors:
                _lib.tbk_predictor_free(pr)
            self._predictors = []
        if self._handle:
            _lib.tbk_model_free(self._handle)
            self._handle = _P()

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def site_of_url(url, host=False):
    """The site key of a URL: its registered domain (public-suffix list), or
    its host without "www." when host is true; None without a host."""
    p = _lib.tbk_site_of_url(url.encode(), 1 if host else 0)
    if not p:
        return None
    try:
        return ctypes.string_at(p).decode()
    finally:
        _libc.free(p)


def label_site(pages, site=None):
    """The paper's auto-labels of one site's blocks: pages is an iterable of
    (url, html), or of (page_id, url, html) when the records should name
    the pages otherwise (tbk-label names a file's page by its path); returns
    the records `tbk-label` writes for those pages (a dict per labelled
    block), in the order given. site defaults to the
    registered domain of the first URL. A site with fewer than 10 readable
    pages gets no labels (as in tbk-label). Pages that cannot be parsed are
    skipped, as tbk-label skips them."""
    pages = [p if len(p) == 3 else (p[0], p[0], p[1]) for p in pages]
    if site is None:
        site = (site_of_url(pages[0][1]) if pages else None) or "-"
    lab = _P()
    err = _Err()
    _check(_lib.tbk_labeler_new(site.encode(), None, ctypes.byref(lab), ctypes.byref(err)), err, site)
    chunks = []

    @_WRITE_FN
    def collect(_ctx, data, n):
        chunks.append(ctypes.string_at(data, n))
        return 0

    try:
        for page_id, url, html in pages:
            try:
                page = _Page(None, html, page_id)
            except Error:
                continue
            try:
                _check(_lib.tbk_labeler_add(lab, page_id.encode(), (url or "").encode(), page.handle,
                                            ctypes.byref(err)), err, page_id)
            finally:
                page.close()
        _check(_lib.tbk_labeler_finish(lab, collect, None, None, ctypes.byref(err)), err, site)
    finally:
        _lib.tbk_labeler_free(lab)
    return [json.loads(line) for line in b"".join(chunks).decode("utf-8").splitlines() if line]
