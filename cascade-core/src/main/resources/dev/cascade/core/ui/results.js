// Results (#/runs/{id}/results): per config, per kernel and in total, cycles, IPC and simulated
// time as charts with the spread across replicas, the speedup of each config over the baseline
// config (same within spread when the replica ranges overlap), the numbers as tables, and the CSV.
// Measures picked beyond those (`?measures=` in the address) add columns to the tables.

import { api, fileLink } from './api.js';
import { h, replace, badge, cell } from './dom.js';
import { count, number, compact } from './format.js';
import { barChart, legend, colorOf } from './charts.js';
import { loadFailed } from './screen.js';
import { runHref } from './run.js';
import { traceHref } from './traces.js';
import { hardwareSection } from './hardware.js';
import { compareHref } from './compare.js';
import { sensitivitySection } from './sensitivity.js';
import {
  measuresOf, measuresQuery, extraMeasures, measurePicker, measureHeaders, measureCells, measureNotes,
} from './measures.js';

const METRICS = [
  { key: 'cycles', title: 'Cycles', unit: 'cycles', format: compact, exact: count },
  { key: 'ipc', title: 'IPC', unit: 'instructions per cycle', format: (v) => number(v, 3), exact: (v) => number(v, 4) },
  { key: 'simulated_time_us', title: 'Simulated time', unit: 'µs (cycles / core clock)', format: (v) => `${number(v, 3)} µs`, exact: (v) => `${number(v, 5)} µs` },
];

/** The kernel's readable name and, past its first launch, `#instance`: the label the CLI, CSV and JSON use. */
function kernelLabel(kernel, index) {
  return `${index + 1}. ${kernel.readable_name || kernel.name}${kernel.instance > 0 ? `#${kernel.instance}` : ''}`;
}

/** A speedup over the baseline for people: "1.25× faster", "0.80× slower", "same within spread". */
export function speedupText(ratio) {
  if (!ratio) {
    return '—';
  }
  if (ratio.verdict === 'same_within_spread') {
    return 'same within spread';
  }
  return `${number(ratio.ratio, 3)}× ${ratio.verdict}`;
}

function speedupCell(label, ratio, isBaseline) {
  return cell('td', {
    'data-label': label,
    class: `num speedup ${ratio ? ratio.verdict : ''}`,
    title: ratio ? `baseline mean / this mean = ${number(ratio.ratio, 4)}` : null,
    dataset: { verdict: ratio ? ratio.verdict : '' },
  }, isBaseline ? 'baseline' : speedupText(ratio));
}

/** The "partial" badge with what is done and what is to come, while the run is active. */
function partialNote(progress) {
  return h('p', { class: 'hint partial', id: 'partial', role: 'status' },
    h('span', { class: 'badge partial' }, 'partial'),
    ` ${progress.sims_finished} of ${progress.sims} sims finished, ${progress.kernels_done} of ${progress.kernels_total} kernels done.`
      + ' Each kernel counts every replica that has finished it, running ones included; totals count succeeded replicas only. The numbers refresh as more finish.');
}

/** "34779" with "(all 4 replicas agree)" when every replica gave exactly that number. */
function agreed(spread) {
  return spread && spread.n > 1 && spread.min === spread.max
    ? h('span', { class: 'muted small', title: 'every replica gave exactly this number' }, ` (all ${spread.n} agree)`)
    : null;
}

function replicaDetail(item, spread, format) {
  return (item.replicas || []).map((replica, i) => `replica ${replica}: ${format(spread.values[i])}`).join(', ');
}

/** Kernels across configs, matched by (name, instance), in the order they first appear. */
function kernelRows(configs) {
  const keys = [];
  const seen = new Set();
  for (const config of configs) {
    for (const kernel of config.kernels) {
      const key = `${kernel.name}\u0000${kernel.instance}`;
      if (!seen.has(key)) {
        seen.add(key);
        keys.push({ key, name: kernel.name, readable_name: kernel.readable_name, instance: kernel.instance });
      }
    }
  }
  return keys;
}

function find(config, key) {
  return config.kernels.find((kernel) => `${kernel.name}\u0000${kernel.instance}` === key) || null;
}

function metricSection(metric, results, series, scale) {
  const configs = results.configs;
  const baseline = configs.findIndex((config) => config.gpu_config === results.baseline);
  const speedupKey = metric.key === 'simulated_time_us' ? 'simulated_time' : 'cycles';
  const kernels = kernelRows(configs);
  const totalChart = barChart({
    title: `${metric.title}, whole trace (${metric.unit})`,
    series,
    baseline,
    format: metric.format,
    groups: [{
      label: 'All kernels',
      bars: configs.map((config, i) => ({
        series: i,
        spread: config.total?.[metric.key],
        detail: config.total ? replicaDetail(config.total, config.total[metric.key], metric.exact) : '',
      })),
    }],
  }, scale);
  const kernelChart = barChart({
    title: `${metric.title} per kernel (${metric.unit})`,
    series,
    baseline,
    format: metric.format,
    groups: kernels.map((kernel, index) => ({
      label: kernelLabel(kernel, index),
      title: kernel.name,
      bars: configs.map((config, i) => {
        const item = find(config, kernel.key);
        return {
          series: i,
          spread: item?.[metric.key] ?? null,
          detail: item ? replicaDetail(item, item[metric.key], metric.exact) : '',
        };
      }),
    })),
  }, scale);
  const table = h('table', { class: 'list numbers' },
    h('caption', { class: 'visually-hidden' }, `${metric.title}: mean, standard deviation, min and max across succeeded replicas`),
    h('thead', {}, h('tr', {}, ['Kernel', 'Config', 'n', 'Mean', 'Stdev', 'Min', 'Max', 'Speedup'].map((label) =>
      h('th', { scope: 'col', class: ['n', 'Mean', 'Stdev', 'Min', 'Max', 'Speedup'].includes(label) ? 'num' : null }, label)))),
    h('tbody', {},
      [...kernels.map((kernel, index) => ({ label: kernelLabel(kernel, index), pick: (c) => find(c, kernel.key) })),
        { label: 'All kernels', pick: (c) => c.total }].flatMap(({ label, pick }) =>
        configs.map((config) => {
          const item = pick(config);
          const spread = item?.[metric.key];
          const has = spread && spread.n > 0;
          const ratio = metric.key === 'ipc' ? null : item?.speedup?.[speedupKey];
          return h('tr', {},
            cell('td', { 'data-label': 'Kernel', class: 'kernel-name' }, label),
            cell('td', { 'data-label': 'Config' }, config.gpu_config),
            cell('td', { 'data-label': 'n', class: 'num' }, spread ? spread.n : 0),
            cell('td', { 'data-label': 'Mean', class: 'num' }, has ? metric.exact(spread.mean) : '—'),
            cell('td', { 'data-label': 'Stdev', class: 'num' }, has ? metric.exact(spread.stdev) : '—'),
            cell('td', { 'data-label': 'Min', class: 'num' }, has ? metric.exact(spread.min) : '—'),
            cell('td', { 'data-label': 'Max', class: 'num' }, has ? metric.exact(spread.max) : '—'),
            metric.key === 'ipc'
              ? cell('td', { 'data-label': 'Speedup', class: 'num' }, '—')
              : speedupCell('Speedup', ratio, config.gpu_config === results.baseline));
        }))));
  return h('section', { class: 'metric', 'aria-labelledby': `metric-${metric.key}`, dataset: { metric: metric.key } },
    h('h2', { id: `metric-${metric.key}` }, metric.title),
    h('div', { class: 'chart-pair' }, totalChart, kernelChart),
    h('details', {}, h('summary', {}, `${metric.title} as numbers`), h('div', { class: 'scroll' }, table)));
}

function summaryTable(results, series) {
  const extra = extraMeasures(results);
  return h('div', { class: 'scroll' }, h('table', { class: 'list summary' },
    h('caption', { class: 'visually-hidden' }, 'Whole-trace results per GPU config (mean across succeeded replicas)'),
    h('thead', {}, h('tr', {}, ['Config', 'Arch', 'Clock', 'Succeeded', 'Cycles', 'Thread instructions (sim)', 'IPC', 'Simulated time', 'Speedup (cycles)', 'Speedup (time)'].map((label) =>
      h('th', { scope: 'col', class: ['Config', 'Arch'].includes(label) ? null : 'num' }, label)),
    extra.map(measureHeaders))),
    h('tbody', {}, results.configs.map((config, i) => {
      const total = config.total || {};
      const mean = (key, format, spreadFormat) => (total[key] && total[key].n > 0
        ? [format(total[key].mean), total[key].stdev > 0
          ? h('span', { class: 'muted small', title: 'sample standard deviation across replicas' }, ` ± ${spreadFormat(total[key].stdev)}`)
          : agreed(total[key])]
        : '—');
      const swatch = h('span', { class: 'swatch', 'aria-hidden': 'true' });
      swatch.style.backgroundColor = series[i].color;
      const isBaseline = config.gpu_config === results.baseline;
      return h('tr', { dataset: { config: config.gpu_config } },
        cell('th', { scope: 'row', 'data-label': 'Config' }, swatch, config.gpu_config,
          // A sampled config's totals are estimates: say from what and how sure, where they are read.
          config.sampling ? h('div', { class: 'muted small sampling', title: 'Whole-trace numbers estimated from the trace\'s sampling plan; see docs/results.md' }, config.sampling.summary) : null),
        cell('td', { 'data-label': 'Arch' }, config.arch || '—'),
        cell('td', { 'data-label': 'Clock', class: 'num' }, config.clock_mhz ? `${number(config.clock_mhz)} MHz` : '—'),
        cell('td', { 'data-label': 'Succeeded', class: 'num' }, `${config.succeeded} / ${config.replicas}`),
        cell('td', { 'data-label': 'Cycles', class: 'num' }, mean('cycles', count, (v) => number(v, 3))),
        cell('td', { 'data-label': 'Thread instructions (sim)', class: 'num' }, mean('instructions', count, (v) => number(v, 3))),
        cell('td', { 'data-label': 'IPC', class: 'num' }, mean('ipc', (v) => number(v, 4), (v) => number(v, 2))),
        cell('td', { 'data-label': 'Simulated time', class: 'num' }, mean('simulated_time_us', (v) => `${number(v, 5)} µs`, (v) => `${number(v, 2)} µs`)),
        speedupCell('Speedup (cycles)', total.speedup?.cycles, isBaseline),
        speedupCell('Speedup (time)', total.speedup?.simulated_time, isBaseline),
        extra.map((measure) => measureCells(measure, config.total, isBaseline)));
    }))));
}

/**
 * The picked measures per kernel and in total, per config: each with its spread across replicas
 * and its change from the baseline; what each counts below.
 */
function measuresSection(results) {
  const extra = extraMeasures(results);
  if (!extra.length) {
    return null;
  }
  const configs = results.configs;
  const rows = [...kernelRows(configs).map((kernel, index) => ({ label: kernelLabel(kernel, index), total: false, pick: (c) => find(c, kernel.key) })),
    { label: 'All kernels', total: true, pick: (c) => c.total }];
  const table = h('table', { class: 'list numbers', id: 'measures-table' },
    h('caption', { class: 'visually-hidden' }, 'Picked measures per kernel and in total: mean across succeeded replicas, its spread, and its change from the baseline'),
    h('thead', {}, h('tr', {},
      h('th', { scope: 'col' }, 'Kernel'), h('th', { scope: 'col' }, 'Config'), h('th', { scope: 'col', class: 'num' }, 'n'),
      extra.map(measureHeaders))),
    h('tbody', {}, rows.flatMap(({ label, total, pick }) => configs.map((config) => {
      const item = pick(config);
      return h('tr', { dataset: { config: config.gpu_config, row: total ? 'total' : 'kernel' } },
        cell('td', { 'data-label': 'Kernel', class: 'kernel-name' }, label),
        cell('td', { 'data-label': 'Config' }, config.gpu_config),
        cell('td', { 'data-label': 'n', class: 'num' }, item ? item.n ?? '—' : 0),
        extra.map((measure) => measureCells(measure, item, config.gpu_config === results.baseline)));
    }))));
  return h('section', { class: 'measures', id: 'measures', 'aria-labelledby': 'measures-title' },
    h('h2', { id: 'measures-title' }, 'Picked measures'),
    h('div', { class: 'scroll' }, table),
    measureNotes(extra));
}

function notes(results) {
  const all = results.configs.flatMap((config) => (config.notes || []).map((note) => `${config.gpu_config}: ${note}`));
  return all.length ? h('ul', { class: 'notes' }, all.map((note) => h('li', {}, note))) : null;
}

export function renderResults(main, runId, query) {
  document.title = `Results of ${runId} · Cascade`;
  const body = h('div', {}, h('p', { class: 'muted', role: 'status' }, 'Loading the results…'));
  let disposed = false;
  let timer = null;
  let lastKey = null;
  let scale = 'absolute';
  let baseline = null; // the server's default, the run's first config, until one is chosen
  let measures = measuresOf(query); // the names picked beyond the defaults, as in the address
  let added = null; // the name just added, until the server has taken or refused it
  const picker = measurePicker(measures, (names, name) => {
    measures = names;
    added = name;
    keepInAddress();
    clearTimeout(timer);
    load();
  });
  main.append(
    h('p', { class: 'crumbs' }, h('a', { href: '#/runs' }, 'Runs'), ' / ', h('a', { href: runHref(runId) }, runId), ' / '),
    h('h1', {}, 'Results'),
    picker.element,
    body);

  /** The picked measures in the address, so a reload or a shared link shows them; no new screen. */
  function keepInAddress() {
    const picked = measuresQuery(measures).replaceAll('%3A', ':');
    history.replaceState(history.state, '', `#/runs/${encodeURIComponent(runId)}/results${picked ? `?${picked}` : ''}`);
  }

  /** `?baseline=...&measures=...` as chosen, or ''. */
  function resultsQuery() {
    const parts = [baseline ? `baseline=${encodeURIComponent(baseline)}` : null, measuresQuery(measures) || null].filter(Boolean);
    return parts.length ? `?${parts.join('&')}` : '';
  }

  /**
   * A measure the server refused (a statistic no kernel printed): its message next to the picker,
   * and the name taken back: the one just added (back into the input; the others were taken
   * before), or, from the address, the one the message names (every one if it names none).
   */
  function refused(error) {
    const named = (name) => [name, name.split(':')[0]].some((key) => error.message.includes(`named "${key}"`));
    let rejected = added ? [added] : measures.filter(named);
    if (!rejected.length) {
      rejected = [...measures];
    }
    measures = measures.filter((name) => !rejected.includes(name));
    picker.set(measures);
    picker.showError(error.message, rejected.includes(added) ? added : null);
    added = null;
    keepInAddress();
  }

  async function offerStatistics() {
    try {
      const catalog = await api(`/api/measures?run=${encodeURIComponent(runId)}`);
      if (!disposed) {
        picker.offer(catalog.statistics || []);
      }
    } catch {
      // No list to offer: a name can still be typed.
    }
  }

  async function load() {
    let results;
    try {
      results = await api(`/api/runs/${encodeURIComponent(runId)}/results${resultsQuery()}`);
      added = null;
    } catch (error) {
      if (!disposed && error.status === 422 && error.field === 'measures' && measures.length) {
        refused(error);
        load();
        return;
      }
      if (!disposed && lastKey === null) {
        replace(body);
        loadFailed(body, error, '#/runs', 'Back to the runs');
      }
      if (!disposed && error.status !== 404) {
        timer = setTimeout(load, 5000);
      }
      return;
    }
    let correlation = null;
    try {
      correlation = await api(`/api/runs/${encodeURIComponent(runId)}/correlation`);
    } catch (error) {
      // A trace CSV that cannot be read: the message says which line; the results still show.
      correlation = { source: null, notes: [error.message] };
    }
    if (disposed) {
      return;
    }
    if (!picker.hasOffer()) {
      offerStatistics();
    }
    results.correlation = correlation;
    const key = JSON.stringify(results);
    if (key !== lastKey) {
      lastKey = key;
      render(results);
    }
    if (results.state === 'active') {
      timer = setTimeout(load, 5000);
    }
  }

  function render(results) {
    const series = results.configs.map((config, i) => ({ name: config.gpu_config, color: colorOf(i) }));
    const anything = results.configs.some((config) => config.kernels.length > 0);
    replace(body,
      h('div', { class: 'toolbar' },
        h('span', {}, 'Run state '), badge(results.state),
        h('span', {}, ' · trace '), h('a', { href: traceHref(results.trace_id) }, results.trace_id),
        h('span', { class: 'spacer' }),
        baselineChoice(results),
        fileLink(`/api/runs/${encodeURIComponent(runId)}/results.csv${resultsQuery()}`, `${runId}-results.csv`, 'Download CSV', { class: 'button', id: 'csv', download: `${runId}-results.csv` }),
        fileLink(`/api/runs/${encodeURIComponent(runId)}/results/sims.csv`, `${runId}-sims.csv`, 'Tidy CSV (pandas)', { class: 'button', id: 'sims-csv', download: `${runId}-sims.csv`, title: 'A row per sim and kernel, every numeric statistic a column' }),
        fileLink(`/api/runs/${encodeURIComponent(runId)}/results/get_stats.csv`, `${runId}-get_stats.csv`, 'get_stats.py CSV', { class: 'button', id: 'get-stats-csv', download: `${runId}-get_stats.csv`, title: 'Accel-Sim get_stats.py -k -K layout, for merge-stats.py and plot-get-stats.py' }),
        h('a', { class: 'button', href: compareHref([runId]), id: 'compare-link' }, 'Compare with another run'),
        h('a', { class: 'button', href: runHref(runId) }, 'Back to the run')),
      results.partial ? partialNote(results.progress) : null,
      h('p', { class: 'hint' }, 'Each number is the mean across a config’s succeeded replicas; whiskers run from the lowest to the highest replica, and each dot is one replica.'),
      h('p', { class: 'hint', id: 'spread-rule' }, `Speedups are against ${results.baseline} (baseline mean / config mean). ${results.spread_rule || ''}`),
      summaryTable(results, series),
      notes(results),
      sensitivitySection(results),
      measuresSection(results),
      anything
        ? [legend(series), scaleChoice(), METRICS.map((metric) => metricSection(metric, results, series, scale))]
        : h('p', { class: 'muted', id: 'no-results' }, results.state === 'active'
          ? 'No sim has finished a kernel yet, so there is nothing to chart.'
          : `No sim succeeded: the run is ${results.state}, so there is nothing to chart.`),
      results.correlation
        ? hardwareSection(results.correlation, (name) => results.configs.findIndex((config) => config.gpu_config === name))
        : null);
  }

  /** Absolute numbers from zero, or differences in percent that make small spreads visible. */
  function scaleChoice() {
    const option = (value, label) => h('label', { class: 'choice' },
      h('input', {
        type: 'radio', name: 'scale', value, checked: scale === value,
        onchange: () => {
          scale = value;
          body.querySelectorAll('figure.chart').forEach((figure) => figure.setScale(scale));
        },
      }),
      label);
    return h('fieldset', { class: 'scale' },
      h('legend', {}, 'Chart scale'),
      option('absolute', 'Absolute, from zero'),
      option('relative', 'Difference from the baseline, in %'));
  }

  /** Which config the others are compared with; choosing one reloads the results against it. */
  function baselineChoice(results) {
    const select = h('select', {
      id: 'baseline',
      onchange: () => {
        baseline = select.value;
        clearTimeout(timer);
        load();
      },
    }, results.configs.map((config) => h('option', { value: config.gpu_config, selected: config.gpu_config === results.baseline }, config.gpu_config)));
    return h('label', { class: 'choice' }, 'Baseline ', select);
  }

  load();
  return {
    dispose() {
      disposed = true;
      clearTimeout(timer);
    },
  };
}
