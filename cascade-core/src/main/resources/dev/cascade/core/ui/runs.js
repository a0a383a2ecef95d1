// Every run (#/runs), newest first: trace, entries, derived state, progress, age.

import { api } from './api.js';
import { h, replace, badge, cell } from './dom.js';
import { since } from './clock.js';
import { dateTime } from './format.js';
import { poll } from './screen.js';
import { traceHref } from './traces.js';
import { runHref, resultsHref, entriesText } from './run.js';

function row(run) {
  // The bar counts sims that ran to their end: a cancelled run's bar is not full, and greys out.
  const byState = run.sims_by_state || {};
  const ran = (byState.succeeded || 0) + (byState.failed || 0);
  const states = Object.entries(run.sims_by_state || {}).map(([state, n]) => `${n} ${state}`).join(', ');
  return h('tr', { dataset: { id: run.id } },
    cell('th', { scope: 'row', 'data-label': 'Run' }, h('a', { href: runHref(run.id), class: 'run-id' }, run.id)),
    cell('td', { 'data-label': 'Trace' }, h('a', { href: traceHref(run.trace_id) }, run.trace_id)),
    cell('td', { 'data-label': 'Configs' }, entriesText(run.entries)),
    cell('td', { 'data-label': 'State' }, badge(run.state)),
    cell('td', { 'data-label': 'Progress', class: 'progress-cell' },
      h('progress', { max: run.sim_count, value: ran, dataset: { state: run.state }, 'aria-label': `Sims that ran to their end, run ${run.id}` }),
      h('span', { class: 'small' }, ` ${ran} / ${run.sim_count}`),
      h('div', { class: 'muted small' }, states)),
    cell('td', { 'data-label': 'Age', class: 'age' }, since(h('time', { datetime: run.created_at, title: dateTime(run.created_at) }), run.created_at)),
    cell('td', { 'data-label': '', class: 'row-actions' }, h('a', { href: resultsHref(run.id), 'aria-label': `Results of run ${run.id}` }, 'Results')));
}

export function renderRuns(main) {
  document.title = 'Runs · Cascade';
  const tbody = h('tbody');
  const status = h('p', { class: 'muted', role: 'status' }, 'Loading runs…');
  const table = h('table', { class: 'list runs', hidden: true },
    h('caption', { class: 'visually-hidden' }, 'Runs, newest first'),
    h('thead', {}, h('tr', {}, ['Run', 'Trace', 'Configs', 'State', 'Progress', 'Age', ''].map((label) =>
      h('th', { scope: 'col' }, label || h('span', { class: 'visually-hidden' }, 'Actions'))))),
    tbody);
  main.append(
    h('div', { class: 'page-head' },
      h('h1', {}, 'Runs'),
      h('p', { class: 'lede' }, 'Every run, newest first. A run’s state comes from its sims.')),
    status,
    table);
  const known = new Map();
  const stop = poll(async () => {
    const { runs } = await api('/api/runs');
    if (runs.length === 0) {
      status.hidden = false;
      replace(status, 'No runs yet. Start one from a ready trace: ', h('a', { href: '#/traces' }, 'Traces'), '.');
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
  }, 3000);
  return { dispose: stop };
}
