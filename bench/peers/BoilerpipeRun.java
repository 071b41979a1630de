// Run boilerpipe 1.2.0 (Debian libboilerpipe-java) over a list of pages.
//
// Usage: java -cp <boilerpipe, nekohtml, xerces jars>:<classes> BoilerpipeRun
//            article|default LISTFILE OUTDIR
// LISTFILE: one page per line, "INPUT_PATH<TAB>OUTPUT_REL". Writes
// OUTDIR/OUTPUT_REL (UTF-8, boilerpipe's content blocks one per line; empty
// on failure) and prints one JSON line: in-process seconds spent in decoding
// + parsing + extraction (file I/O excluded), pages, bytes, failures.
// "--sniff LISTFILE" only prints OUTPUT_REL<TAB>charset per page.
//
// Decoding follows the charset rules shared by all harnesses (peer_text.py):
// BOM, first <meta charset> in 32 KB (browser label aliases), valid UTF-8,
// else windows-1252. The decoded text goes to boilerpipe's own SAX input
// (NekoHTML) as a character stream, so NekoHTML cannot re-decode it when it
// sees a <meta> charset later on.
import de.l3s.boilerpipe.BoilerpipeExtractor;
import de.l3s.boilerpipe.extractors.ArticleExtractor;
import de.l3s.boilerpipe.extractors.DefaultExtractor;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.xml.sax.InputSource;

public final class BoilerpipeRun {
  private static final int META_SCAN_BYTES = 32768;
  private static final Pattern META =
      Pattern.compile("<meta\\b[^>]*?charset\\s*=\\s*[\"']?\\s*([A-Za-z0-9_.:\\-]+)",
                      Pattern.CASE_INSENSITIVE);
  private static final Map<String, String> ALIASES = new HashMap<>();
  static {
    String[][] a = {
      {"utf8", "utf-8"}, {"utf-8", "utf-8"}, {"unicode-1-1-utf-8", "utf-8"},
      {"utf-16", "utf-8"}, {"utf-16le", "utf-8"}, {"utf-16be", "utf-8"},
      {"iso-8859-1", "windows-1252"}, {"iso8859-1", "windows-1252"},
      {"iso_8859-1", "windows-1252"}, {"latin1", "windows-1252"},
      {"latin-1", "windows-1252"}, {"l1", "windows-1252"}, {"us-ascii", "windows-1252"},
      {"ascii", "windows-1252"}, {"cp1252", "windows-1252"},
      {"x-cp1252", "windows-1252"}, {"windows-1252", "windows-1252"},
      {"gb2312", "gb18030"}, {"gbk", "gb18030"}, {"x-gbk", "gb18030"}, {"gb18030", "gb18030"},
    };
    for (String[] p : a) ALIASES.put(p[0], p[1]);
  }
  private static final Charset CP1252 = Charset.forName("windows-1252");

  private static Charset knownLabel(String raw) {
    String name = raw.trim().toLowerCase(Locale.ROOT);
    name = ALIASES.getOrDefault(name, name);
    try {
      return Charset.isSupported(name) ? Charset.forName(name) : null;
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  private static boolean validUtf8(byte[] b) {
    try {
      StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(b));
      return true;
    } catch (CharacterCodingException e) {
      return false;
    }
  }

  /** Charset by the shared rules; skip[0] receives the BOM length. */
  static Charset sniff(byte[] b, int[] skip) {
    int n = b.length;
    skip[0] = 0;
    if (n >= 3 && (b[0] & 0xff) == 0xef && (b[1] & 0xff) == 0xbb && (b[2] & 0xff) == 0xbf) {
      skip[0] = 3;
      return StandardCharsets.UTF_8;
    }
    if (n >= 2 && (b[0] & 0xff) == 0xff && (b[1] & 0xff) == 0xfe) {
      skip[0] = 2;
      return StandardCharsets.UTF_16LE;
    }
    if (n >= 2 && (b[0] & 0xff) == 0xfe && (b[1] & 0xff) == 0xff) {
      skip[0] = 2;
      return StandardCharsets.UTF_16BE;
    }
    String head = new String(b, 0, Math.min(n, META_SCAN_BYTES), StandardCharsets.ISO_8859_1);
    Matcher m = META.matcher(head);
    Charset cs = m.find() ? knownLabel(m.group(1)) : null;
    if (cs == null) cs = validUtf8(b) ? StandardCharsets.UTF_8 : CP1252;
    return cs;
  }

  static String decode(byte[] b) {
    int[] skip = new int[1];
    Charset cs = sniff(b, skip);
    return new String(b, skip[0], b.length - skip[0], cs); // malformed input -> U+FFFD
  }

  private static String jsonEscape(String s) {
    StringBuilder sb = new StringBuilder();
    for (char c : s.toCharArray()) {
      if (c == '"' || c == '\\') sb.append('\\').append(c);
      else if (c < 0x20) sb.append(String.format("\\u%04x", (int) c));
      else sb.append(c);
    }
    return sb.toString();
  }

  /** Prints OUTPUT_REL<TAB>charset per page (cross-check of the harnesses). */
  private static void sniffList(String listfile) throws IOException {
    StringBuilder sb = new StringBuilder();
    int[] skip = new int[1];
    for (String line : Files.readAllLines(Paths.get(listfile), StandardCharsets.UTF_8)) {
      if (line.trim().isEmpty()) continue;
      String[] e = line.split("\t", 2);
      Charset cs = sniff(Files.readAllBytes(Paths.get(e[0])), skip);
      sb.append(e[1]).append('\t').append(cs.name().toLowerCase(Locale.ROOT)).append('\n');
    }
    System.out.print(sb);
  }

  private static void writeText(Path out, String text) throws IOException {
    Files.createDirectories(out.getParent());
    Files.write(out, text.getBytes(StandardCharsets.UTF_8));
  }

  public static void main(String[] args) throws IOException {
    if (args.length == 2 && args[0].equals("--sniff")) {
      sniffList(args[1]);
      return;
    }
    if (args.length != 3 || !(args[0].equals("article") || args[0].equals("default"))) {
      System.err.println("usage: BoilerpipeRun article|default LISTFILE OUTDIR\n"
                         + "       BoilerpipeRun --sniff LISTFILE");
      System.exit(2);
    }
    BoilerpipeExtractor ex =
        args[0].equals("article") ? ArticleExtractor.INSTANCE : DefaultExtractor.INSTANCE;
    Path outdir = Paths.get(args[2]);
    List<String[]> entries = new ArrayList<>();
    try (BufferedReader r = Files.newBufferedReader(Paths.get(args[1]), StandardCharsets.UTF_8)) {
      for (String line; (line = r.readLine()) != null; ) {
        if (line.trim().isEmpty()) continue;
        entries.add(line.split("\t", 2));
      }
    }
    long pages = 0, bytes = 0, failures = 0, empty = 0, ns = 0;
    for (String[] e : entries) {
      pages++;
      String text = "";
      byte[] data;
      try {
        data = Files.readAllBytes(Paths.get(e[0]));
      } catch (IOException | RuntimeException x) {
        failures++;
        empty++;
        System.err.println("FAIL " + e[1] + ": unreadable page: " + x);
        writeText(outdir.resolve(e[1]), "");
        continue;
      }
      bytes += data.length;
      long t0 = System.nanoTime();
      try {
        String html = decode(data);
        text = ex.getText(new InputSource(new StringReader(html)));
        if (text == null) text = "";
        text = text.trim();
      } catch (Throwable t) { // StackOverflowError etc.: count it, keep going
        failures++;
        text = "";
        String msg = String.valueOf(t.getMessage());
        System.err.println("FAIL " + e[1] + ": " + t.getClass().getSimpleName() + ": "
                           + msg.substring(0, Math.min(200, msg.length())));
      }
      ns += System.nanoTime() - t0;
      if (text.isEmpty()) empty++;
      writeText(outdir.resolve(e[1]), text.isEmpty() ? "" : text + "\n");
    }
    System.out.println(String.format(Locale.ROOT,
        "{\"tool\": \"%s\", \"extract_seconds\": %.4f, \"pages\": %d, \"bytes\": %d, "
            + "\"failures\": %d, \"empty\": %d}",
        jsonEscape("boilerpipe-" + args[0]), ns / 1e9, pages, bytes, failures, empty));
  }
}
