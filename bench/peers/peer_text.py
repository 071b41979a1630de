"""Shared helpers of the Python peer harnesses: charset sniffing and
HTML -> plain text with block elements on their own lines.

The charset rules are the same in every harness (Java, Node, Python) so that
peers differ in extraction only, not in decoding:
  1. BOM (UTF-8, UTF-16LE, UTF-16BE);
  2. the first <meta ... charset=...> in the first 32 KB, label normalised as
     browsers do (iso-8859-1/us-ascii -> windows-1252, utf-16 -> utf-8,
     gb2312/gbk -> gb18030); unknown labels are ignored;
  3. valid UTF-8 -> utf-8, else windows-1252.
"""
import codecs
import re

META_SCAN_BYTES = 32768
_META = re.compile(rb"<meta\b[^>]*?charset\s*=\s*[\"']?\s*([A-Za-z0-9_.:\-]+)", re.I)
_ALIASES = {
    "utf8": "utf-8", "utf-8": "utf-8", "unicode-1-1-utf-8": "utf-8",
    "utf-16": "utf-8", "utf-16le": "utf-8", "utf-16be": "utf-8",
    "iso-8859-1": "windows-1252", "iso8859-1": "windows-1252",
    "iso_8859-1": "windows-1252", "latin1": "windows-1252",
    "latin-1": "windows-1252", "l1": "windows-1252", "us-ascii": "windows-1252",
    "ascii": "windows-1252", "cp1252": "windows-1252",
    "x-cp1252": "windows-1252", "windows-1252": "windows-1252",
    "gb2312": "gb18030", "gbk": "gb18030", "x-gbk": "gb18030",
    "gb18030": "gb18030",
}


def _label(raw):
    name = raw.decode("ascii", "replace").strip().lower()
    name = _ALIASES.get(name, name)
    try:
        codecs.lookup(name)
    except LookupError:
        return None
    return name


def sniff_charset(data):
    """Return (charset, bom_length) by the rules in the module docstring."""
    if data.startswith(b"\xef\xbb\xbf"):
        return "utf-8", 3
    if data.startswith(b"\xff\xfe"):
        return "utf-16-le", 2
    if data.startswith(b"\xfe\xff"):
        return "utf-16-be", 2
    m = _META.search(data, 0, META_SCAN_BYTES)
    if m:
        name = _label(m.group(1))
        if name:
            return name, 0
    try:
        data.decode("utf-8")
        return "utf-8", 0
    except UnicodeDecodeError:
        return "windows-1252", 0


def decode_html(data):
    charset, skip = sniff_charset(data)
    return data[skip:].decode(charset, "replace"), charset


# Elements that start a new line in the text rendering (HTML block-level
# elements plus table cells, list items and line breaks).
BLOCK_TAGS = frozenset("""
address article aside blockquote body br caption center dd details dialog dir
div dl dt fieldset figcaption figure footer form h1 h2 h3 h4 h5 h6 header
hgroup hr html li main menu nav ol p pre section summary table tbody td tfoot
th thead tr ul
""".split())
SKIP_TAGS = frozenset("script style template noscript head title".split())


def html_element_text(root):
    """Text of an lxml element tree, one block per line, whitespace collapsed.

    Iterative walk: page depth is input-controlled."""
    from lxml import etree
    parts = []
    skip_depth = 0
    for event, el in etree.iterwalk(root, events=("start", "end", "comment", "pi")):
        if event in ("comment", "pi"):  # invisible, but its tail is text
            if el.tail and not skip_depth:
                parts.append(el.tail)
            continue
        name = el.tag.lower() if isinstance(el.tag, str) else ""
        if event == "start":
            if skip_depth or name in SKIP_TAGS:
                skip_depth += 1
                continue
            if name in BLOCK_TAGS:
                parts.append("\n")
            if el.text:
                parts.append(el.text)
            continue
        if skip_depth:
            skip_depth -= 1
            if skip_depth:
                continue
        elif name in BLOCK_TAGS:
            parts.append("\n")
        if el.tail and el is not root:
            parts.append(el.tail)
    return normalize_lines("".join(parts))


def normalize_lines(text):
    lines = (" ".join(line.split()) for line in text.split("\n"))
    return "\n".join(line for line in lines if line)
