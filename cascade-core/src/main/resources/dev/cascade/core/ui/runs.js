// The runs (#/runs), newest first, a page at a time: filters by trace, state and owner; per run its
// configs with their sims by state, its derived state, progress in sims and kernels, and age.

import { api } from './api.js';
import { h, replace, badge, cell } from './dom.js';
import { since } from './clock.js';
import { dateTime } from './format.js';
import { poll } from './screen.js';
import { traceHref } from './traces.js';
import { runHref, resultsHref, entriesText } from './run.js';

const PAGE_SIZE = 50;
const STATES = ['active', 'succeeded', 'partial', 'cancelled', 'failed'];

function statesText(byState) {
  return Object.entries(byState || {}).map(([state, n]) => `${n} ${state}`).join(', ');
}

/** One line per config: `SM90_H100 × 4 · 2 running, 2 succeeded`. */
function configsCell(run) {
  if (!run.configs) {
    return entriesText(run.entries);
  }
  return run.configs.map((config) => h('div', { class: 'run-config' },
    `${config.gpu_config} × ${config.count}`,
    h('span', { class: 'muted small' }, ` · ${statesText(config.sims_by_state)}`)));
}

function row(run) {
  // The bar counts sims that ran to their end: a cancelled run's bar is not full, and greys out.
  const byState = run.sims_by_state || {};
  const ran = (byState.succeeded || 0) + (byState.failed || 0);
  return h('tr', { dataset: { id: run.id } },
    cell('th', { scope: 'row', 'data-label': 'Run' }, h('a', { href: runHref(run.id), class: 'run-id' }, run.id)),
    cell('td', { 'data-label': 'Trace' }, h('a', { href: traceHref(run.trace_id) }, run.trace_id)),
    cell('td', { 'data-label': 'Configs' }, configsCell(run)),
    cell('td', { 'data-label': 'State' }, badge(run.state)),
    cell('td', { 'data-label': 'Progress', class: 'progress-cell' },
      h('progress', { max: run.sim_count, value: ran, dataset: { state: run.state }, 'aria-label': `Sims that ran to their end, run ${run.id}` }),
      h('span', { class: 'small' }, ` ${ran} / ${run.sim_count}`),
      h('div', { class: 'muted small' }, statesText(byState)),
      run.kernels_total === undefined ? null
        : h('div', { class: 'muted small kernels' }, `kernels ${run.kernels_done} / ${run.kernels_total}`)),
    cell('td', { 'data-label': 'Owner' }, run.owner || ''),
    cell('td', { 'data-label': 'Age', class: 'age' }, since(h('time', { datetime: run.created_at, title: dateTime(run.created_at) }), run.created_at)),
    cell('td', { 'data-label': '', class: 'row-actions' }, h('a', { href: resultsHref(run.id), 'aria-label': `Results of run ${run.id}` }, 'Results')));
}

export function renderRuns(main) {
  document.title = 'Runs · Cascade';
  // cursors[i] asks for page i; page 0 needs none.
  let cursors = [null];
  let page = 0;
  let nextCursor = null;
  const tbody = h('tbody');
  const status = h('p', { class: 'muted', role: 'status' }, 'Loading runs…');
  const trace = h('input', { id: 'runs-trace', type: 'search', placeholder: 'any', size: 14, onchange: restart });
  const owner = h('input', { id: 'runs-owner', type: 'search', placeholder: 'any', size: 10, onchange: restart });
  const state = h('select', { id: 'runs-state', onchange: restart },
    h('option', { value: '' }, 'any'), STATES.map((name) => h('option', { value: name }, name)));
  const newer = h('button', { type: 'button', id: 'runs-newer', class: 'button', onclick: () => turn(-1) }, '← Newer');
  const older = h('button', { type: 'button', id: 'runs-older', class: 'button', onclick: () => turn(1) }, 'Older →');
  const where = h('span', { class: 'muted small', id: 'runs-page', 'aria-live': 'polite' });
  const table = h('table', { class: 'list runs', hidden: true },
    h('caption', { class: 'visually-hidden' }, 'Runs, newest first'),
    h('thead', {}, h('tr', {}, ['Run', 'Trace', 'Configs', 'State', 'Progress', 'Owner', 'Age', ''].map((label) =>
      h('th', { scope: 'col' }, label || h('span', { class: 'visually-hidden' }, 'Actions'))))),
    tbody);
  main.append(
    h('div', { class: 'page-head' },
      h('h1', {}, 'Runs'),
      h('p', { class: 'lede' }, `Runs, newest first, ${PAGE_SIZE} a page. A run’s state comes from its sims.`)),
    h('form', { class: 'toolbar', id: 'runs-filters', role: 'search', onsubmit: (event) => { event.preventDefault(); restart(); } },
      h('label', { class: 'filter' }, 'Trace ', trace),
      h('label', { class: 'filter' }, 'State ', state),
      h('label', { class: 'filter' }, 'Owner ', owner)),
    status,
    table,
    h('nav', { class: 'toolbar', 'aria-label': 'Pages of runs' }, newer, where, older));
  const known = new Map();
  let loading = 0;

  function query() {
    const params = new URLSearchParams({ limit: String(PAGE_SIZE) });
    if (trace.value.trim()) params.set('trace', trace.value.trim());
    if (state.value) params.set('state', state.value);
    if (owner.value.trim()) params.set('owner', owner.value.trim());
    if (cursors[page]) params.set('cursor', cursors[page]);
    return `/api/runs?${params}`;
  }

  function filtered() {
    return Boolean(trace.value.trim() || state.value || owner.value.trim());
  }

  function restart() {
    cursors = [null];
    page = 0;
    reload();
  }

  function reload() {
    load().catch((error) => {
      status.hidden = false;
      replace(status, error.message || String(error));
    });
  }

  function turn(step) {
    if (step > 0 && nextCursor) {
      cursors[page + 1] = nextCursor;
      page += 1;
    } else if (step < 0 && page > 0) {
      page -= 1;
    }
    reload();
  }

  async function load() {
    const mine = ++loading;
    const answer = await api(query());
    if (mine !== loading) {
      return; // a newer filter or page has been asked for
    }
    nextCursor = answer.next_cursor;
    newer.disabled = page === 0;
    older.disabled = !nextCursor;
    replace(where, `Page ${page + 1}`);
    show(answer.runs);
  }

  function show(runs) {
    if (runs.length === 0) {
      status.hidden = false;
      if (filtered()) {
        replace(status, 'No runs match these filters.');
      } else {
        replace(status, 'No runs yet. Start one from a ready trace: ', h('a', { href: '#/traces' }, 'Traces'), '.');
      }
      table.hidden = true;
      return;
    }
    status.hidden = true;
    table.hidden = false;
    const rows = runs.map((run) => {
      const key = JSON.stringify(run);
      const old = known.get(run.id);
      if (old && old.key === key) {
        return old.row;
      }
      const fresh = row(run);
      known.set(run.id, { key, row: fresh });
      return fresh;
    });
    const same = rows.length === tbody.children.length && rows.every((r, i) => tbody.children[i] === r);
    if (!same) {
      const active = document.activeElement;
      const focusedHref = active && tbody.contains(active) ? active.getAttribute('href') : null;
      tbody.replaceChildren(...rows);
      if (focusedHref && !tbody.contains(active)) {
        tbody.querySelector(`[href="${CSS.escape(focusedHref)}"]`)?.focus();
      }
    }
  }

  const stop = poll(load, 3000);
  return { dispose: stop };
}
