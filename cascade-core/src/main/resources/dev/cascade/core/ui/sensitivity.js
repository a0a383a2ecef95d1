// The sensitivity view of a sweep (on the results screen): how a measure moves with each swept
// parameter, for the whole trace or one kernel, with the spread across replicas. One swept
// parameter gives a row per value with a bar; two give a grid, one parameter down, one across.

import { h, replace } from './dom.js';
import { count, number } from './format.js';

const MEASURES = [
  { key: 'cycles', title: 'Cycles', format: count },
  { key: 'ipc', title: 'IPC', format: (v) => number(v, 4) },
  { key: 'simulated_time_us', title: 'Simulated time (µs)', format: (v) => number(v, 5) },
];

/** The parameters whose values differ between the run's variants, each with its values in order. */
export function sweptParameters(configs) {
  const variants = configs.filter((config) => config.params && Object.keys(config.params).length);
  if (variants.length < 2) {
    return [];
  }
  const names = [...new Set(variants.flatMap((config) => Object.keys(config.params)))];
  return names
    .map((name) => ({ name, values: ordered([...new Set(variants.map((config) => config.params[name]).filter((v) => v !== undefined))]) }))
    .filter((param) => param.values.length > 1);
}

function ordered(values) {
  return values.every((v) => v !== '' && !Number.isNaN(Number(v)))
    ? values.sort((a, b) => Number(a) - Number(b))
    : values;
}

function spreadText(spread, format) {
  if (!spread || !spread.n) {
    return '—';
  }
  const range = spread.n > 1 ? ` [${format(spread.min)}..${format(spread.max)}]` : '';
  return `${format(spread.mean)}${spread.n > 1 ? ` ± ${number(spread.stdev, 3)}` : ''}${range} (n=${spread.n})`;
}

/** The section, or null when the run is no sweep (fewer than two variants differing in a parameter). */
export function sensitivitySection(results) {
  const swept = sweptParameters(results.configs);
  if (!swept.length) {
    return null;
  }
  const variants = results.configs.filter((config) => config.params && Object.keys(config.params).length);
  const kernels = [];
  for (const config of variants) {
    for (const kernel of config.kernels || []) {
      const key = `${kernel.name}#${kernel.instance}`;
      if (!kernels.some((k) => k.key === key)) {
        kernels.push({ key, label: (kernel.readable_name || kernel.name) + (kernel.instance > 0 ? ` #${kernel.instance}` : '') });
      }
    }
  }
  const measure = h('select', { id: 'sensitivity-measure' }, MEASURES.map((m) => h('option', { value: m.key }, m.title)));
  const kernel = h('select', { id: 'sensitivity-kernel' },
    h('option', { value: '' }, 'All kernels'), kernels.map((k) => h('option', { value: k.key }, k.label)));
  const view = h('div', { class: 'scroll', id: 'sensitivity-view' });

  function itemOf(config) {
    if (!kernel.value) {
      return config.total;
    }
    return (config.kernels || []).find((k) => `${k.name}#${k.instance}` === kernel.value);
  }

  function variantAt(assignment) {
    return variants.find((config) => Object.entries(assignment).every(([name, value]) => config.params[name] === value));
  }

  function draw() {
    const m = MEASURES.find((x) => x.key === measure.value);
    const spreadOf = (assignment) => {
      const config = variantAt(assignment);
      const item = config ? itemOf(config) : null;
      return item ? item[m.key] : null;
    };
    if (swept.length === 1) {
      const [param] = swept;
      const spreads = param.values.map((value) => spreadOf({ [param.name]: value }));
      const max = Math.max(...spreads.map((s) => (s && s.n ? s.max : 0)), 0);
      replace(view, h('table', { class: 'list numbers sensitivity', 'data-shape': 'line' },
        h('caption', {}, `${m.title} against ${param.name}: mean ± stdev [min..max] across replicas`),
        h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, param.name), h('th', { scope: 'col', class: 'num' }, m.title), h('th', { scope: 'col' }, h('span', { class: 'visually-hidden' }, 'Bar')))),
        h('tbody', {}, param.values.map((value, i) => {
          const spread = spreads[i];
          const bar = h('span', { class: 'bar', 'aria-hidden': 'true' });
          bar.style.width = spread && spread.n && max > 0 ? `${(100 * spread.mean) / max}%` : '0';
          return h('tr', { dataset: { value } },
            h('th', { scope: 'row' }, value),
            h('td', { class: 'num' }, spreadText(spread, m.format)),
            h('td', { class: 'bar-cell' }, bar));
        }))));
      return;
    }
    const [down, across] = swept;
    replace(view, h('table', { class: 'list numbers sensitivity', 'data-shape': 'grid' },
      h('caption', {}, `${m.title}: ${down.name} down, ${across.name} across; mean ± stdev [min..max] across replicas`
        + (swept.length > 2 ? ` (other swept parameters: ${swept.slice(2).map((p) => p.name).join(', ')}, first value)` : '')),
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, `${down.name} \\ ${across.name}`),
        across.values.map((value) => h('th', { scope: 'col', class: 'num' }, value)))),
      h('tbody', {}, down.values.map((row) => h('tr', { dataset: { value: row } },
        h('th', { scope: 'row' }, row),
        across.values.map((col) => {
          const assignment = { [down.name]: row, [across.name]: col };
          for (const other of swept.slice(2)) {
            assignment[other.name] = other.values[0];
          }
          return h('td', { class: 'num' }, spreadText(spreadOf(assignment), m.format));
        }))))));
  }

  measure.addEventListener('change', draw);
  kernel.addEventListener('change', draw);
  draw();
  return h('section', { class: 'sensitivity', id: 'sensitivity', 'aria-labelledby': 'sensitivity-title' },
    h('h2', { id: 'sensitivity-title' }, 'Sensitivity'),
    h('p', { class: 'hint' }, `How a measure moves with the swept ${swept.length === 1 ? 'parameter' : 'parameters'}: ${swept.map((p) => p.name).join(', ')}.`),
    h('div', { class: 'sensitivity-pickers' },
      h('label', { for: 'sensitivity-measure' }, 'Measure ', measure),
      h('label', { for: 'sensitivity-kernel' }, 'Kernel ', kernel)),
    view);
}
