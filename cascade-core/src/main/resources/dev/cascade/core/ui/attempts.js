// What a sim card says beyond its progress: which attempt it is, what produced its numbers,
// why it failed; and which sims count for the run (each config and replica's latest attempt).

/** The latest attempt of each config and replica: the sims the run's state comes from. */
export function latestAttempts(sims) {
  const latest = new Map();
  for (const sim of sims) {
    const key = `${sim.gpu_config}#${sim.replica}`;
    const known = latest.get(key);
    if (!known || (sim.attempt ?? 1) > (known.attempt ?? 1)) {
      latest.set(key, sim);
    }
  }
  return [...latest.values()];
}

/** True when a retry has something to launch again: a latest attempt failed or was cancelled. */
export function canRetry(sims) {
  return latestAttempts(sims).some((sim) => sim.state === 'failed' || sim.state === 'cancelled');
}

/** `Error (segfault): ... (exit code 139)`, or '' without an error. */
export function errorText(sim) {
  if (!sim.error) {
    return '';
  }
  const kind = sim.failure_class ? ` (${sim.failure_class.replaceAll('_', ' ')})` : '';
  const exit = sim.exit_code !== null && sim.exit_code !== undefined ? ` (exit code ${sim.exit_code})` : '';
  return `Error${kind}: ${sim.error}${exit}`;
}

/** One line of where the numbers come from: reuse, the kernel window, builds and hashes. */
export function originText(sim) {
  const parts = [];
  if ((sim.attempt ?? 1) > 1) {
    parts.push(`attempt ${sim.attempt}`);
  }
  if (sim.reused_from) {
    parts.push(`results reused from ${sim.reused_from}`);
  }
  if (sim.kernels) {
    parts.push(`kernels ${sim.kernels} of the trace`);
  }
  const p = sim.provenance || {};
  const build = p.accelsim_build || p.simulator;
  if (build) {
    parts.push(`simulator ${short(build)}`);
  }
  if (p.trace_hash) {
    parts.push(`trace ${short(p.trace_hash)}`);
  }
  if (p.config_hash) {
    parts.push(`config ${short(p.config_hash)}`);
  }
  return parts.join(' · ');
}

/** The full provenance, for the line's title. */
export function originTitle(sim) {
  const p = sim.provenance || {};
  return ['trace_hash', 'config_hash', 'simulator', 'accelsim_build', 'gpgpusim_build',
    'accelsim_version', 'gpgpusim_version']
    .filter((key) => p[key])
    .map((key) => `${key}: ${p[key]}`)
    .join('\n');
}

function short(value) {
  return value.startsWith('sha256:') ? value.slice(0, 7 + 12) : value;
}
