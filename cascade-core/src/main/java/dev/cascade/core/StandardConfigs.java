package dev.cascade.core;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Accel-Sim's composable config names ({@code util/job_launching/define-standard-cfgs.yml}): each
 * top-level name has either a {@code base_file} (a tested-cfgs {@code gpgpusim.config}) or {@code
 * extra_params} (options to add), and a name such as {@code QV100-64SM-L1OFF} is a base followed by
 * extras joined with hyphens. Given to a catalog ({@link GpuConfigCatalog#withStandardConfigs}), a
 * run entry naming one runs as a variant of the base's tested-cfgs folder with the extras' options
 * as its params, named as the file names it.
 *
 * <p>The file is read in the layout Accel-Sim's own file uses (top-level {@code NAME:} lines, each
 * followed by an indented {@code base_file: "..."} or {@code extra_params: "..."}, {@code #}
 * comments), not as general YAML; an extra whose text is only a comment ({@code "#SASS-Driven
 * Accel-Sim"}) sets no options.
 */
public final class StandardConfigs {

  /** A composed name resolved: the base's tested-cfgs folder name and the options of its extras. */
  public record Composed(String name, String baseFolder, Map<String, String> params) {}

  private record Definition(String baseFile, String extraParams) {}

  private final String source;
  private final Map<String, Definition> definitions;

  private StandardConfigs(String source, Map<String, Definition> definitions) {
    this.source = source;
    this.definitions = definitions;
  }

  /**
   * Reads a {@code define-standard-cfgs.yml}.
   *
   * @throws CascadeException {@code INVALID} naming {@code file:line} for a line it cannot read
   */
  public static StandardConfigs read(Path file) {
    try {
      return parse(Files.readString(file, StandardCharsets.UTF_8), file.toString());
    } catch (IOException e) {
      throw new CascadeException(
          ErrorCode.INVALID, "cannot read the standard configs file " + file + ": " + e, null);
    }
  }

  /** Parses the file's text; {@code source} names it in errors. */
  public static StandardConfigs parse(String text, String source) {
    Map<String, Definition> definitions = new LinkedHashMap<>();
    String current = null;
    String[] lines = text.split("\r?\n", -1);
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i];
      String stripped = line.strip();
      if (stripped.isEmpty() || stripped.startsWith("#")) {
        continue;
      }
      boolean indented = Character.isWhitespace(line.charAt(0));
      int colon = stripped.indexOf(':');
      if (colon <= 0) {
        throw problem(source, i, "is not NAME: or key: \"value\"");
      }
      String key = stripped.substring(0, colon).strip();
      String raw = stripped.substring(colon + 1).strip();
      // A quoted value may go on over several lines, as Accel-Sim's own file does.
      while (raw.startsWith("\"")
          && (raw.length() == 1 || !raw.endsWith("\""))
          && i + 1 < lines.length) {
        raw = raw + " " + lines[++i].strip();
      }
      String value = unquote(raw);
      if (!indented) {
        current = key;
        definitions.put(current, new Definition(null, null));
        continue;
      }
      if (current == null) {
        throw problem(source, i, "is indented under no name");
      }
      Definition before = definitions.get(current);
      switch (key) {
        case "base_file" -> definitions.put(current, new Definition(value, before.extraParams()));
        case "extra_params" -> definitions.put(current, new Definition(before.baseFile(), value));
        default -> {
          // other keys Accel-Sim may add are not Cascade's concern
        }
      }
    }
    return new StandardConfigs(source, Map.copyOf(definitions));
  }

  /** Where the definitions came from. */
  public String source() {
    return source;
  }

  /**
   * {@code name} as a base followed by hyphen-joined extras ({@code QV100-64SM-L1OFF}), each part
   * the longest defined name that fits; empty when it is not such a name. Later extras' options
   * override earlier ones', as Accel-Sim appends them in order.
   */
  public Optional<Composed> resolve(String name) {
    Objects.requireNonNull(name, "name");
    List<String> parts = List.of(name.split("-", -1));
    for (int baseEnd = parts.size(); baseEnd >= 1; baseEnd--) {
      Definition base = definitions.get(String.join("-", parts.subList(0, baseEnd)));
      if (base == null || base.baseFile() == null) {
        continue;
      }
      Map<String, String> params = new LinkedHashMap<>();
      int at = baseEnd;
      boolean composed = true;
      while (at < parts.size()) {
        int end = parts.size();
        Definition extra = null;
        for (; end > at; end--) {
          extra = definitions.get(String.join("-", parts.subList(at, end)));
          if (extra != null && extra.extraParams() != null) {
            break;
          }
          extra = null;
        }
        if (extra == null) {
          composed = false;
          break;
        }
        params.putAll(options(extra.extraParams()));
        at = end;
      }
      if (composed) {
        return Optional.of(new Composed(name, folderOf(base.baseFile()), params));
      }
    }
    return Optional.empty();
  }

  /** The tested-cfgs folder of a base file: the folder holding its {@code gpgpusim.config}. */
  private static String folderOf(String baseFile) {
    String[] parts = baseFile.replace('\\', '/').split("/");
    return parts.length >= 2 ? parts[parts.length - 2] : baseFile;
  }

  /** {@code -a 1 -b 2} as options; text after {@code #} is a comment. */
  static Map<String, String> options(String extra) {
    String text = extra.replace("\\n", " "); // YAML's escaped newlines between options
    int comment = text.indexOf('#');
    if (comment >= 0) {
      text = text.substring(0, comment);
    }
    List<String> words = new ArrayList<>(List.of(text.strip().split("\\s+")));
    words.removeIf(String::isEmpty);
    Map<String, String> options = new LinkedHashMap<>();
    for (int i = 0; i < words.size(); i++) {
      String word = words.get(i);
      if (word.startsWith("-") && i + 1 < words.size() && !words.get(i + 1).startsWith("-")) {
        options.put(word, words.get(i + 1));
        i++;
      } else if (word.startsWith("-")) {
        options.put(word, "1");
      }
    }
    return options;
  }

  private static String unquote(String value) {
    if (value.length() >= 2
        && (value.startsWith("\"") && value.endsWith("\"")
            || value.startsWith("'") && value.endsWith("'"))) {
      return value.substring(1, value.length() - 1);
    }
    return value;
  }

  private static CascadeException problem(String source, int index, String why) {
    return new CascadeException(
        ErrorCode.INVALID, source + ":" + (index + 1) + ": the line " + why, null);
  }
}
