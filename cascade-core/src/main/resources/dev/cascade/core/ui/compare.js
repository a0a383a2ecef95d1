// Run-to-run comparison (#/compare?runs=A,B[,...]): the first run is the baseline; per other run,
// per config both runs have, per kernel and in total, the change in cycles, thread-level IPC and
// simulated time with the spread test, and which inputs (trace, config, simulator) differ.
// `&measures=a,b` adds a column pair per statistic named (as on the results page), kept in the
// address so a comparison can be linked.

import { api } from './api.js';
import { h, replace, badge, cell, errorBox } from './dom.js';
import { count, number } from './format.js';
import { problem } from './screen.js';
import { measuresOf, measuresQuery, measurePicker } from './measures.js';

/** The compare page's address for these run ids, the baseline first, and measures beyond three. */
export function compareHref(ids, measures = []) {
  const extra = measuresQuery(measures);
  return `#/compare?runs=${ids.map(encodeURIComponent).join(',')}${extra ? `&${extra}` : ''}`;
}

/** `value` with exactly `decimals` decimals, grouped: 1,234 or 0.505. */
function fixed(value, decimals) {
  return new Intl.NumberFormat('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals }).format(value);
}

function idsOf(query) {
  const text = new URLSearchParams(query || '').get('runs') || '';
  return text.split(',').map((id) => id.trim()).filter((id) => id);
}

/** "-200 (-19.9%)" with the verdict: "1.25× faster", "higher", "same within spread". */
function changeText(change, digits) {
  if (!change) {
    return '—';
  }
  const sign = change.difference > 0 ? '+' : change.difference < 0 ? '−' : '±';
  const value = `${sign}${fixed(Math.abs(change.difference), digits)}`;
  const relative = change.relative == null ? '' : ` (${change.relative >= 0 ? '+' : '−'}${fixed(Math.abs(100 * change.relative), 1)}%)`;
  let verdict = change.direction.replaceAll('_', ' ');
  if (change.speedup && change.direction !== 'same_within_spread') {
    verdict = `${number(change.speedup.ratio, 3)}× ${change.speedup.verdict}`;
  }
  return `${value}${relative} ${verdict}`;
}

function rangeTitle(change, digits) {
  if (!change) {
    return null;
  }
  const range = (side) => `${fixed(side.mean, digits)} [${fixed(side.min, digits)}..${fixed(side.max, digits)}], n=${side.n}`;
  return `baseline ${range(change.baseline)}; run ${range(change.run)}`;
}

const MEASURES = [
  { key: 'cycles', title: 'Core cycles', digits: 0, format: count },
  { key: 'ipc', title: 'Thread IPC', digits: 3, format: (v) => fixed(v, 3) },
  { key: 'simulated_time_us', title: 'Sim time (µs)', digits: 3, format: (v) => fixed(v, 3) },
];

/** The fixed measures, then one per id the comparison's `measures` adds, titled with what it counts. */
function measuresOfComparison(comparison) {
  const fixedKeys = MEASURES.map((measure) => measure.key);
  const extra = Object.keys(comparison.measures || {}).filter((key) => !fixedKeys.includes(key));
  return [...MEASURES, ...extra.map((key) => {
    const whole = wholeEverywhere(comparison, key);
    return {
      key, title: key, counts: comparison.measures[key], extra: true,
      digits: whole ? 0 : 4, format: whole ? count : (v) => fixed(v, 4),
    };
  })];
}

/** True when every mean and range of measure `key` in the comparison is a whole number. */
function wholeEverywhere(comparison, key) {
  return comparison.changes.every((change) => change.configs.every((config) =>
    [...config.kernels, config.total].every((row) => !row[key]
      || ['baseline', 'run'].every((side) => ['mean', 'min', 'max'].every((field) => Number.isInteger(row[key][side][field]))))));
}

function kernelRow(kernel, name, measures) {
  const cells = [cell('th', { scope: 'row', 'data-label': 'Kernel' }, name)];
  for (const measure of measures) {
    const change = kernel[measure.key];
    cells.push(cell('td', { 'data-label': `${measure.title}`, class: 'num' },
      change ? `${measure.format(change.baseline.mean)} → ${measure.format(change.run.mean)}` : '—'));
    cells.push(cell('td', {
      'data-label': `${measure.title} change`,
      class: `num change ${change ? change.direction : ''}`,
      title: rangeTitle(change, measure.digits),
      dataset: { measure: measure.key, direction: change ? change.direction : '' },
    }, changeText(change, measure.digits)));
  }
  return h('tr', { dataset: { label: kernel.label } }, cells);
}

function configSection(config, measures) {
  const differs = config.differs.length > 0
    ? h('p', { class: 'differs', dataset: { differs: config.differs.join(',') } }, h('strong', {}, 'Differs: '), config.differs.join(', '))
    : h('p', { class: 'differs muted' }, 'No input known to differ.');
  const inputs = h('table', { class: 'list inputs' },
    h('caption', {}, 'Inputs of this config’s sims, from their provenance'),
    h('thead', {}, h('tr', {}, ['Input', 'Status', 'Baseline', 'Run'].map((label) => h('th', { scope: 'col' }, label)))),
    h('tbody', {}, config.inputs.map((input) => h('tr', { dataset: { input: input.input, status: input.status } },
      cell('th', { scope: 'row', 'data-label': 'Input' }, input.input),
      cell('td', { 'data-label': 'Status' }, input.status),
      cell('td', { 'data-label': 'Baseline', class: 'mono small' }, input.baseline),
      cell('td', { 'data-label': 'Run', class: 'mono small' }, input.run)))));
  const kernels = h('table', { class: 'list compare-kernels' },
    h('caption', {}, 'Per kernel (matched by launch, name#n) and in total: baseline → run, and the change'),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Kernel'),
      measures.flatMap((measure) => [
        h('th', { scope: 'col', title: measure.counts || null, dataset: measure.extra ? { measure: measure.key } : {} }, measure.title),
        h('th', { scope: 'col' }, measure.extra ? `${measure.title} change` : 'Change')]))),
    h('tbody', {},
      config.kernels.map((kernel) => kernelRow(kernel, `${kernel.position}. ${kernel.readable_name || kernel.name}${kernel.instance > 0 ? `#${kernel.instance}` : ''}`, measures)),
      kernelRow(config.total, 'Total', measures)));
  return h('section', { class: 'compare-config', dataset: { config: config.gpu_config } },
    h('h3', {}, config.gpu_config),
    differs,
    h('div', { class: 'scroll' }, inputs),
    h('div', { class: 'scroll' }, kernels),
    config.notes.length ? h('ul', { class: 'notes' }, config.notes.map((note) => h('li', {}, note))) : null);
}

function changeSection(change, baseline, measures) {
  return h('section', { class: 'compare-run', dataset: { run: change.run_id } },
    h('h2', {}, `${change.run_id} against ${baseline}`),
    change.only_in_baseline.length ? h('p', { class: 'only' }, `Only in the baseline: ${change.only_in_baseline.join(', ')}`) : null,
    change.only_in_run.length ? h('p', { class: 'only' }, `Only in ${change.run_id}: ${change.only_in_run.join(', ')}`) : null,
    change.configs.length ? change.configs.map((config) => configSection(config, measures)) : h('p', { class: 'muted' }, 'No config is in both runs: nothing to compare.'));
}

/** Two selects and a button that open the comparison of the chosen runs. */
async function picker(ids, measures) {
  let runs = [];
  try {
    const listed = await api('/api/runs');
    runs = Array.isArray(listed) ? listed : listed.runs || [];
  } catch {
    // The list is only a convenience: the address can still name the runs.
  }
  const options = (selected) => runs.map((run) => h('option', { value: run.id, selected: run.id === selected }, `${run.id} · ${run.trace_id} · ${run.state}`));
  const base = h('select', { id: 'compare-baseline' }, options(ids[0]));
  const other = h('select', { id: 'compare-other' }, h('option', { value: '' }, 'choose a run'), options(ids[1]));
  const go = h('button', {
    type: 'submit',
  }, 'Compare');
  return h('form', {
    class: 'toolbar compare-picker',
    onsubmit: (event) => {
      event.preventDefault();
      if (base.value && other.value) {
        location.hash = compareHref([base.value, other.value, ...ids.slice(2).filter((id) => id !== base.value && id !== other.value)], measures);
      }
    },
  }, h('label', { class: 'choice' }, 'Baseline ', base), h('label', { class: 'choice' }, 'against ', other), go);
}

export function renderCompare(main, query) {
  const ids = idsOf(query);
  const chosen = measuresOf(query);
  const body = h('div', { id: 'compare' });
  const measurePick = measurePicker(chosen, (names) => {
    location.hash = compareHref(ids, names);
  });
  main.append(
    h('p', { class: 'crumbs' }, h('a', { href: '#/runs' }, 'Runs'), ' / '),
    h('h1', {}, 'Compare runs'),
    ids.length >= 2 ? measurePick.element : null,
    body);
  if (ids.length >= 2) {
    api(`/api/measures?run=${encodeURIComponent(ids[0])}`)
      .then((catalog) => measurePick.offer(catalog.statistics || []))
      .catch(() => {}); // the offer is only a convenience: any name can be typed
  }
  document.title = 'Compare runs · Cascade';
  let disposed = false;
  let timer = null;
  let lastKey = null;

  async function load() {
    if (ids.length < 2) {
      replace(body, h('p', { class: 'hint' }, 'Choose a baseline run and a run to compare it with: the same configs before and after a simulator change, or a trace against a variant of it.'), await picker(ids, chosen));
      return;
    }
    let comparison;
    try {
      const extra = measuresQuery(chosen);
      comparison = await api(`/api/compare?runs=${ids.map(encodeURIComponent).join(',')}${extra ? `&${extra}` : ''}`);
    } catch (error) {
      if (!disposed) {
        replace(body, errorBox(problem(error)), await picker(ids, chosen));
      }
      return;
    }
    if (disposed) {
      return;
    }
    const key = JSON.stringify(comparison);
    if (key !== lastKey) {
      lastKey = key;
      render(comparison);
    }
    if (comparison.runs.some((run) => run.partial)) {
      timer = setTimeout(load, 5000);
    }
  }

  function render(comparison) {
    const measures = measuresOfComparison(comparison);
    const extra = measures.filter((measure) => measure.extra);
    replace(body,
      h('ul', { class: 'compare-runs' }, comparison.runs.map((run) => h('li', { dataset: { run: run.run_id } },
        h('a', { href: `#/runs/${encodeURIComponent(run.run_id)}` }, run.run_id),
        run.run_id === comparison.baseline ? ' (baseline)' : '',
        ` · trace ${run.trace_id} · `, badge(run.state),
        run.partial ? h('span', { class: 'badge partial', title: 'still running: the numbers cover the kernels finished so far' }, 'partial') : null))),
      h('p', { class: 'hint', id: 'measures' },
        `Cycles: ${comparison.measures.cycles}. IPC: ${comparison.measures.ipc}. Time: ${comparison.measures.simulated_time_us}.`,
        extra.map((measure) => ` ${measure.key}: ${measure.counts}.`).join('')),
      h('p', { class: 'hint', id: 'spread-rule' }, comparison.spread_rule),
      comparison.changes.map((change) => changeSection(change, comparison.baseline, measures)));
  }

  load();
  return {
    dispose() {
      disposed = true;
      clearTimeout(timer);
    },
  };
}
