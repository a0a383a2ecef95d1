// One run (#/runs/{id}): a card per sim, updated live from the run's event stream.

import { api, authHeaders, fileLink, mayChange, me, requestToken } from './api.js';
import { h, replace, setText, badge, setBadge, announce } from './dom.js';
import { learnSkew, since } from './clock.js';
import { count, number, duration, dateTime, plural, bytes } from './format.js';
import { deriveRunState, mergeSim, isFinished, countByState, isNotable, notableLines } from './model.js';
import { RunEvents } from './sse.js';
import { loadFailed, showBanner, hideBanner, problem } from './screen.js';
import { traceHref } from './traces.js';
import { latestAttempts, canRetry, errorText, originText, originTitle } from './attempts.js';
import { retryControl } from './retry.js';
import { fleetSwitch, FLEET_ABOVE } from './fleet.js';

/** Log lines kept on a card. */
const TAIL = 8;
// How much of a finished sim's log end is read to find its notable lines.
const SCANNED = 2000;

export function runHref(id) {
  return `#/runs/${encodeURIComponent(id)}`;
}

export function resultsHref(id) {
  return `#/runs/${encodeURIComponent(id)}/results`;
}

export function entriesText(entries) {
  return (entries || []).map((entry) => `${entry.name || entry.gpu_config} × ${entry.count}`).join(', ');
}

/**
 * For a run with variants, the option files each variant's sims read (its base's with its params
 * applied), as downloads; nothing when no entry changes its config.
 */
function variantFiles(runId, entries) {
  const variants = (entries || [])
    .map((entry, index) => ({ entry, index }))
    .filter(({ entry }) => entry.params && Object.keys(entry.params).length > 0);
  if (variants.length === 0) {
    return [];
  }
  const base = `/api/runs/${encodeURIComponent(runId)}/entries`;
  return [
    h('dt', {}, 'Variant configs'),
    h('dd', { class: 'variant-files' }, variants.map(({ entry, index }, i) => [
      i > 0 ? '; ' : '',
      `${entry.name}: `,
      fileLink(`${base}/${index}/gpgpusim.config`, `${entry.name}.gpgpusim.config`, 'gpgpusim.config',
        { title: `the options its sims read: ${entry.gpu_config}'s with ${Object.keys(entry.params).join(', ')} set` }),
    ])),
  ];
}

/**
 * The run's storage as facts: its logs as stored (and as sent), its statistics, and how many sims'
 * logs retention dropped; nothing when the run has no storage figures.
 */
function storageFacts(storage) {
  if (!storage) {
    return [];
  }
  const dropped = storage.sims_with_logs_dropped > 0
    ? `; logs of ${plural(storage.sims_with_logs_dropped, 'sim')} dropped (results kept)`
    : '';
  return [
    h('dt', {}, 'Storage'),
    h('dd', { class: 'run-storage', title: 'Logs are kept zstd-compressed; downloads give them as the sims sent them' },
      `${bytes(storage.stored_bytes)} on disk`,
      h('span', { class: 'muted' }, ` (logs ${bytes(storage.log_stored_bytes)} of ${bytes(storage.log_bytes)} sent, statistics ${bytes(storage.stats_stored_bytes)}${dropped})`)),
  ];
}

/**
 * The run's simulation speed per config, next to earlier runs of the same trace and config by
 * simulator build (GET /api/runs/{id}/speed); nothing when no sim of it or before it has a speed.
 */
export function speedSection(speed) {
  const configs = speed?.configs || [];
  if (!configs.some((config) => config.sims > 0 || config.earlier.length > 0)) {
    return null;
  }
  const kips = (value) => (value === null || value === undefined ? '—' : value.toFixed(1));
  const rows = configs.flatMap((config) => {
    const name = config.kernels ? `${config.gpu_config} (kernels ${config.kernels})` : config.gpu_config;
    const ours = [
      h('td', { 'data-label': 'Config' }, name),
      h('td', { 'data-label': 'This run (KIPS)', class: 'num' }, kips(config.median_kips)),
      h('td', { 'data-label': 'Sims', class: 'num' }, config.sims),
    ];
    if (config.earlier.length === 0) {
      return [h('tr', {}, ours, h('td', { 'data-label': 'Earlier runs', colspan: 4, class: 'muted' }, 'No earlier succeeded sims of this trace and config'))];
    }
    return config.earlier.map((build) => h('tr', { dataset: { verdict: build.verdict || '' } },
      ours.map((cell) => cell.cloneNode(true)),
      h('td', { 'data-label': 'Earlier build' }, build.simulator),
      h('td', { 'data-label': 'Earlier (KIPS)', class: 'num', title: `slowest ${kips(build.min_kips)}, fastest ${kips(build.max_kips)}` },
        `${kips(build.median_kips)} (${kips(build.min_kips)}–${kips(build.max_kips)})`),
      h('td', { 'data-label': 'Earlier sims', class: 'num' }, build.sims),
      h('td', { 'data-label': 'This run vs earlier', class: build.verdict === 'slower' ? 'num speed-slower' : 'num' },
        build.ratio === null ? '—' : `${build.ratio.toFixed(2)}× ${build.verdict}`)));
  });
  return h('section', { class: 'run-speed', 'aria-labelledby': 'run-speed-title' },
    h('h2', { id: 'run-speed-title' }, 'Simulation speed'),
    h('p', { class: 'muted small' },
      'KIPS: thousands of simulated thread instructions per second of wall time (Accel-Sim\'s gpgpu_simulation_rate at the end of each succeeded sim), the median over sims. Earlier runs of the same trace and config, by simulator build: slower means below every earlier sim of that build and more than 5% under their median.'),
    h('div', { class: 'scroll' }, h('table', { class: 'list numbers speed' },
      h('caption', { class: 'visually-hidden' }, 'Simulation speed of this run against earlier runs by simulator build'),
      h('thead', {}, h('tr', {}, ['Config', 'This run (KIPS)', 'Sims', 'Earlier build', 'Earlier (KIPS)', 'Earlier sims', 'This run vs earlier'].map((label) =>
        h('th', { scope: 'col', class: ['Config', 'Earlier build'].includes(label) ? null : 'num' }, label)))),
      h('tbody', {}, rows))));
}

export function renderRun(main, runId) {
  document.title = `Run ${runId} · Cascade`;
  const stateBadge = badge('active');
  stateBadge.hidden = true;
  const heading = h('h1', {}, h('span', { class: 'muted' }, 'Run '), runId);
  const summary = h('div', { class: 'run-summary' });
  const speedBox = h('div', { class: 'run-speed-box' });
  const liveStatus = h('span', { class: 'live', dataset: { live: 'connecting' } }, 'Connecting…');
  const toolbar = h('div', { class: 'toolbar' });
  const cardsList = h('ol', { class: 'cards', 'aria-label': 'Sims' });
  const body = h('div', {}, h('p', { class: 'muted', role: 'status' }, 'Loading the run…'));
  main.append(
    h('p', { class: 'crumbs' }, h('a', { href: '#/runs' }, 'Runs'), ' / '),
    h('div', { class: 'page-head run-head' }, heading, h('div', { class: 'run-state', role: 'status', 'aria-live': 'polite' }, h('span', { class: 'visually-hidden' }, 'Run state: '), stateBadge)),
    body,
  );

  const sims = new Map();
  const logs = new Map();
  const cards = new Map();
  let run = null;
  let trace = null;
  let shownState = null;
  // Succeeded sims when the speed was last read: it is read again when more succeed.
  let speedAt = -1;
  let events = null;
  let disposed = false;
  let renderQueued = false;
  let cancelArea = null;
  let retryArea = null;
  // Whether the signed-in user may cancel or retry this run (theirs, or any as an admin).
  let mayAct = true;
  // Sims changed since the last frame: only their cards or fleet cells are touched.
  const changed = new Set();
  // Large runs show the fleet view and the card of one sim at a time.
  const mode = fleetSwitch({
    sims,
    cardsList,
    cardOf: (id) => {
      if (!cards.has(id)) {
        cards.set(id, simCard(sims.get(id)));
      }
      return cards.get(id).root;
    },
    kernelTotal: () => trace?.kernel_count ?? null,
    refresh: (ids) => {
      ids.forEach((id) => changed.add(id));
      schedule();
    },
  });

  function schedule() {
    if (!renderQueued) {
      renderQueued = true;
      requestAnimationFrame(() => {
        renderQueued = false;
        if (!disposed) {
          render();
        }
      });
    }
  }

  function applyRun(fresh) {
    run = fresh;
    for (const sim of fresh.sims) {
      learnSkew(sim.last_heartbeat_at, sim.heartbeat_age_s);
      sims.set(sim.id, mergeSim(sims.get(sim.id), sim));
      changed.add(sim.id);
    }
    schedule();
  }

  function applyEvents(batch) {
    for (const envelope of batch) {
      if (envelope.kind === 'action' && envelope.data && run) {
        // Who cancelled, retried or reran the run: the history line grows as it happens.
        const known = run.actions || [];
        if (!known.some((a) => a.action === envelope.data.action && a.at === envelope.data.at)) {
          run.actions = known.concat([envelope.data]);
        }
        continue;
      }
      const simId = envelope.sim_id;
      if (!simId) {
        continue;
      }
      changed.add(simId);
      if (envelope.kind === 'sim' && envelope.data && sims.has(simId)) {
        sims.set(simId, mergeSim(sims.get(simId), envelope.data));
      } else if (envelope.kind === 'log' && envelope.data && Array.isArray(envelope.data.lines)) {
        // The card shows the notable lines; the last raw ones stand in until there is one.
        const log = logs.get(simId) || { notable: [], raw: [] };
        log.notable = log.notable.concat(envelope.data.lines.filter(isNotable)).slice(-TAIL);
        log.raw = log.raw.concat(envelope.data.lines).slice(-TAIL);
        logs.set(simId, log);
      }
    }
    schedule();
  }

  function runState() {
    return deriveRunState(latestAttempts([...sims.values()]).map((sim) => sim.state));
  }

  function render() {
    if (!run) {
      return;
    }
    if (!body.contains(cardsList)) {
      replace(body,
        summary,
        speedBox,
        toolbar,
        h('div', { class: 'section-head' }, h('h2', {}, 'Sims'), mode.button, liveStatus),
        mode.box,
        cardsList);
      buildToolbar();
      if (sims.size > FLEET_ABOVE) {
        mode.set(true);
      }
    }
    const state = runState();
    setBadge(stateBadge, state);
    stateBadge.hidden = false;
    if (shownState !== null && shownState !== state) {
      announce(`Run ${runId} is now ${state}.`);
    }
    shownState = state;
    renderSummary(state);
    const succeeded = [...sims.values()].filter((sim) => sim.state === 'succeeded').length;
    if (succeeded !== speedAt) {
      speedAt = succeeded;
      loadSpeed();
    }
    mode.update([...changed].map((id) => sims.get(id)).filter(Boolean));
    for (const id of changed) {
      const sim = sims.get(id);
      if (!sim || !mode.showsCard(id)) {
        continue;
      }
      let card = cards.get(sim.id);
      if (!card) {
        card = simCard(sim);
        cards.set(sim.id, card);
        cardsList.append(card.root);
      }
      const log = logs.get(sim.id);
      updateCard(card, sim, log ? (log.notable.length > 0 ? log.notable : log.raw) : []);
    }
    changed.clear();
    if (cancelArea) {
      cancelArea.hidden = state !== 'active' || !mayAct;
    }
    if (retryArea) {
      retryArea.hidden = state === 'active' || !canRetry([...sims.values()]) || !mayAct;
    }
    if (state !== 'active' && events) {
      // Every sim has finished: nothing more will come.
      const stream = events;
      events = null;
      setTimeout(() => stream.close(), 1000);
      setLive('done', 'Finished');
    }
  }

  function renderSummary(state) {
    const current = latestAttempts([...sims.values()]);
    const byState = countByState(current);
    const finished = current.filter((sim) => isFinished(sim.state)).length;
    replace(summary,
      h('dl', { class: 'facts inline' },
        h('dt', {}, 'Trace'), h('dd', {}, h('a', { href: traceHref(run.trace_id) }, run.trace_id)),
        h('dt', {}, 'Configs'), h('dd', {}, entriesText(run.entries)),
        h('dt', {}, 'Progress'), h('dd', { class: 'run-progress' }, `${finished} of ${plural(current.length, 'sim')} finished`,
          h('span', { class: 'muted' }, ' (', Object.entries(byState).map(([s, n]) => `${n} ${s}`).join(', '), ')')),
        h('dt', {}, 'Created'), h('dd', {}, since(h('time', { datetime: run.created_at, title: dateTime(run.created_at) }), run.created_at)),
        h('dt', {}, 'Owner'), h('dd', {}, run.owner || 'local'),
        (run.actions || []).length > 0
          ? [h('dt', {}, 'History'), h('dd', { class: 'run-actions' }, run.actions.map(actionText).join('; '))]
          : null,
        ...variantFiles(run.id, run.entries),
        ...storageFacts(run.storage)));
    if (state === 'active') {
      summary.dataset.active = 'true';
    } else {
      delete summary.dataset.active;
    }
  }

  function actionText(action) {
    const done = { cancel: 'cancelled', retry: 'retried', rerun: 'rerun' }[action.action] || action.action;
    const again = action.new_run_id ? ` as ${action.new_run_id}` : '';
    return `${done} by ${action.user} at ${dateTime(action.at)}${again}`;
  }

  function buildToolbar() {
    me().then((who) => {
      mayAct = mayChange(who, run.owner);
      schedule();
    });
    const results = [h('a', { class: 'button', href: resultsHref(runId) }, 'Results'), h('a', { class: 'button', href: `#/compare?runs=${encodeURIComponent(runId)}` }, 'Compare')];
    const cancelButton = h('button', { type: 'button', class: 'danger', id: 'cancel-run' }, 'Cancel run');
    const confirm = h('div', { class: 'confirm', hidden: true },
      h('p', { id: 'cancel-question' }, 'Cancel every sim that has not finished? Finished sims keep their results.'));
    const confirmButton = h('button', { type: 'button', class: 'danger', id: 'confirm-cancel', 'aria-describedby': 'cancel-question' }, 'Confirm cancel');
    const keepButton = h('button', { type: 'button', id: 'keep-running' }, 'Keep running');
    const cancelError = h('p', { class: 'field-error', role: 'alert', hidden: true });
    confirm.append(h('div', { class: 'actions' }, confirmButton, keepButton), cancelError);

    cancelButton.addEventListener('click', () => {
      cancelButton.hidden = true;
      confirm.hidden = false;
      confirmButton.focus();
    });
    function closeConfirm() {
      confirm.hidden = true;
      cancelButton.hidden = false;
      cancelButton.focus();
    }
    keepButton.addEventListener('click', closeConfirm);
    confirm.addEventListener('keydown', (event) => {
      if (event.key === 'Escape') {
        closeConfirm();
      }
    });
    confirmButton.addEventListener('click', async () => {
      confirmButton.disabled = true;
      confirmButton.textContent = 'Cancelling…';
      cancelError.hidden = true;
      try {
        applyRun(await api(`/api/runs/${encodeURIComponent(runId)}/cancel`, { method: 'POST' }));
        announce(`Run ${runId} was cancelled.`);
        confirm.hidden = true;
        heading.focus();
      } catch (error) {
        cancelError.hidden = false;
        cancelError.textContent = problem(error);
      } finally {
        confirmButton.disabled = false;
        confirmButton.textContent = 'Confirm cancel';
      }
    });
    cancelArea = h('div', { class: 'cancel-area' }, cancelButton, confirm);
    retryArea = retryControl(runId, async (fresh) => {
      applyRun(fresh);
      announce(`Run ${runId}: the failed and cancelled sims were launched again.`);
      if (!events) {
        setLive('connecting', 'Connecting…');
        follow();
      }
    });
    replace(toolbar, results, cancelArea, retryArea);
  }

  function simCard(sim) {
    const title = `${sim.gpu_config} · replica ${sim.replica}`;
    const titleId = `sim-${sim.id}-title`;
    const card = {
      root: null,
      state: badge(sim.state, 'sim-state'),
      heartbeat: h('span', { class: 'heartbeat' }),
      eta: h('p', { class: 'eta-line', hidden: true }),
      kernelsText: h('span', { class: 'kernels' }),
      progress: h('progress', { class: 'kernel-progress', 'aria-label': `Kernels done, ${title}` }),
      current: h('p', { class: 'current-kernel' }),
      metrics: h('dl', { class: 'metrics' }),
      error: h('p', { class: 'sim-error', hidden: true }),
      origin: h('p', { class: 'sim-origin small muted' }),
      log: h('pre', { class: 'log-tail', tabindex: '0', 'aria-label': `Last lines of the log, ${title}` }),
    };
    card.root = h('li', { class: 'card', dataset: { simId: sim.id } },
      h('article', { 'aria-labelledby': titleId },
        h('div', { class: 'card-head' },
          h('h3', { id: titleId }, sim.gpu_config, h('span', { class: 'muted' }, ` · replica ${sim.replica}${(sim.attempt ?? 1) > 1 ? ` · attempt ${sim.attempt}` : ''}`)),
          card.state),
        h('p', { class: 'heartbeat-line' }, card.heartbeat),
        card.eta,
        h('div', { class: 'progress-line' }, card.kernelsText, card.progress),
        card.current,
        card.metrics,
        card.error,
        card.origin,
        card.log,
        h('p', { class: 'card-foot' },
          fileLink(`/api/sims/${encodeURIComponent(sim.id)}/log`, `${sim.id}.log`, 'Full log', {
            class: 'full-log', 'aria-label': `Full log, ${title}`,
          }))));
    return card;
  }

  function updateCard(card, sim, lines) {
    card.root.dataset.state = sim.state;
    setBadge(card.state, sim.state);
    if (isFinished(sim.state)) {
      since(card.heartbeat, sim.finished_at || sim.last_heartbeat_at, (s) => `Finished ${duration(s)} ago`);
    } else if (sim.last_heartbeat_at) {
      since(card.heartbeat, sim.last_heartbeat_at, (s) => `Last heartbeat ${duration(s)} ago`);
    } else {
      delete card.heartbeat.dataset.since;
      setText(
        card.heartbeat,
        sim.queued_reason ? `Queued: ${sim.queued_reason}`
          : sim.state !== 'pending' ? 'No heartbeat yet'
          : sim.queue_position ? `Waiting for a slot: #${sim.queue_position} in the queue` : 'Waiting to launch',
      );
    }
    card.heartbeat.classList.toggle('warn', sim.state === 'lost');
    updateEta(card.eta, sim);

    const total = sim.kernels_total ?? trace?.kernel_count ?? null;
    const done = sim.kernels_done ?? 0;
    setText(card.kernelsText, `Kernels ${count(done)} / ${total === null ? '?' : count(total)}`);
    if (total) {
      card.progress.max = total;
      card.progress.value = Math.min(done, total);
    } else {
      card.progress.removeAttribute('value');
    }

    const running = !isFinished(sim.state) && sim.current_kernel;
    card.current.hidden = !running;
    if (running) {
      if (card.current.dataset.kernel !== sim.current_kernel) {
        card.current.dataset.kernel = sim.current_kernel;
        replace(card.current, h('span', { class: 'muted' }, 'Now: '), h('span', { class: 'kernel-name', title: sim.current_kernel }, sim.current_kernel));
      }
    }

    const metrics = sim.latest_metrics || {};
    const peak = sim.peak_memory_bytes;
    const key = JSON.stringify([metrics, peak]);
    if (card.metrics.dataset.key !== key) {
      card.metrics.dataset.key = key;
      const items = [
        ['Cycles', count(metrics.cycles)],
        ['Thread instructions (sim)', count(metrics.instructions)],
        ['IPC', number(metrics.ipc)],
      ];
      if (metrics.gpu_occupancy !== undefined) {
        items.push(['Occupancy', `${number(metrics.gpu_occupancy, 3)}%`]);
      }
      if (metrics.gpu_tot_sim_cycle !== undefined) {
        items.push(['Total cycles', count(metrics.gpu_tot_sim_cycle)]);
      }
      if (metrics.gpgpu_simulation_rate !== undefined) {
        // Accel-Sim's own rate: simulated thread instructions per second of wall time, so far.
        items.push(['Speed (KIPS, thread instructions)', number(metrics.gpgpu_simulation_rate / 1000, 1)]);
      }
      if (metrics.wall_time_s !== undefined) {
        // Wall-clock time of the latest kernel: from the previous kernel's end (the first: launch).
        items.push(['Wall time', `${metrics.wall_time_s.toFixed(1)} s`]);
      }
      // The most memory the sim's process tree held so far (local sims; sampled while it runs).
      const memory = peak === null || peak === undefined ? [] : [['Peak memory', bytes(peak)]];
      const metric = ([term, value]) => h('div', { class: 'metric' }, h('dt', {}, term), h('dd', {}, value));
      const empty = metrics.cycles === undefined;
      replace(card.metrics,
        empty
          ? [h('div', { class: 'muted small metrics-empty' }, isFinished(sim.state) ? `No kernel finished before it ${sim.state === 'cancelled' ? 'was cancelled' : sim.state}` : 'No kernel finished yet'),
            memory.map(metric)]
          : [h('div', { class: 'metrics-title' }, 'Latest kernel'), items.concat(memory).map(metric)]);
    }

    card.error.hidden = !sim.error;
    setText(card.error, errorText(sim));
    card.root.dataset.failureClass = sim.failure_class || '';
    setText(card.origin, originText(sim));
    card.origin.title = originTitle(sim);

    const tail = lines.join('\n').replace(/^\s*\n/, '');
    setText(card.log, tail || '(no output yet)');
  }

  /** The estimated finish of an unfinished sim, with what it comes from; hidden without one. */
  function updateEta(line, sim) {
    const eta = !isFinished(sim.state) && sim.eta ? sim.eta : null;
    line.hidden = !eta;
    if (eta) {
      const left = (Date.parse(eta) - Date.now()) / 1000;
      const when = left > 0 ? `Done in about ${duration(left)}` : 'Done any moment';
      setText(line, `${when} (${dateTime(eta)}), from ${sim.eta_basis}`);
    }
  }

  function setLive(state, text) {
    liveStatus.dataset.live = state;
    setText(liveStatus, text);
  }

  async function loadSpeed() {
    try {
      const speed = await api(`/api/runs/${encodeURIComponent(runId)}/speed`);
      if (!disposed) {
        replace(speedBox, speedSection(speed));
      }
    } catch {
      // The speed is an extra: the run page works without it.
    }
  }

  async function loadRun() {
    applyRun(await api(`/api/runs/${encodeURIComponent(runId)}`));
  }

  async function loadTails() {
    // A finished run's stream would only replay its history: read each log's end instead.
    await Promise.all([...sims.values()].map(async (sim) => {
      try {
        const response = await fetch(`/api/sims/${encodeURIComponent(sim.id)}/log?tail=${SCANNED}`, {
          headers: authHeaders(),
          cache: 'no-store',
        });
        if (response.ok) {
          const text = (await response.text()).replace(/\n$/, '');
          const lines = text === '' ? [] : text.split('\n');
          logs.set(sim.id, { notable: notableLines(lines).slice(-TAIL), raw: [] });
          changed.add(sim.id);
        }
      } catch {
        // The card says "(no output yet)"; the full log link still works.
      }
    }));
    schedule();
  }

  /** Queue places and estimates move without events: read the run again while it is active. */
  let refresher = null;
  function refreshWhileActive() {
    refresher = setInterval(() => {
      if (disposed || runState() !== 'active') {
        clearInterval(refresher);
        return;
      }
      loadRun().catch(() => {});
    }, 10000);
  }

  function follow() {
    refreshWhileActive();
    events = new RunEvents(runId, {
      onOpen: ({ resumed }) => {
        setLive('live', 'Live');
        hideBanner('events');
        if (resumed) {
          // Catch up on anything the stream cannot replay (heartbeat ages) and confirm the state.
          loadRun().catch(() => {});
        }
      },
      onEvents: applyEvents,
      onDown: (error, wait) => {
        setLive('down', `Reconnecting in ${Math.ceil(wait / 1000)} s…`);
        showBanner('events', 'Lost the live connection to the server; reconnecting.');
      },
      onAuth: (error) => requestToken(error).catch(() => new Promise((resolve) => setTimeout(resolve, 5000))),
      onGone: () => setLive('down', 'This run no longer exists.'),
    });
  }

  (async () => {
    try {
      const fresh = await api(`/api/runs/${encodeURIComponent(runId)}`);
      if (disposed) {
        return;
      }
      try {
        trace = await api(`/api/traces/${encodeURIComponent(fresh.trace_id)}`);
      } catch {
        trace = null;
      }
      applyRun(fresh);
      if (deriveRunState(latestAttempts(fresh.sims).map((sim) => sim.state)) === 'active') {
        follow();
      } else {
        setLive('done', 'Finished');
        loadTails();
      }
    } catch (error) {
      if (disposed) {
        return;
      }
      replace(body);
      loadFailed(body, error, '#/runs', 'Back to the runs');
    }
  })();

  return {
    dispose() {
      disposed = true;
      clearInterval(refresher);
      events?.close();
      hideBanner('events');
    },
  };
}
