package dev.cascade.core.internal.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.core.io.JsonEOFException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import java.util.regex.Pattern;

/**
 * Says what is wrong with a request's JSON in words about the request, never the parser's: no class
 * names, no names of parser settings. The parser's own text is kept only when it speaks of the
 * input alone (an unexpected character, an unclosed string).
 */
final class JsonProblems {

  /** Text that speaks of the parser, not the input: class and feature names, code spans. */
  private static final Pattern INTERNALS =
      Pattern.compile("`|\\bcom\\.|\\bjava\\.|jackson|Exception|Feature|Constraints|getMax");

  private JsonProblems() {}

  /** What is wrong, and where (line and column) when known. */
  static String of(JsonProcessingException e) {
    return problem(e) + where(e);
  }

  private static String problem(JsonProcessingException e) {
    String original = e.getOriginalMessage() == null ? "" : e.getOriginalMessage();
    if (e instanceof StreamConstraintsException) {
      StreamReadConstraints limits = Json.MAPPER.getFactory().streamReadConstraints();
      if (original.contains("nesting depth")) {
        return "it nests arrays and objects deeper than " + limits.getMaxNestingDepth() + " levels";
      }
      if (original.contains("Number value length")) {
        return "it holds a number longer than " + limits.getMaxNumberLength() + " characters";
      }
      if (original.contains("String value length")) {
        return "it holds a string longer than " + limits.getMaxStringLength() + " characters";
      }
      return "it is larger or deeper than a request may be";
    }
    if (e instanceof JsonEOFException) {
      return "it ends before the JSON value is complete";
    }
    if (e instanceof MismatchedInputException && original.startsWith("Trailing token")) {
      return "it holds more than one JSON value; send exactly one object";
    }
    if (original.isBlank() || INTERNALS.matcher(original).find()) {
      return "it cannot be read as one JSON value";
    }
    // Jackson's remedies speak of its own settings; keep the first sentence, about the input.
    int newline = original.indexOf('\n');
    return newline < 0 ? original : original.substring(0, newline);
  }

  private static String where(JsonProcessingException e) {
    return e.getLocation() == null || e.getLocation().getLineNr() < 1
        ? ""
        : " (line "
            + e.getLocation().getLineNr()
            + ", column "
            + e.getLocation().getColumnNr()
            + ")";
  }
}
