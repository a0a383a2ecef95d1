// Measures beyond the four defaults on the results page: the picker (a statistic's name, offered
// from the ones the run's kernels printed, chosen ones as removable chips, kept in the address's
// `?measures=`), and how a measure's spread and its change from the baseline read in a table.
// Which measures exist is the server's word: the columns follow the results' `measures` list.

import { h, replace, cell } from './dom.js';
import { count, number } from './format.js';

/** The measure names in a results address's query (`measures=a,b`), in order, once each. */
export function measuresOf(query) {
  const text = new URLSearchParams(query || '').get('measures') || '';
  return [...new Set(text.split(',').map((name) => name.trim()).filter(Boolean))];
}

/** `?measures=a,b` for a list of names, or '' for none. */
export function measuresQuery(names) {
  return names.length ? `measures=${names.map(encodeURIComponent).join(',')}` : '';
}

/** The results' measures that are not defaults, in the server's order. */
export function extraMeasures(results) {
  return (results.measures || []).filter((measure) => !measure.default);
}

function wholeNumbers(spread) {
  return (spread.values || [spread.mean]).every((value) => Number.isInteger(value));
}

/**
 * A measure's spread for people: its mean, then, when replicas differ, "± stdev [min..max]";
 * "(all n agree)" when several replicas gave exactly the same number; "—" with no replica.
 */
export function spreadText(spread) {
  if (!spread || !spread.n) {
    return '—';
  }
  const format = wholeNumbers(spread) ? count : (v) => number(v, 4);
  if (spread.n > 1 && spread.min !== spread.max) {
    return `${format(spread.mean)} ± ${number(spread.stdev, 3)} [${format(spread.min)}..${format(spread.max)}]`;
  }
  return spread.n > 1 ? `${format(spread.mean)} (all ${spread.n} agree)` : format(spread.mean);
}

/** A change from the baseline: "1.00× same within spread", "0.93× lower, better", "—". */
export function changeText(change) {
  if (!change) {
    return '—';
  }
  const ratio = change.ratio === null || change.ratio === undefined ? '' : `${change.ratio.toFixed(2)}× `;
  const verdict = change.verdict && change.verdict !== 'same_within_spread' ? `, ${change.verdict}` : '';
  return `${ratio}${change.direction.replaceAll('_', ' ')}${verdict}`;
}

/** The two header cells of a measure: its spread and its change, titled with what it counts. */
export function measureHeaders(measure) {
  const name = measure.unit ? `${measure.label} (${measure.unit})` : measure.label;
  return [
    h('th', { scope: 'col', class: 'num measure', title: measure.counts, dataset: { measure: measure.id } }, name),
    h('th', { scope: 'col', class: 'num measure', title: `${measure.label} against the baseline: this mean / the baseline's mean, and whether the replica ranges overlap`, dataset: { measureChange: measure.id } }, `${measure.label} vs baseline`),
  ];
}

/** The two cells of a measure in a row (a kernel's or a total), the baseline's change read "baseline". */
export function measureCells(measure, row, isBaseline) {
  const spread = row?.[measure.id];
  const change = row?.versus_baseline?.[measure.id] ?? null;
  const detail = spread && spread.values ? spread.values.map((value) => number(value, 6)).join(', ') : null;
  return [
    cell('td', { 'data-label': measure.label, class: 'num measure', title: detail ? `replicas: ${detail}` : null, dataset: { measure: measure.id } }, spreadText(spread)),
    cell('td', {
      'data-label': `${measure.label} vs baseline`,
      class: ['num', 'measure-change', change?.verdict],
      title: change ? `this mean / the baseline's = ${change.ratio === null ? '—' : number(change.ratio, 4)}; difference ${number(change.difference, 4)}` : null,
      dataset: { measureChange: measure.id, verdict: change?.verdict || '' },
    }, isBaseline ? 'baseline' : changeText(change)),
  ];
}

/** What each extra measure counts, as the server says, under its table. */
export function measureNotes(measures) {
  return measures.length
    ? h('dl', { class: 'measure-notes small' }, measures.flatMap((measure) => [
      h('dt', {}, h('code', {}, measure.id)),
      h('dd', {}, measure.counts || ''),
    ]))
    : null;
}

/**
 * The picker: a name input offering `statistics` (set later with `offer`), Add, and a chip per
 * chosen name with a remove button. `onChange(names, added)` is called with the new list (and the
 * name just added, if any); `showError(message)` puts a refusal next to the input.
 */
export function measurePicker(chosen, onChange) {
  const listId = 'measure-statistics';
  const datalist = h('datalist', { id: listId });
  const error = h('p', { class: 'field-error', id: 'measure-error', role: 'alert', hidden: true });
  const input = h('input', {
    id: 'measure-name', type: 'text', list: listId, autocomplete: 'off', spellcheck: 'false',
    placeholder: 'a statistic’s name', 'aria-describedby': 'measure-help measure-error',
  });
  const chips = h('ul', { class: 'chips', id: 'measure-chips', 'aria-label': 'Chosen measures' });
  const help = h('p', { class: 'hint', id: 'measure-help' },
    'Any statistic the simulator printed in a kernel’s block, by its own name; NAME:change for a running total’s change per kernel, NAME:sum, :mean, :max or :last for how the whole trace is made.');
  let names = [...chosen];

  function drawChips() {
    replace(chips, names.map((name) => h('li', { class: 'chip', dataset: { measure: name } },
      h('code', {}, name),
      h('button', {
        type: 'button', class: 'chip-remove', 'aria-label': `Remove ${name}`, title: `Remove ${name}`,
        onclick: () => {
          names = names.filter((other) => other !== name);
          drawChips();
          clearError();
          onChange(names, null);
          input.focus();
        },
      }, '×'))));
  }

  function clearError() {
    error.hidden = true;
    error.textContent = '';
    input.removeAttribute('aria-invalid');
  }

  const form = h('form', {
    class: 'measure-picker', id: 'measure-picker',
    onsubmit: (event) => {
      event.preventDefault();
      const name = input.value.trim();
      if (!name) {
        return;
      }
      clearError();
      if (!names.includes(name)) {
        names = [...names, name];
        drawChips();
        onChange(names, name);
      }
      input.value = '';
    },
  },
  h('div', { class: 'measure-row' },
    h('label', { for: 'measure-name' }, 'Also compare'),
    input, datalist,
    h('button', { type: 'submit', id: 'measure-add' }, 'Add'),
    chips),
  error, help);
  drawChips();

  return {
    element: form,
    /** Offers these statistic names in the input's list. */
    offer(statistics) {
      replace(datalist, statistics.map((name) => h('option', { value: name })));
    },
    /** The chosen names now (after a refused one was taken back). */
    set(list) {
      names = [...list];
      drawChips();
    },
    /** Shows the server's refusal next to the input; `rejected` goes back into the input. */
    showError(message, rejected) {
      error.textContent = message;
      error.hidden = false;
      input.setAttribute('aria-invalid', 'true');
      if (rejected) {
        input.value = rejected;
      }
    },
    hasOffer() {
      return datalist.childElementCount > 0;
    },
  };
}
