package dev.cascade.core.internal.run;

import dev.cascade.core.MemorySettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The local queue's admission by memory: the sim whose turn it is starts only when its predicted
 * peak ({@link MemoryAdmission.Predictions}: earlier sims of the same trace and config, else of the
 * same trace, else a first guess from the trace's size) fits the memory free now ({@code
 * MemAvailable}) less the reserve, and within the sims' memory limit when one is set, less what the
 * sims already started are still expected to grow by ({@link MemoryAdmission}). A sim whose
 * measured prediction exceeds what the machine can ever give is refused with the figures; a first
 * guess that large is only capped (the sim then runs alone), since nothing was measured yet.
 */
final class MemoryGate implements SlotQueue.Admission {

  private static final Logger log = LoggerFactory.getLogger(MemoryGate.class);

  /** What a queued or started sim is: its trace, config and the trace's size on disk. */
  record Need(String traceId, String config, long traceBytes) {}

  private final MemoryAdmission admission;
  private final MemoryAdmission.Predictions predictions;
  private final ProcMemory memory;
  private final SimMemoryWatch watch;
  private final long capBytes;
  private final Map<String, Need> needs = new ConcurrentHashMap<>();

  /** The predicted peak of each sim let start, until it is released. */
  private final Map<String, Long> started = new ConcurrentHashMap<>();

  private volatile String lastWait = "";

  /**
   * @param totalBytes the machine's memory ({@code MemTotal})
   */
  MemoryGate(
      MemorySettings settings,
      long totalBytes,
      ProcMemory memory,
      SimMemoryWatch watch,
      MemoryAdmission.Predictions predictions) {
    long limit = settings.simLimit().orElse(Long.MAX_VALUE);
    this.admission = new MemoryAdmission(totalBytes, settings.reserveBytes(), limit);
    this.capBytes = Math.min(totalBytes - settings.reserveBytes(), limit);
    this.memory = memory;
    this.watch = watch;
    this.predictions = predictions;
  }

  /** Remembers what the queued sim {@code simId} is, for its prediction. */
  void expect(String simId, Need need) {
    needs.put(simId, need);
  }

  /** The trace and config of a sim this gate knows; null for one it does not. */
  Need needOf(String simId) {
    return needs.get(simId);
  }

  /** What sims of {@code need}'s trace and config are expected to peak at now. */
  MemoryAdmission.Prediction predict(Need need) {
    MemoryAdmission.Prediction prediction =
        predictions.predict(need.traceId(), need.config(), need.traceBytes());
    if (!prediction.measured() && prediction.bytes() > capBytes) {
      return new MemoryAdmission.Prediction(capBytes, prediction.basis() + ", capped", false);
    }
    return prediction;
  }

  /** A finished sim's measured peak: what the next sims of its trace and config are predicted. */
  void learn(String simId, long peakBytes) {
    Need need = needs.get(simId);
    if (need != null && peakBytes > 0) {
      predictions.learn(need.traceId(), need.config(), peakBytes);
    }
  }

  /** A measured peak of a sim of {@code traceId} on {@code config}. */
  void learnOf(String traceId, String config, long peakBytes) {
    if (peakBytes > 0) {
      predictions.learn(traceId, config, peakBytes);
    }
  }

  @Override
  public SlotQueue.Verdict admit(String simId, int running) {
    Need need = needs.get(simId);
    OptionalLong available = memory.available();
    if (need == null || available.isEmpty()) {
      return SlotQueue.Verdict.START; // nothing to predict from, or no /proc: slots alone decide
    }
    MemoryAdmission.Prediction prediction = predict(need);
    List<MemoryAdmission.Running> runningSims = new ArrayList<>();
    started.forEach(
        (id, predicted) ->
            runningSims.add(new MemoryAdmission.Running(predicted, watch.resident(id).orElse(0))));
    MemoryAdmission.Decision decision =
        admission.decide(prediction.bytes(), available.getAsLong(), runningSims);
    return switch (decision) {
      case MemoryAdmission.Decision.Start start -> {
        started.put(simId, prediction.bytes());
        lastWait = "";
        yield SlotQueue.Verdict.START;
      }
      case MemoryAdmission.Decision.Wait wait -> {
        String why =
            simId
                + " waits for memory: needs about "
                + MemoryAdmission.mib(wait.predictedBytes())
                + " ("
                + prediction.basis()
                + "), "
                + MemoryAdmission.mib(wait.roomBytes())
                + " free for sims now";
        String key = simId + " " + wait.predictedBytes();
        if (!key.equals(lastWait)) {
          lastWait = key; // once per sim and prediction, not at every sample
          log.info("sim {}", why);
        }
        yield SlotQueue.Verdict.WAIT;
      }
      case MemoryAdmission.Decision.Never never ->
          SlotQueue.Verdict.refuse(
              "not enough memory: it "
                  + never.reason()
                  + " (predicted from "
                  + prediction.basis()
                  + "); give sims more memory (CASCADE_MEMORY_RESERVE,"
                  + " CASCADE_SIM_MEMORY_LIMIT) or run it on a bigger machine");
    };
  }

  @Override
  public void released(String simId) {
    started.remove(simId);
  }

  /** Forgets a finished sim. */
  void forget(String simId) {
    needs.remove(simId);
    started.remove(simId);
  }
}
