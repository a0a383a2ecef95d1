package dev.cascade.core.internal.results;

import dev.cascade.core.CascadeException;
import dev.cascade.core.ErrorCode;
import dev.cascade.core.internal.store.Database;
import dev.cascade.core.internal.store.HardwareRepository;
import dev.cascade.core.internal.store.TraceRepository;
import java.time.Clock;
import java.util.Objects;

/**
 * Takes a trace's Nsight Compute CSV from the API: checks that it reads ({@link NcuCsv}) before
 * keeping it, so results never meet a CSV they cannot use.
 */
public final class HardwareUploads {

  static final int MAX_SOURCE_LENGTH = 200;

  private final HardwareRepository hardware;
  private final TraceRepository traces;

  public HardwareUploads(Database database, Clock clock) {
    this.hardware = new HardwareRepository(database, clock);
    this.traces = new TraceRepository(database);
  }

  /**
   * Keeps {@code csv} as the trace's hardware numbers, replacing any given before, and returns how
   * many kernel launches it holds.
   *
   * @param source the CSV's name, for messages ({@code ncu.csv})
   * @throws CascadeException {@code invalid} naming {@code source:line} when it does not read,
   *     {@code not_found} when there is no such trace
   */
  public int put(String traceId, String source, String csv) {
    Objects.requireNonNull(traceId, "traceId");
    Objects.requireNonNull(csv, "csv");
    if (source == null
        || source.isBlank()
        || source.length() > MAX_SOURCE_LENGTH
        || source.chars().anyMatch(Character::isISOControl)) {
      throw new CascadeException(
          ErrorCode.INVALID,
          "name \""
              + (source == null ? "" : source.substring(0, Math.min(40, source.length())))
              + "\" must be 1 to "
              + MAX_SOURCE_LENGTH
              + " printable characters, such as ncu.csv",
          "name");
    }
    if (traces.find(traceId).isEmpty()) {
      throw new CascadeException(
          ErrorCode.NOT_FOUND,
          "trace \"" + traceId + "\" does not exist; list the traces to find its id",
          "trace_id");
    }
    int kernels = NcuCsv.parse(source, csv).size();
    hardware.put(new HardwareRepository.Stored(traceId, source, csv));
    return kernels;
  }
}
