// What the UI knows about runs and sims, without any DOM: the derived run state and how a sim's
// newer description replaces an older one.

export const FINISHED = new Set(['succeeded', 'failed', 'cancelled']);

/** Whether a sim in `state` is done for good. */
export function isFinished(state) {
  return FINISHED.has(state);
}

/**
 * The run's state from its sims' states, as the server derives it (Concepts: "Run"): any sim
 * unfinished gives active; all succeeded, succeeded; some succeeded and the rest failed or
 * cancelled, partial; none succeeded and any cancelled, cancelled; all failed, failed.
 */
export function deriveRunState(states) {
  if (states.length === 0 || states.some((state) => !isFinished(state))) {
    return 'active';
  }
  const succeeded = states.filter((state) => state === 'succeeded').length;
  if (succeeded === states.length) {
    return 'succeeded';
  }
  if (succeeded > 0) {
    return 'partial';
  }
  return states.includes('cancelled') ? 'cancelled' : 'failed';
}

/** How far along a sim's state is; a later rank never goes back to an earlier one. */
function rank(state) {
  switch (state) {
    case 'pending':
      return 0;
    case 'launching':
      return 1;
    case 'running':
    case 'lost':
      return 2;
    default:
      return isFinished(state) ? 3 : -1;
  }
}

/**
 * The newer of two descriptions of one sim. A stream that replays a run's history sends old
 * descriptions after the page has read the current one; they are recognised and ignored: a
 * finished sim never becomes unfinished, a state never goes back (pending, launching,
 * running or lost, finished), and between running and lost the later heartbeat wins.
 * `kernels_done` never goes down.
 */
export function mergeSim(current, incoming) {
  if (!current) {
    return { ...incoming };
  }
  const was = rank(current.state);
  const now = rank(incoming.state);
  if (now < was) {
    return current;
  }
  if (now === was && now === 3 && current.state !== incoming.state) {
    // Two different final states: the first one reached is final.
    return current;
  }
  if (now === was && now === 2 && isOlder(incoming.last_heartbeat_at, current.last_heartbeat_at)) {
    return current;
  }
  const merged = { ...current, ...incoming };
  if ((current.kernels_done ?? 0) > (incoming.kernels_done ?? 0)) {
    merged.kernels_done = current.kernels_done;
    merged.current_kernel = current.current_kernel;
    merged.latest_metrics = current.latest_metrics;
  }
  if (incoming.heartbeat_age_s === undefined) {
    merged.heartbeat_age_s = current.heartbeat_age_s;
  }
  return merged;
}

function isOlder(a, b) {
  if (!a || !b) {
    return !a && !!b;
  }
  return Date.parse(a) < Date.parse(b);
}

/** Sims' counts by state, for the runs list and the run's summary. */
export function countByState(sims) {
  const counts = {};
  for (const sim of sims) {
    counts[sim.state] = (counts[sim.state] || 0) + 1;
  }
  return counts;
}

/** Finished sims out of all, from a `sims_by_state` map. */
export function finishedCount(byState) {
  return Object.entries(byState || {})
    .filter(([state]) => isFinished(state))
    .reduce((sum, [, n]) => sum + n, 0);
}

/** Whether a trace's architecture and a config's are the same ("sm_90"). */
export function sameArch(traceArch, configArch) {
  return !!configArch && (traceArch || 'sm_90') === configArch;
}

/**
 * Why a config cannot run a trace, or null when it can: the catalog's own reason for an unusable
 * config, or the architecture that does not match.
 */
export function configRefusal(trace, config) {
  if (!config.usable) {
    return config.reason || 'this config cannot be used';
  }
  const traceArch = trace.trace_gpu_arch || 'sm_90';
  if (!sameArch(traceArch, config.arch)) {
    return `Another architecture (${config.arch || 'unknown'}); this trace is ${traceArch}.`;
  }
  return null;
}

/** The config to preselect: the trace's suggestion when it can run it, else the first that can. */
export function preselectedConfig(trace, configs) {
  const runnable = configs.filter((config) => configRefusal(trace, config) === null);
  const suggested = runnable.find((config) => config.name === trace.suggested_sim_config);
  return (suggested || runnable[0] || null)?.name ?? null;
}

// Lines of a simulator's log that tell a person something: kernel launches, the per-kernel stats,
// the end of the simulation, and anything that reads as a warning or an error. The rest (thread
// block lines, cache and DRAM dumps) is noise on a card; the full log keeps it all.
const NOTABLE = [
  /^launching kernel name:/,
  /^Processing kernel /,
  /^kernel_name = /,
  /^gpu_(sim_cycle|sim_insn|ipc|tot_sim_cycle|tot_sim_insn|tot_ipc|occupancy) =/,
  /^gpgpu_simulation_(time|rate) =/,
  /GPGPU-Sim: \*\*\*/,
  /\b(warn|warning|error|fatal|abort|aborted|assert|assertion|exception|failed|segmentation fault|killed)\b/i,
];

/** The notable lines of `lines`, in order; all of them when none is (an unknown simulator). */
export function notableLines(lines) {
  const notable = lines.filter(isNotable);
  return notable.length > 0 ? notable : lines;
}

/** Whether one log line is notable (see `notableLines`). */
export function isNotable(line) {
  return NOTABLE.some((pattern) => pattern.test(line.trim()));
}
