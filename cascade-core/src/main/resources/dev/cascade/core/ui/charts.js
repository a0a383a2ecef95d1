// Bar charts in SVG, drawn here (no library): one bar per series in each group at the mean, a
// whisker from min to max, and a dot per replica, so the spread across replicas is visible.

import { h, s } from './dom.js';

/**
 * Series colours: dark enough for 3:1 against white (WCAG non-text contrast), told apart by
 * people with the common colour-vision deficiencies (after Okabe and Ito, darkened).
 */
export const PALETTE = ['#0072B2', '#C44E00', '#117733', '#882255', '#332288', '#8F6A00', '#AA4499', '#444444'];

export function colorOf(index) {
  return PALETTE[index % PALETTE.length];
}

const FONT = 12;
const BAR = 16;
const BAR_GAP = 4;
const GROUP_GAP = 14;
const LABEL = 18;
const AXIS = 22;
const VALUE_SPACE = 70;

/** Ticks at 1, 2 or 5 times a power of ten, covering 0 to `max`. */
export function niceTicks(max, wanted = 5) {
  if (!(max > 0)) {
    return { max: 1, ticks: [0, 1] };
  }
  const raw = max / wanted;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((candidate) => candidate >= raw);
  const top = Math.ceil(max / step) * step;
  const ticks = [];
  for (let v = 0; v <= top + step / 2; v += step) {
    ticks.push(Number(v.toPrecision(12)));
  }
  return { max: top, ticks };
}

function clip(text, width) {
  const chars = Math.max(4, Math.floor(width / (FONT * 0.58)));
  return text.length <= chars ? text : `${text.slice(0, chars - 1)}…`;
}

/**
 * A chart that fills its container's width and redraws when that changes.
 *
 * spec: { title, series: [{name, color}], groups: [{label, title, bars: [{series, spread,
 * detail}]}], format(value) }. A spread is { n, mean, min, max, values }; a bar with n = 0 says
 * "no succeeded replica".
 *
 * Scales: `absolute` draws from zero; `relative` draws each value as its difference, in percent,
 * from the baseline series' mean in its group (`spec.baseline`, an index into `series`; the
 * group's mean across series when there is none or it lacks the group), so small differences and
 * the spread across replicas show.
 * The figure's `setScale(scale)` switches between them.
 */
export function barChart(spec, scale = 'absolute') {
  const figure = h('figure', { class: 'chart' }, h('figcaption', {}, spec.title));
  const holder = h('div', { class: 'chart-svg' });
  figure.append(holder);
  let drawn = '';
  const draw = () => {
    const width = Math.max(260, Math.floor(holder.clientWidth || 600));
    if (drawn === `${width}/${scale}`) {
      return;
    }
    drawn = `${width}/${scale}`;
    holder.replaceChildren(svg(spec, width, scale === 'relative'));
  };
  figure.setScale = (next) => {
    scale = next;
    draw();
  };
  if (typeof ResizeObserver === 'function') {
    new ResizeObserver(draw).observe(holder);
  }
  // Draw once now too, so the chart exists even before layout.
  requestAnimationFrame(draw);
  return figure;
}

/** Each group's spreads as percent differences from the baseline's mean (else the group's mean). */
function relativeGroups(groups, baseline) {
  return groups.map((group) => {
    const base = group.bars.find((bar) => bar.series === baseline && bar.spread?.n > 0);
    const means = group.bars.filter((bar) => bar.spread?.n > 0).map((bar) => bar.spread.mean);
    const ref = base ? base.spread.mean : means.length ? means.reduce((a, b) => a + b, 0) / means.length : 0;
    const rel = (v) => (ref ? (v / ref - 1) * 100 : 0);
    return {
      ...group,
      bars: group.bars.map((bar) => (bar.spread?.n > 0
        ? {
          ...bar,
          shown: {
            n: bar.spread.n, mean: rel(bar.spread.mean), min: rel(bar.spread.min), max: rel(bar.spread.max),
            values: (bar.spread.values || []).map(rel),
          },
        }
        : bar)),
    };
  });
}

function percent(value) {
  const text = new Intl.NumberFormat('en-US', { maximumSignificantDigits: 2 }).format(Math.abs(value));
  return value > 0 ? `+${text}%` : value < 0 ? `−${text}%` : '0%';
}

function svg(spec, width, relative) {
  const plotWidth = width - VALUE_SPACE;
  const groups = relative ? relativeGroups(spec.groups, spec.baseline) : spec.groups.map((group) => ({
    ...group, bars: group.bars.map((bar) => ({ ...bar, shown: bar.spread })),
  }));
  const format = relative ? percent : spec.format;
  let height = AXIS;
  for (const group of groups) {
    height += LABEL + group.bars.length * (BAR + BAR_GAP) + GROUP_GAP;
  }
  const shown = groups.flatMap((g) => g.bars.filter((b) => b.shown?.n > 0).map((b) => b.shown));
  let lo = 0;
  let ticks;
  let hi;
  if (relative) {
    const widest = Math.max(1, ...shown.map((v) => Math.max(Math.abs(v.min), Math.abs(v.max))));
    const nice = niceTicks(widest, 2);
    hi = nice.max;
    lo = -hi;
    ticks = [...nice.ticks.slice(1).reverse().map((t) => -t), ...nice.ticks];
  } else {
    ({ max: hi, ticks } = niceTicks(Math.max(0, ...shown.map((v) => v.max))));
  }
  const x = (value) => ((Math.min(hi, Math.max(lo, value)) - lo) / (hi - lo)) * (plotWidth - 4) + 1;

  const against = spec.baseline >= 0 && spec.series[spec.baseline] ? spec.series[spec.baseline].name : "each group's mean";
  const title = relative ? `${spec.title}: difference from ${against}, %` : spec.title;
  const root = s('svg', {
    class: 'chart', width, height, viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': title,
  });
  root.append(s('title', {}, title));

  const axis = s('g', { class: 'axis', 'aria-hidden': 'true' });
  for (const tick of ticks) {
    const tx = x(tick);
    axis.append(
      s('line', { x1: tx, x2: tx, y1: AXIS - 4, y2: height - GROUP_GAP / 2, class: tick === 0 ? 'grid zero' : 'grid' }),
      s('text', { x: tx, y: AXIS - 8, 'text-anchor': tick === lo ? 'start' : 'middle', class: 'tick' }, format(tick)));
  }
  root.append(axis);

  let y = AXIS;
  for (const group of groups) {
    const g = s('g', { class: 'group' });
    g.append(s('text', { x: 0, y: y + LABEL - 5, class: 'group-label' },
      s('title', {}, group.title || group.label), clip(group.label, width)));
    y += LABEL;
    for (const bar of group.bars) {
      const series = spec.series[bar.series];
      const spread = bar.spread;
      const view = bar.shown;
      const mid = y + BAR / 2;
      const item = s('g', { class: 'bar-item' });
      if (!spread || spread.n === 0) {
        item.append(s('text', { x: 2, y: mid + 4, class: 'no-data' }, `${series.name}: no succeeded replica`));
      } else {
        const from = x(Math.min(0, view.mean));
        const to = x(Math.max(0, view.mean));
        item.append(
          s('title', {}, `${series.name}: mean ${spec.format(spread.mean)}, min ${spec.format(spread.min)}, max ${spec.format(spread.max)}, ${spread.n} replica${spread.n === 1 ? '' : 's'}${bar.detail ? ` (${bar.detail})` : ''}`),
          s('rect', { class: 'bar', x: from, y, width: Math.max(1, to - from), height: BAR, fill: series.color }),
          s('line', { class: 'whisker', x1: x(view.min), x2: x(view.max), y1: mid, y2: mid }),
          s('line', { class: 'whisker-cap', x1: x(view.min), x2: x(view.min), y1: mid - 5, y2: mid + 5 }),
          s('line', { class: 'whisker-cap', x1: x(view.max), x2: x(view.max), y1: mid - 5, y2: mid + 5 }),
          ...(view.values || []).map((value) => s('circle', { class: 'replica', cx: x(value), cy: mid, r: 3.5 })),
          s('text', { class: 'value', x: Math.max(x(view.max), to) + 8, y: mid + 4 }, format(view.mean)));
      }
      g.append(item);
      y += BAR + BAR_GAP;
    }
    y += GROUP_GAP;
    root.append(g);
  }
  return root;
}

/** The colour key shared by a page's charts. */
export function legend(series) {
  return h('ul', { class: 'legend', 'aria-label': 'Colours of the GPU configs' },
    series.map((item) => {
      const swatch = h('span', { class: 'swatch', 'aria-hidden': 'true' });
      swatch.style.backgroundColor = item.color;
      return h('li', {}, swatch, item.name);
    }),
    h('li', { class: 'legend-note' },
      h('span', { class: 'whisker-key', 'aria-hidden': 'true' }), 'min to max across replicas, ',
      h('span', { class: 'dot-key', 'aria-hidden': 'true' }), 'one replica'));
}
