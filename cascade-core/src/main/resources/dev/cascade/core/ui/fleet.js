// The fleet view of a large run: one small cell per sim, grouped by config, coloured by state and
// marked with a glyph so the state reads without colour too. Only the cells of sims that changed
// are touched; the run screen calls `update` once per animation frame with those sims.

import { h, replace, setText } from './dom.js';
import { count, duration, dateTime, plural } from './format.js';
import { isFinished } from './model.js';

/** Runs with more sims than this open on the fleet view; smaller ones on the cards. */
export const FLEET_ABOVE = 16;

/** The states in the order the legend and the filter list them, with the glyph of each. */
export const STATES = [
  ['pending', '·'],
  ['launching', '↑'],
  ['running', '▶'],
  ['lost', '!'],
  ['succeeded', '✓'],
  ['failed', '✗'],
  ['cancelled', '–'],
];
const GLYPH = new Map(STATES);

/** What a cell's tooltip and accessible name say of one sim. */
export function cellLabel(sim, kernelTotal, now = Date.now()) {
  const total = sim.kernels_total ?? kernelTotal ?? null;
  const parts = [`${sim.gpu_config} · replica ${sim.replica}${(sim.attempt ?? 1) > 1 ? ` · attempt ${sim.attempt}` : ''}`,
    sim.state,
    `kernels ${count(sim.kernels_done ?? 0)} / ${total === null ? '?' : count(total)}`];
  if (sim.state === 'pending' && sim.queue_position) {
    parts.push(`#${sim.queue_position} in the queue`);
  }
  if (!isFinished(sim.state) && sim.eta) {
    const left = (Date.parse(sim.eta) - now) / 1000;
    parts.push(`${left > 0 ? `done in about ${duration(left)}` : 'done any moment'} (${dateTime(sim.eta)})`);
  }
  return parts.join(', ');
}

/** `3 running, 61 succeeded`: the counts of `byState` in the legend's order, zeros left out. */
export function countsText(byState) {
  return STATES.filter(([state]) => byState.get(state)).map(([state]) => `${byState.get(state)} ${state}`).join(', ');
}

/**
 * Builds the view. `onOpen(simId)` is called when a cell is chosen; `kernelTotal` is the trace's
 * kernel count, for sims that do not say theirs yet.
 */
export function createFleet({ onOpen, kernelTotal = null }) {
  const cells = new Map(); // config#replica -> { el, sim, key, state }
  const groups = new Map(); // config -> { root, list, heading, byState, done, total, dirty }
  const totals = new Map(); // state -> count over the run
  const filter = { state: '', config: '' };
  const stats = { frames: 0, simsApplied: 0, cellsTouched: 0, updateMs: 0, maxUpdateMs: 0, firstRenderMs: null, firstPaintMs: null };
  window.__cascadeFleet = stats;

  const stateSelect = h('select', { id: 'fleet-state', 'aria-controls': 'fleet-groups' },
    h('option', { value: '' }, 'All states'), STATES.map(([state]) => h('option', { value: state }, state)));
  const configSelect = h('select', { id: 'fleet-config', 'aria-controls': 'fleet-groups' }, h('option', { value: '' }, 'All configs'));
  const shownText = h('span', { class: 'muted small fleet-shown', role: 'status' });
  const legend = h('ul', { class: 'fleet-legend', 'aria-label': 'Legend: sims by state' });
  const legendCounts = new Map();
  for (const [state, glyph] of STATES) {
    const n = h('span', { class: 'legend-count' });
    legendCounts.set(state, n);
    legend.append(h('li', { dataset: { state } }, h('span', { class: 'fleet-cell', dataset: { state }, 'aria-hidden': 'true' }, glyph), ` ${state} `, n));
  }
  const groupsBox = h('div', { class: 'fleet-groups', id: 'fleet-groups' });
  const root = h('section', { class: 'fleet', 'aria-label': 'Fleet: one cell per sim' },
    h('div', { class: 'fleet-filters' },
      h('label', { for: 'fleet-state' }, 'State '), stateSelect,
      h('label', { for: 'fleet-config' }, 'Config '), configSelect,
      shownText),
    legend,
    groupsBox);

  stateSelect.addEventListener('change', () => { filter.state = stateSelect.value; applyFilter(); });
  configSelect.addEventListener('change', () => { filter.config = configSelect.value; applyFilter(); });
  groupsBox.addEventListener('click', (event) => {
    const cell = event.target.closest('.fleet-cell');
    if (cell && cell.dataset.simId) {
      for (const other of groupsBox.querySelectorAll('.fleet-cell[aria-pressed="true"]')) {
        other.setAttribute('aria-pressed', 'false');
      }
      cell.setAttribute('aria-pressed', 'true');
      onOpen(cell.dataset.simId);
    }
  });

  function group(config) {
    let g = groups.get(config);
    if (!g) {
      const heading = h('h3', { class: 'fleet-group-title' });
      const list = h('ol', { class: 'fleet-cells', 'aria-label': `Sims on ${config}` });
      g = { root: h('div', { class: 'fleet-group', dataset: { config } }, heading, list), list, heading, byState: new Map(), done: 0, total: 0, sims: 0, dirty: true, config };
      groups.set(config, g);
      groupsBox.append(g.root);
      configSelect.append(h('option', { value: config }, config));
    }
    return g;
  }

  function shows(state, config) {
    return (!filter.state || filter.state === state) && (!filter.config || filter.config === config);
  }

  function applyFilter() {
    for (const cell of cells.values()) {
      cell.el.hidden = !shows(cell.state, cell.sim.gpu_config);
    }
    for (const g of groups.values()) {
      g.root.hidden = (filter.config && filter.config !== g.config) || (filter.state && !g.byState.get(filter.state));
    }
    renderShown();
  }

  function renderShown() {
    let shown = 0;
    for (const cell of cells.values()) {
      shown += shows(cell.state, cell.sim.gpu_config) ? 1 : 0;
    }
    setText(shownText, filter.state || filter.config ? `Showing ${shown} of ${plural(cells.size, 'sim')}` : `${plural(cells.size, 'sim')}`);
  }

  function move(map, state, by) {
    map.set(state, (map.get(state) || 0) + by);
  }

  /** Applies the sims that changed since the last call; the others are not looked at. */
  function update(changed) {
    const start = performance.now();
    const first = cells.size === 0;
    let touched = 0;
    let applied = 0;
    for (const sim of changed) {
      applied += 1;
      const slot = `${sim.gpu_config}#${sim.replica}`;
      let cell = cells.get(slot);
      if (cell && (cell.sim.attempt ?? 1) > (sim.attempt ?? 1)) {
        continue; // an older attempt of a sim that was retried
      }
      const g = group(sim.gpu_config);
      const total = sim.kernels_total ?? kernelTotal ?? 0;
      const done = sim.kernels_done ?? 0;
      const key = `${sim.id}|${sim.state}|${done}|${total}|${sim.queue_position ?? ''}|${sim.eta ?? ''}`;
      if (cell && cell.key === key) {
        continue;
      }
      touched += 1;
      if (!cell) {
        cell = { el: h('li', { class: 'fleet-item' }), button: h('button', { type: 'button', class: 'fleet-cell', 'aria-pressed': 'false' }), state: null, done: 0, total: 0 };
        cell.el.append(cell.button);
        cells.set(slot, cell);
        g.list.append(cell.el);
        g.sims += 1;
      } else {
        move(g.byState, cell.state, -1);
        move(totals, cell.state, -1);
      }
      g.done += done - cell.done;
      g.total += total - cell.total;
      move(g.byState, sim.state, 1);
      move(totals, sim.state, 1);
      cell.sim = sim;
      cell.key = key;
      cell.state = sim.state;
      cell.done = done;
      cell.total = total;
      g.dirty = true;
      const b = cell.button;
      b.dataset.simId = sim.id;
      b.dataset.state = sim.state;
      b.textContent = GLYPH.get(sim.state) || '?';
      b.style.setProperty('--done', total ? String(Math.min(1, done / total)) : '0');
      const label = cellLabel(sim, kernelTotal);
      b.title = label;
      b.setAttribute('aria-label', label);
      cell.el.hidden = !shows(sim.state, sim.gpu_config);
    }
    if (touched > 0) {
      for (const g of groups.values()) {
        if (g.dirty) {
          g.dirty = false;
          setText(g.heading, `${g.config}: ${plural(g.sims, 'sim')} (${countsText(g.byState)}), kernels ${count(g.done)} / ${count(g.total)}`);
        }
      }
      for (const [state, n] of legendCounts) {
        setText(n, `(${totals.get(state) || 0})`);
      }
      if (filter.state || filter.config) {
        applyFilter();
      } else {
        renderShown();
      }
    }
    const elapsed = performance.now() - start;
    stats.frames += 1;
    stats.simsApplied += applied;
    stats.cellsTouched += touched;
    if (first && touched > 0) {
      stats.firstRenderMs = elapsed;
      performance.mark('fleet-first-render');
      // The frame after this one has been painted: the first paint of every cell.
      requestAnimationFrame(() => setTimeout(() => {
        stats.firstPaintMs = performance.now() - start;
        performance.mark('fleet-first-paint');
      }, 0));
    } else {
      stats.updateMs += elapsed;
      stats.maxUpdateMs = Math.max(stats.maxUpdateMs, elapsed);
    }
  }

  return { root, update };
}

/**
 * The run screen's choice between the fleet view, with the card of the sim chosen on it, and every
 * sim's card. `cardOf(id)` gives a sim's card element (made on first use), `refresh(ids)` asks for
 * those sims to be drawn again, `kernelTotal()` is the trace's kernel count once known.
 */
export function fleetSwitch({ sims, cardsList, cardOf, kernelTotal, refresh }) {
  const box = h('div', { class: 'fleet-box', hidden: true });
  const button = h('button', { type: 'button', class: 'mode-toggle', id: 'fleet-toggle', hidden: true });
  let fleet = null;
  let on = false;
  let open = null;
  button.addEventListener('click', () => set(!on));

  function set(useFleet) {
    on = useFleet;
    button.hidden = false;
    button.textContent = useFleet ? 'Show every card' : 'Show the fleet';
    if (useFleet && !fleet) {
      fleet = createFleet({ onOpen: openCard, kernelTotal: kernelTotal() });
      box.append(fleet.root);
    }
    box.hidden = !useFleet;
    replace(cardsList, useFleet ? (open ? cardOf(open) : null) : [...sims.keys()].map(cardOf));
    refresh([...sims.keys()]);
  }

  function openCard(simId) {
    open = simId;
    replace(cardsList, cardOf(simId));
    refresh([simId]);
  }

  return {
    box,
    button,
    set,
    /** Whether sim `id`'s card is on the page (every card, or only the chosen one on the fleet). */
    showsCard: (id) => !on || id === open,
    /** Applies the sims that changed to the fleet view while it is shown. */
    update(changed) {
      if (on) {
        fleet.update(changed);
      }
    },
  };
}
