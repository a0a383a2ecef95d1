// A log-log scatter in SVG, drawn here (no library): simulated against measured, one dot per
// kernel and series, with the y = x line a perfect simulator would sit on.

import { h, s } from './dom.js';

const SIZE = 360;
const PAD = { left: 64, right: 16, top: 12, bottom: 44 };

/** Powers of ten from below `lo` to above `hi`. */
function decades(lo, hi) {
  const first = Math.floor(Math.log10(lo));
  const last = Math.ceil(Math.log10(hi));
  const ticks = [];
  for (let e = first; e <= Math.max(last, first + 1); e += 1) {
    ticks.push(10 ** e);
  }
  return ticks;
}

function tickText(value) {
  return new Intl.NumberFormat('en-US', { notation: 'compact', maximumSignificantDigits: 3 }).format(value);
}

/**
 * spec: { title, xLabel, yLabel, series: [{ name, color, points: [{ x, y, label }] }] }. Points
 * with x or y not above 0 cannot sit on a log axis and are left out (and counted in the caption).
 */
export function logScatter(spec) {
  const all = spec.series.flatMap((series) => series.points);
  const shown = all.filter((p) => p.x > 0 && p.y > 0);
  const figure = h('figure', { class: 'chart scatter' }, h('figcaption', {}, spec.title));
  if (!shown.length) {
    figure.append(h('p', { class: 'muted' }, 'No kernel has both numbers to plot.'));
    return figure;
  }
  const lo = Math.min(...shown.flatMap((p) => [p.x, p.y]));
  const hi = Math.max(...shown.flatMap((p) => [p.x, p.y]));
  const ticks = decades(lo, hi);
  const min = Math.log10(ticks[0]);
  const max = Math.log10(ticks[ticks.length - 1]);
  const plot = SIZE - PAD.left - PAD.right;
  const x = (v) => PAD.left + ((Math.log10(v) - min) / (max - min)) * plot;
  const y = (v) => PAD.top + plot - ((Math.log10(v) - min) / (max - min)) * plot;
  const height = PAD.top + plot + PAD.bottom;
  const root = s('svg', {
    class: 'chart scatter', width: SIZE, height, viewBox: `0 0 ${SIZE} ${height}`, role: 'img',
    'aria-label': `${spec.title}: log-log, ${spec.yLabel} against ${spec.xLabel}`,
  });
  root.append(s('title', {}, spec.title));
  const axis = s('g', { class: 'axis', 'aria-hidden': 'true' });
  for (const tick of ticks) {
    axis.append(
      s('line', { class: 'grid', x1: x(tick), x2: x(tick), y1: PAD.top, y2: PAD.top + plot }),
      s('line', { class: 'grid', x1: PAD.left, x2: PAD.left + plot, y1: y(tick), y2: y(tick) }),
      s('text', { class: 'tick', x: x(tick), y: PAD.top + plot + 14, 'text-anchor': 'middle' }, tickText(tick)),
      s('text', { class: 'tick', x: PAD.left - 6, y: y(tick) + 4, 'text-anchor': 'end' }, tickText(tick)));
  }
  axis.append(
    s('text', { x: PAD.left + plot / 2, y: height - 6, 'text-anchor': 'middle' }, spec.xLabel),
    s('text', { x: 12, y: PAD.top + plot / 2, 'text-anchor': 'middle', transform: `rotate(-90 12 ${PAD.top + plot / 2})` }, spec.yLabel));
  root.append(axis);
  root.append(s('line', {
    class: 'diagonal', x1: x(ticks[0]), y1: y(ticks[0]), x2: x(ticks[ticks.length - 1]), y2: y(ticks[ticks.length - 1]),
  }));
  for (const series of spec.series) {
    for (const point of series.points) {
      if (point.x > 0 && point.y > 0) {
        const dot = s('circle', { class: 'point', cx: x(point.x), cy: y(point.y), r: 5, fill: series.color, dataset: { series: series.name } });
        dot.append(s('title', {}, `${series.name} · ${point.label}: measured ${tickText(point.x)}, simulated ${tickText(point.y)}`));
        root.append(dot);
      }
    }
  }
  figure.append(h('div', { class: 'chart-svg' }, root));
  if (shown.length < all.length) {
    figure.append(h('p', { class: 'muted small' }, `${all.length - shown.length} kernel(s) without both numbers are not plotted.`));
  }
  return figure;
}
