// Run Mozilla Readability (npm @mozilla/readability on a linkedom DOM) over
// a list of pages.
//
// Usage: node mozilla_readability_run.mjs LISTFILE OUTDIR
//        node mozilla_readability_run.mjs --sniff LISTFILE  (OUTPUT_REL<TAB>charset)
// LISTFILE: one page per line, "INPUT_PATH<TAB>OUTPUT_REL". Writes
// OUTDIR/OUTPUT_REL (UTF-8, one block per line; empty on failure) and prints
// one JSON line: in-process seconds spent in decoding + DOM parsing +
// extraction + HTML->text (file I/O excluded), pages, bytes, failures.
// Node resolves the packages from bench/peers/.node/node_modules (install.sh);
// the runner sets NODE_PATH for that.
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(join(process.env.PEERS_NODE_DIR || join(here, '.node'), 'package.json'));
const { Readability } = require('@mozilla/readability');
const { parseHTML } = require('linkedom');

// Charset rules shared with the Python and Java harnesses (see peer_text.py).
const META_SCAN_BYTES = 32768;
const META = /<meta\b[^>]*?charset\s*=\s*["']?\s*([A-Za-z0-9_.:\-]+)/i;
const ALIASES = {
  'utf8': 'utf-8', 'utf-8': 'utf-8', 'unicode-1-1-utf-8': 'utf-8',
  'utf-16': 'utf-8', 'utf-16le': 'utf-8', 'utf-16be': 'utf-8',
  'iso-8859-1': 'windows-1252', 'iso8859-1': 'windows-1252',
  'iso_8859-1': 'windows-1252', 'latin1': 'windows-1252',
  'latin-1': 'windows-1252', 'l1': 'windows-1252', 'us-ascii': 'windows-1252',
  'ascii': 'windows-1252', 'cp1252': 'windows-1252',
  'x-cp1252': 'windows-1252', 'windows-1252': 'windows-1252',
  'gb2312': 'gb18030', 'gbk': 'gb18030', 'x-gbk': 'gb18030', 'gb18030': 'gb18030',
};

function knownLabel(raw) {
  let name = raw.trim().toLowerCase();
  name = ALIASES[name] || name;
  try {
    new TextDecoder(name);
    return name;
  } catch {
    return null;
  }
}

function sniffCharset(buf) {
  if (buf.length >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) return ['utf-8', 3];
  if (buf.length >= 2 && buf[0] === 0xff && buf[1] === 0xfe) return ['utf-16le', 2];
  if (buf.length >= 2 && buf[0] === 0xfe && buf[1] === 0xff) return ['utf-16be', 2];
  const head = buf.subarray(0, META_SCAN_BYTES).toString('latin1');
  const m = META.exec(head);
  if (m) {
    const name = knownLabel(m[1]);
    if (name) return [name, 0];
  }
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(buf);
    return ['utf-8', 0];
  } catch {
    return ['windows-1252', 0];
  }
}

function decodeHtml(buf) {
  const [charset, skip] = sniffCharset(buf);
  // ignoreBOM: the BOM (if any) was already skipped above.
  return new TextDecoder(charset, { ignoreBOM: true }).decode(buf.subarray(skip));
}

const BLOCK_TAGS = new Set(`address article aside blockquote body br caption center dd details dialog dir
div dl dt fieldset figcaption figure footer form h1 h2 h3 h4 h5 h6 header
hgroup hr html li main menu nav ol p pre section summary table tbody td tfoot
th thead tr ul`.split(/\s+/));
const SKIP_TAGS = new Set('script style template noscript head title'.split(' '));

// Text of a DOM subtree, one block per line. Iterative: depth is page-controlled.
function elementText(root) {
  const parts = [];
  const stack = [[root, false]];
  while (stack.length) {
    const [node, closing] = stack.pop();
    if (node.nodeType === 3) { parts.push(node.data); continue; }
    if (node.nodeType !== 1 && node.nodeType !== 9 && node.nodeType !== 11) continue;
    const name = (node.localName || node.nodeName || '').toLowerCase();
    if (SKIP_TAGS.has(name)) continue;
    const block = BLOCK_TAGS.has(name);
    if (closing) { if (block) parts.push('\n'); continue; }
    if (block) parts.push('\n');
    stack.push([node, true]);
    const kids = node.childNodes;
    for (let i = kids.length - 1; i >= 0; i--) stack.push([kids[i], false]);
  }
  return parts.join('').split('\n')
    .map((l) => l.split(/\s+/).filter(Boolean).join(' '))
    .filter(Boolean).join('\n');
}

function extract(buf) {
  const html = decodeHtml(buf);
  const { document } = parseHTML(html);
  // serializer: keep the article as a DOM node instead of re-parsing innerHTML.
  const article = new Readability(document, { serializer: (el) => el }).parse();
  if (!article || !article.content) return '';
  return elementText(article.content);
}

function main() {
  if (process.argv[2] === '--sniff' && process.argv[3]) {
    const lines = readFileSync(process.argv[3], 'utf8').split('\n').filter((l) => l.trim());
    const res = lines.map((l) => {
      const [src, rel] = l.split('\t');
      return `${rel}\t${sniffCharset(readFileSync(src))[0]}`;
    });
    process.stdout.write(res.join('\n') + (res.length ? '\n' : ''));
    return;
  }
  const [listfile, outdir] = process.argv.slice(2);
  if (!listfile || !outdir) {
    process.stderr.write('usage: node mozilla_readability_run.mjs LISTFILE OUTDIR\n');
    process.exit(2);
  }
  const entries = readFileSync(listfile, 'utf8').split('\n').filter((l) => l.trim())
    .map((l) => l.split('\t'));
  let pages = 0, bytes = 0, failures = 0, empty = 0, ns = 0n;
  for (const [src, rel] of entries) {
    pages++;
    let text = '';
    let buf = null;
    try {
      buf = readFileSync(src);
    } catch (e) {
      failures++;
      process.stderr.write(`FAIL ${rel}: unreadable page: ${e.message}\n`);
    }
    if (buf) {
      bytes += buf.length;
      const t0 = process.hrtime.bigint();
      try {
        text = extract(buf);
      } catch (e) {
        failures++;
        process.stderr.write(`FAIL ${rel}: ${String(e && e.stack || e).split('\n')[0].slice(0, 200)}\n`);
      }
      ns += process.hrtime.bigint() - t0;
    }
    if (!text) empty++;
    const out = join(outdir, rel);
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, text ? text + '\n' : '');
  }
  process.stdout.write(JSON.stringify({
    tool: 'mozilla-readability', extract_seconds: Math.round(Number(ns) / 1e5) / 1e4,
    pages, bytes, failures, empty,
  }) + '\n');
}

main();
