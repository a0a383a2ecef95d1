package dev.cascade.core;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The traces Cascade knows: uploaded into its traces folder, then {@code uploading}, {@code
 * processing}, and {@code ready} or {@code failed}. The same interface whether Cascade is embedded
 * ({@link Cascade#traces()}) or a server reached over HTTP ({@code CascadeClient.traces()}).
 */
public interface Traces {

  /** Every trace, oldest first. */
  List<Trace> list();

  /**
   * The folders in the traces folder that are not traces (a name that is no valid trace id, a
   * symbolic link), by name, each with why; empty when there are none.
   */
  default List<SkippedFolder> skippedFolders() {
    return List.of();
  }

  /** The trace with this id; empty when there is none (or the id is not a valid trace id). */
  Optional<Trace> find(String id);

  /**
   * The trace with this id.
   *
   * @throws CascadeException {@code not_found} when there is none; {@code invalid} (field {@code
   *     trace_id}) when the id is not a valid trace id
   */
  Trace get(String id);

  /**
   * Waits until the trace is {@code ready} or {@code failed}, or {@code timeout} passes, and
   * returns it as it is then: check {@link Trace#state()}. A trace that does not exist yet is
   * waited for too (its upload may not have started).
   *
   * @throws CascadeException {@code not_found} when the timeout passes and there is still no such
   *     trace; {@code invalid} when the id is not a valid trace id
   */
  Trace await(String id, Duration timeout) throws InterruptedException;

  /**
   * Where the trace's files are on the machine Cascade runs on: {@code <data
   * dir>/s3/cascade/accelsim-traces/<id>}.
   *
   * @throws CascadeException {@code invalid} (field {@code trace_id}) when the id is not a valid
   *     trace id
   * @throws UnsupportedOperationException from a client of a remote server, whose folders are not
   *     on this machine
   */
  Path folderOf(String id);

  /**
   * The trace's kernel sampling plan for {@code request}: which launches a sampled run simulates,
   * what each stands for, the share of warp instructions simulated and the predicted error.
   * Deterministic: the same trace and request give the same plan.
   *
   * @throws CascadeException {@code not_found} for no such trace, {@code conflict} when it is not
   *     ready, {@code invalid} (field {@code sampling.budget}) for a budget below its kernel groups
   */
  default SamplingPlan sampling(String traceId, Sampling request) {
    throw new UnsupportedOperationException("this Traces does not make sampling plans");
  }
}
