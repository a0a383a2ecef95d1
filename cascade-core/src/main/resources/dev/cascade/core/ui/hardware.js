// The results' "Against the hardware" part: per config of the trace's architecture, how its
// simulated kernels follow what Nsight Compute measured (paired by launch order): the figures
// Accel-Sim's plot-correlation.py reports, log-log scatters, and the kernels as a table.

import { h, cell } from './dom.js';
import { count, number } from './format.js';
import { colorOf } from './charts.js';
import { logScatter } from './scatter.js';

function pct(value) {
  return value === null || value === undefined ? '—' : `${value > 0 ? '+' : ''}${number(value, 3)}%`;
}

function fitText(fit) {
  if (!fit) {
    return '—';
  }
  const r = fit.correlation === null ? 'n/a' : number(fit.correlation, 4);
  return `correlation ${r} · MAE ${number(fit.mean_abs_error_pct, 3)}% · aggregate error ${number(fit.aggregate_error_pct, 3)}% · NRMSE ${number(fit.nrmse, 3)} (${fit.n} kernels)`;
}

function kernelLabel(kernel, index) {
  return `${index + 1}. ${kernel.readable_name || kernel.name}${kernel.instance > 0 ? `#${kernel.instance}` : ''}`;
}

/** The section, or a hint saying how to add the hardware's numbers when the trace has none. */
export function hardwareSection(correlation, colorIndexOf) {
  const notes = (correlation.notes || []).map((note) => h('li', {}, note));
  if (!correlation.source) {
    return h('section', { class: 'hardware', id: 'hardware', 'aria-labelledby': 'hardware-title' },
      h('h2', { id: 'hardware-title' }, 'Against the hardware'),
      h('ul', { class: 'notes' }, notes));
  }
  const configs = correlation.configs || [];
  const series = (key, measured, simulated) => configs.map((config) => ({
    name: config.gpu_config,
    color: colorOf(colorIndexOf(config.gpu_config)),
    points: config.kernels.map((kernel, i) => ({ x: kernel[measured], y: kernel[simulated], label: kernelLabel(kernel, i) })),
  }));
  return h('section', { class: 'hardware', id: 'hardware', 'aria-labelledby': 'hardware-title' },
    h('h2', { id: 'hardware-title' }, 'Against the hardware'),
    h('p', { class: 'hint' }, `${correlation.measured_kernels} kernel launches measured on the ${correlation.trace_arch} GPU the trace was captured on (${correlation.source}), paired with the simulated ones by launch order. ${correlation.formulas}`),
    notes.length ? h('ul', { class: 'notes' }, notes) : null,
    configs.map((config) => h('div', { class: 'fit', dataset: { config: config.gpu_config } },
      h('h3', {}, config.gpu_config),
      h('p', { class: 'fit-cycles' }, h('strong', {}, 'Cycles: '), fitText(config.cycles)),
      h('p', { class: 'fit-time' }, h('strong', {}, 'Time: '), fitText(config.time)),
      (config.notes || []).length ? h('ul', { class: 'notes' }, config.notes.map((note) => h('li', {}, note))) : null)),
    h('div', { class: 'scatter-pair' },
      logScatter({ title: 'Cycles: simulated against measured (gpc__cycles_elapsed.max)', xLabel: 'measured cycles', yLabel: 'simulated cycles', series: series('cycles', 'measured_cycles', 'simulated_cycles') }),
      logScatter({ title: 'Time: simulated against measured (gpu__time_duration.sum)', xLabel: 'measured µs', yLabel: 'simulated µs', series: series('time', 'measured_time_us', 'simulated_time_us') })),
    h('details', {}, h('summary', {}, 'Kernels against the hardware, as numbers'),
      h('div', { class: 'scroll' }, h('table', { class: 'list numbers hardware-kernels' },
        h('thead', {}, h('tr', {}, ['Kernel', 'Config', 'Measured cycles', 'Simulated cycles', 'Error', 'Measured time', 'Simulated time', 'Error'].map((label, i) =>
          h('th', { scope: 'col', class: i > 1 ? 'num' : null }, label)))),
        h('tbody', {}, configs.flatMap((config) => config.kernels.map((kernel, i) => h('tr', {},
          cell('td', { 'data-label': 'Kernel', class: 'kernel-name', title: `${kernel.name} · ncu: ${kernel.measured_name}` }, kernelLabel(kernel, i)),
          cell('td', { 'data-label': 'Config' }, config.gpu_config),
          cell('td', { 'data-label': 'Measured cycles', class: 'num' }, kernel.measured_cycles === null ? '—' : count(kernel.measured_cycles)),
          cell('td', { 'data-label': 'Simulated cycles', class: 'num' }, count(kernel.simulated_cycles)),
          cell('td', { 'data-label': 'Error', class: 'num' }, pct(kernel.cycles_error_pct)),
          cell('td', { 'data-label': 'Measured time', class: 'num' }, kernel.measured_time_us === null ? '—' : `${number(kernel.measured_time_us, 4)} µs`),
          cell('td', { 'data-label': 'Simulated time', class: 'num' }, kernel.simulated_time_us === null ? '—' : `${number(kernel.simulated_time_us, 4)} µs`),
          cell('td', { 'data-label': 'Error', class: 'num' }, pct(kernel.time_error_pct))))))))));
}
