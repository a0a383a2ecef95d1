// The traces: the list (#/traces) and one trace (#/traces/{id}).

import { api } from './api.js';
import { h, replace, badge, cell } from './dom.js';
import { since } from './clock.js';
import { bytes, count, dateTime } from './format.js';
import { poll, loadFailed } from './screen.js';

/** States that change by themselves: the list keeps polling quickly while one is shown. */
const MOVING = new Set(['uploading', 'processing']);

export function traceHref(id) {
  return `#/traces/${encodeURIComponent(id)}`;
}

export function newRunHref(id) {
  return `#/traces/${encodeURIComponent(id)}/new-run`;
}

function modelAndLayers(trace) {
  const layers = trace.traced_layers || [];
  return h('div', { class: 'model' },
    trace.model_name ? h('div', {}, trace.model_name) : h('div', { class: 'muted' }, 'unknown model'),
    layers.length ? h('div', { class: 'muted small' }, layers.join(', ')) : null);
}

function stateCell(trace) {
  return [
    badge(trace.state, MOVING.has(trace.state) ? 'moving' : null),
    trace.state === 'failed' && trace.reason ? h('p', { class: 'reason' }, trace.reason) : null,
  ];
}

function actionCell(trace) {
  if (trace.runnable) {
    return h('a', { class: 'button primary', href: newRunHref(trace.id), 'aria-label': `New run of ${trace.id}`, dataset: { needs: 'submitter' } }, 'New run');
  }
  if (trace.sample) {
    return h('span', { class: 'muted small' }, 'Sample: browse only');
  }
  return null;
}

function row(trace) {
  return h('tr', { dataset: { id: trace.id } },
    cell('th', { scope: 'row', 'data-label': 'Trace' },
      h('a', { href: traceHref(trace.id), class: 'trace-id' }, trace.id),
      trace.sample ? h('span', { class: 'badge sample', title: 'Samples can be browsed but never run' }, 'sample') : null),
    cell('td', { 'data-label': 'State' }, stateCell(trace)),
    cell('td', { 'data-label': 'Arch' }, trace.trace_gpu_arch || '—'),
    cell('td', { 'data-label': 'Kernels', class: 'num' }, trace.state === 'ready' ? count(trace.kernel_count) : '—'),
    cell('td', { 'data-label': 'Model and layers' }, modelAndLayers(trace)),
    cell('td', { 'data-label': 'Size', class: 'num' }, bytes(trace.size_bytes)),
    cell('td', { 'data-label': 'Age', class: 'age' }, since(h('time', { datetime: trace.created_at, title: dateTime(trace.created_at) }), trace.created_at)),
    cell('td', { 'data-label': '', class: 'row-actions' }, actionCell(trace)),
  );
}

/** Replaces only the rows whose trace changed, keeping focus where it was. */
function updateRows(tbody, traces, known) {
  const active = document.activeElement;
  const focusedId = active && tbody.contains(active) ? active.closest('tr')?.dataset.id : null;
  const focusedHref = focusedId ? active.getAttribute('href') : null;
  const rows = [];
  for (const trace of traces) {
    const key = JSON.stringify(trace);
    const old = known.get(trace.id);
    if (old && old.key === key) {
      rows.push(old.row);
    } else {
      const fresh = row(trace);
      known.set(trace.id, { key, row: fresh });
      rows.push(fresh);
    }
  }
  const ids = new Set(traces.map((t) => t.id));
  for (const id of [...known.keys()]) {
    if (!ids.has(id)) {
      known.delete(id);
    }
  }
  const same = rows.length === tbody.children.length && rows.every((r, i) => tbody.children[i] === r);
  if (!same) {
    tbody.replaceChildren(...rows);
  }
  if (focusedId && !tbody.contains(active)) {
    const again = known.get(focusedId)?.row.querySelector(focusedHref ? `[href="${CSS.escape(focusedHref)}"]` : 'a');
    again?.focus();
  }
}

// The folders of the traces folder that are not traces (a name that is no trace id, a symbolic
// link), each with why: an upload under a wrong name would otherwise just not show.
function skippedFoldersSection() {
  const list = h('ul', { class: 'skipped-list' });
  const section = h('section', { class: 'skipped-folders', hidden: true, 'aria-labelledby': 'skipped-title' },
    h('h2', { id: 'skipped-title' }, 'Folders that are not traces'),
    h('p', { class: 'muted' }, 'These folders of the traces folder were skipped. Rename or remove them.'),
    list);
  let shown = '';
  return {
    section,
    update(skipped = []) {
      const key = JSON.stringify(skipped);
      if (key === shown) {
        return;
      }
      shown = key;
      replace(list, ...skipped.map((folder) =>
        h('li', { dataset: { name: folder.name } },
          h('code', { class: 'folder-name' }, folder.name), ': ',
          h('span', { class: 'reason' }, folder.reason))));
      section.hidden = skipped.length === 0;
    },
  };
}

export function renderTraces(main) {
  document.title = 'Traces · Cascade';
  const tbody = h('tbody');
  const status = h('p', { class: 'muted', role: 'status' }, 'Loading traces…');
  const table = h('table', { class: 'list traces', hidden: true },
    h('caption', { class: 'visually-hidden' }, 'Traces, oldest first'),
    h('thead', {}, h('tr', {},
      ['Trace', 'State', 'Arch', 'Kernels', 'Model and layers', 'Size', 'Age', ''].map((label) =>
        h('th', { scope: 'col', class: ['Kernels', 'Size'].includes(label) ? 'num' : null },
          label || h('span', { class: 'visually-hidden' }, 'Actions'))))),
    tbody);
  main.append(
    h('div', { class: 'page-head' },
      h('h1', {}, 'Traces'),
      h('p', { class: 'lede' }, 'Captured GPU traces. Open a ready trace to simulate it on other GPU configs.')),
    status,
    table,
  );
  const skipped = skippedFoldersSection();
  main.append(skipped.section);
  const known = new Map();
  let loaded = false;
  const stop = poll(async () => {
    const { traces, skipped_folders: skippedFolders } = await api('/api/traces');
    loaded = true;
    skipped.update(skippedFolders);
    if (traces.length === 0) {
      status.hidden = false;
      replace(status, 'No traces yet. Upload one with ', h('code', {}, 'cascade traces push DIR --id ID'),
        ', or copy a trace folder into the data dir’s traces folder.');
      table.hidden = true;
    } else {
      status.hidden = true;
      table.hidden = false;
    }
    updateRows(tbody, traces, known);
  }, 2000);
  return {
    dispose() {
      stop();
      if (!loaded) {
        status.textContent = '';
      }
    },
  };
}

export function renderTrace(main, id) {
  document.title = `${id} · Cascade`;
  const heading = h('h1', {}, id);
  const body = h('div', {}, h('p', { class: 'muted', role: 'status' }, 'Loading…'));
  main.append(
    h('p', { class: 'crumbs' }, h('a', { href: '#/traces' }, 'Traces'), ' / '),
    heading,
    body,
  );
  let lastKey = null;
  const stop = poll(async () => {
    let trace;
    try {
      trace = await api(`/api/traces/${encodeURIComponent(id)}`);
    } catch (error) {
      if (error.status === 404 || error.status === 400) {
        replace(body);
        loadFailed(body, error, '#/traces', 'Back to the traces');
        stop();
        return;
      }
      throw error;
    }
    const key = JSON.stringify(trace);
    if (key === lastKey) {
      return;
    }
    lastKey = key;
    replace(body, traceDetail(trace));
  }, 3000);
  return { dispose: stop };
}

function traceDetail(trace) {
  const facts = [
    ['State', stateCell(trace)],
    ['Architecture', trace.trace_gpu_arch || '—'],
    ['Suggested config', trace.suggested_sim_config || '—'],
    ['Model', trace.model_name || '—'],
    ['Traced layers', (trace.traced_layers || []).join(', ') || '—'],
    ['Kernels', count(trace.kernel_count)],
    ['Size', bytes(trace.size_bytes)],
    ['Created', h('time', { datetime: trace.created_at }, dateTime(trace.created_at))],
  ];
  const kernels = trace.kernels || [];
  return h('div', {},
    h('div', { class: 'toolbar' },
      trace.sample ? h('span', { class: 'badge sample' }, 'sample') : null,
      trace.runnable
        ? h('a', { class: 'button primary', href: newRunHref(trace.id), dataset: { needs: 'submitter' } }, 'New run')
        : h('p', { class: 'muted' }, trace.sample
          ? 'This is a sample: it can be browsed but never run.'
          : `Runs can start once the trace is ready; it is ${trace.state}.`)),
    h('dl', { class: 'facts' }, facts.map(([term, value]) => [h('dt', {}, term), h('dd', {}, value)])),
    h('h2', {}, 'Kernels'),
    kernels.length === 0
      ? h('p', { class: 'muted' }, 'No kernels listed yet.')
      : h('div', { class: 'scroll' }, h('table', { class: 'list kernels' },
        h('thead', {}, h('tr', {}, ['#', 'Name', 'Grid', 'Block', 'Warp instructions (trace)'].map((label) =>
          h('th', { scope: 'col', class: label === 'Warp instructions (trace)' ? 'num' : null }, label)))),
        h('tbody', {}, kernels.map((kernel) => h('tr', {},
          cell('td', { 'data-label': '#' }, kernel.index),
          cell('td', { 'data-label': 'Name', class: 'kernel-name' }, kernel.name || kernel.file),
          cell('td', { 'data-label': 'Grid' }, kernel.grid || '—'),
          cell('td', { 'data-label': 'Block' }, kernel.block || '—'),
          cell('td', { 'data-label': 'Warp instructions (trace)', class: 'num' }, count(kernel.instructions))))))),
  );
}
