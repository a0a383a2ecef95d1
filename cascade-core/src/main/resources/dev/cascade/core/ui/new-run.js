// New run (#/traces/{id}/new-run): a row per GPU config with its count, the trace's suggestion
// preselected, other architectures disabled with the reason, and the server's refusals shown
// next to the field they name.

import { api, ApiError } from './api.js';
import { h, replace } from './dom.js';
import { count, duration, number, plural } from './format.js';
import { configRefusal, preselectedConfig } from './model.js';
import { loadFailed, problem } from './screen.js';
import { traceHref } from './traces.js';
import { runHref } from './run.js';

const MAX_COUNT = 64;

export function renderNewRun(main, traceId) {
  document.title = `New run of ${traceId} · Cascade`;
  const body = h('div', {}, h('p', { class: 'muted', role: 'status' }, 'Loading the trace and the GPU configs…'));
  main.append(
    h('p', { class: 'crumbs' }, h('a', { href: '#/traces' }, 'Traces'), ' / ', h('a', { href: traceHref(traceId) }, traceId), ' / '),
    h('h1', {}, 'New run'),
    body,
  );
  let disposed = false;
  (async () => {
    try {
      const [trace, catalog, simulator] = await Promise.all([
        api(`/api/traces/${encodeURIComponent(traceId)}`),
        api('/api/gpu-configs'),
        api('/api/simulator').catch(() => null), // the form works without its pace note
      ]);
      if (!disposed) {
        replace(body, trace.runnable ? form(trace, catalog.gpu_configs, simulator) : notRunnable(trace));
      }
    } catch (error) {
      if (!disposed) {
        replace(body);
        loadFailed(body, error, '#/traces', 'Back to the traces');
      }
    }
  })();
  return {
    dispose() {
      disposed = true;
    },
  };
}

function notRunnable(trace) {
  const why = trace.sample
    ? `${trace.id} is a sample: samples can be browsed but never run.`
    : `${trace.id} is ${trace.state}; runs can start once it is ready.`;
  return h('div', { class: 'error-box', role: 'alert' },
    h('p', {}, why),
    trace.state === 'failed' && trace.reason ? h('p', {}, `Why it failed: ${trace.reason}`) : null,
    h('p', {}, h('a', { href: traceHref(trace.id) }, 'Back to the trace')));
}

function traceFacts(trace) {
  return h('p', { class: 'lede' },
    h('strong', {}, trace.id), ` · ${trace.trace_gpu_arch || 'sm_90'} · ${plural(trace.kernel_count ?? 0, 'kernel')}`,
    trace.model_name ? ` · ${trace.model_name}` : '',
    (trace.traced_layers || []).length ? ` · ${trace.traced_layers.join(', ')}` : '');
}

/**
 * What the sims run and at what pace (GET /api/simulator), and for the emulator what `sims` of a
 * trace the size of the demo take.
 */
export function paceText(simulator, sims) {
  if (!simulator) {
    return '';
  }
  if (simulator.runs === 'emulator' && simulator.cycles_per_second > 0 && sims > 0) {
    return `${simulator.note} This run: ${plural(sims, 'sim')}, about ${duration(Math.max(1, Math.round(sims * simulator.demo_sim_seconds)))} of simulating for a trace the size of the demo, a few sims at a time.`;
  }
  return simulator.note;
}

function form(trace, configs, simulator) {
  const preselected = preselectedConfig(trace, configs);
  const allowed = configs.filter((config) => configRefusal(trace, config) === null);
  const refused = configs.filter((config) => configRefusal(trace, config) !== null);
  const rows = [];

  const formError = h('div', { class: 'form-error', role: 'alert', hidden: true, id: 'form-error' });
  const pace = h('p', { class: 'hint', id: 'pace-note', 'aria-live': 'polite' });
  const entriesError = h('p', { class: 'field-error', id: 'entries-error', hidden: true });
  const submit = h('button', { type: 'submit', class: 'primary', id: 'launch' });
  const owner = h('input', { type: 'text', id: 'run-owner', name: 'owner', maxlength: 64, placeholder: 'local', 'aria-describedby': 'queue-hint' });
  const priority = h('input', { type: 'number', id: 'run-priority', name: 'priority', min: -1000, max: 1000, step: 1, value: 0, inputmode: 'numeric', class: 'count', 'aria-describedby': 'queue-hint' });
  const timeLimit = h('input', { type: 'text', id: 'run-time-limit', name: 'time_limit', placeholder: 'none, or 30m, 2h', 'aria-describedby': 'queue-hint' });
  const paramsInput = h('textarea', {
    id: 'run-params', name: 'params', rows: 3, spellcheck: 'false',
    placeholder: '-gpgpu_n_clusters=66,132', 'aria-describedby': 'params-hint params-error',
  });
  const paramsError = h('p', { class: 'field-error', id: 'params-error', hidden: true });

  function configRow(config, index, refusal) {
    const id = `cfg-${index}`;
    const row = {
      config,
      use: h('input', {
        type: 'checkbox', id: `${id}-use`, name: 'use', value: config.name,
        checked: refusal === null && config.name === preselected,
        disabled: refusal !== null,
        'aria-describedby': refusal !== null ? `${id}-reason` : null,
      }),
      count: h('input', {
        type: 'number', id: `${id}-count`, name: 'count', min: 1, max: MAX_COUNT, step: 1, value: 1,
        inputmode: 'numeric', disabled: refusal !== null, class: 'count',
        'aria-describedby': `${id}-count-error count-hint`,
      }),
      configError: h('p', { class: 'field-error', id: `${id}-config-error`, hidden: true }),
      countError: h('p', { class: 'field-error', id: `${id}-count-error`, hidden: true }),
    };
    row.use.setAttribute('aria-describedby', [row.use.getAttribute('aria-describedby'), `${id}-config-error`].filter(Boolean).join(' '));
    row.tr = h('tr', { class: refusal !== null ? 'disabled' : null, dataset: { config: config.name } },
      h('td', { class: 'use' }, row.use),
      h('th', { scope: 'row', 'data-label': 'Config' },
        h('label', { for: `${id}-use` }, config.name),
        config.name === trace.suggested_sim_config ? h('span', { class: 'badge suggested' }, 'suggested') : null,
        refusal !== null ? h('p', { class: 'reason', id: `${id}-reason` }, refusal) : null,
        row.configError),
      h('td', { 'data-label': 'Arch' }, config.arch || '—'),
      h('td', { 'data-label': 'Clock', class: 'num' }, config.clock_mhz ? `${number(config.clock_mhz)} MHz` : '—'),
      h('td', { 'data-label': 'SMs', class: 'num' }, count(config.sms)),
      refusal !== null
        ? h('td', { class: 'count-cell muted' }, h('span', { 'aria-hidden': 'true' }, '—'))
        : h('td', { 'data-label': 'Count', class: 'count-cell' },
          h('label', { for: `${id}-count`, class: 'visually-hidden' }, `Count of ${config.name}`),
          row.count, row.countError));
    if (refusal === null) {
      row.count.addEventListener('input', updateButton);
      row.use.addEventListener('change', () => {
        showCount(row);
        if (row.use.checked) {
          row.count.focus();
        }
        updateButton();
      });
      showCount(row);
      rows.push(row);
    }
    return row.tr;
  }

  /** An unchecked row sends no count, so it shows none: the input is disabled and hidden. */
  function showCount(row) {
    row.count.disabled = !row.use.checked;
    row.count.hidden = !row.use.checked;
  }

  function chosen() {
    return rows.filter((row) => row.use.checked);
  }

  function countValue(row) {
    const text = row.count.value.trim();
    return text === '' ? null : Number(text);
  }

  /**
   * The parameters box as an entry's params and sweep: one NAME=VALUE[,VALUE...] a line, as the
   * command line's --param takes them (a cache spec's values separated by |).
   */
  function parsedParams() {
    const params = {};
    const sweep = {};
    for (const line of paramsInput.value.split('\n').map((l) => l.trim()).filter(Boolean)) {
      const equals = line.indexOf('=');
      if (equals <= 0 || equals === line.length - 1) {
        return { problem: `"${line}" is not NAME=VALUE, such as -gpgpu_n_clusters=66,132` };
      }
      const name = line.slice(0, equals).trim();
      const values = line.slice(equals + 1).split(name.includes('cache:') ? '|' : ',').map((v) => v.trim());
      if (values.length === 1) {
        params[name] = values[0];
      } else {
        sweep[name] = values;
      }
    }
    return { params, sweep };
  }

  /** How many variants of each config the parameters make: the product of the swept lists. */
  function variantsPerConfig() {
    const parsed = parsedParams();
    return parsed.problem ? 1 : Object.values(parsed.sweep).reduce((n, values) => n * values.length, 1);
  }

  function updateButton() {
    const perConfig = variantsPerConfig();
    const sims = chosen().reduce((sum, row) => {
      const n = countValue(row);
      return sum + (Number.isInteger(n) && n > 0 ? n * perConfig : 0);
    }, 0);
    submit.textContent = sims > 0 ? `Launch ${plural(sims, 'simulation')}` : 'Launch simulations';
    if (sims > 0 && perConfig > 1) {
      submit.textContent += ` (${plural(perConfig * chosen().length, 'variant')})`;
    }
    submit.dataset.sims = String(sims);
    pace.textContent = paceText(simulator, sims);
  }

  function clearErrors() {
    formError.hidden = true;
    replace(formError);
    entriesError.hidden = true;
    paramsError.hidden = true;
    paramsInput.removeAttribute('aria-invalid');
    for (const row of rows) {
      for (const [el, input] of [[row.configError, row.use], [row.countError, row.count]]) {
        el.hidden = true;
        el.textContent = '';
        input.removeAttribute('aria-invalid');
      }
    }
  }

  /** Shows the server's refusal next to the field it names; returns the element to focus. */
  function showError(error, sent) {
    const field = error.field || '';
    const entry = /^entries\[(\d+)\](?:\.(gpu_config|count))?$/.exec(field);
    if (entry && sent[Number(entry[1])]) {
      const row = sent[Number(entry[1])];
      const [el, input] = entry[2] === 'count' ? [row.countError, row.count] : [row.configError, row.use];
      el.textContent = error.message;
      el.hidden = false;
      input.setAttribute('aria-invalid', 'true');
      return input;
    }
    if (/^(entries\[\d+\]\.(params|sweep)|params)/.test(field)) {
      paramsError.textContent = error.message;
      paramsError.hidden = false;
      paramsInput.setAttribute('aria-invalid', 'true');
      return paramsInput;
    }
    if (field === 'entries') {
      entriesError.textContent = error.message;
      entriesError.hidden = false;
      return rows[0]?.use ?? submit;
    }
    replace(formError, h('p', {}, error.message));
    if (error.status === 409) {
      formError.append(h('p', {}, h('a', { href: traceHref(trace.id) }, 'See the trace')));
    }
    formError.hidden = false;
    return submit;
  }

  const formEl = h('form', { class: 'new-run', novalidate: true, 'aria-labelledby': 'configs-legend' },
    formError,
    h('fieldset', {},
      h('legend', { id: 'configs-legend' }, 'GPU configs and how many sims of each'),
      h('p', { class: 'hint', id: 'count-hint' }, 'Every count is its own sim: 1 to 64 per config. Replicas of a config show how stable its numbers are.'),
      pace,
      entriesError,
      h('div', { class: 'scroll' },
        h('table', { class: 'configs' },
          h('thead', {}, h('tr', {},
            h('th', { scope: 'col' }, h('span', { class: 'visually-hidden' }, 'Use')),
            h('th', { scope: 'col' }, 'Config'),
            h('th', { scope: 'col' }, 'Arch'),
            h('th', { scope: 'col', class: 'num' }, 'Clock'),
            h('th', { scope: 'col', class: 'num' }, 'SMs'),
            h('th', { scope: 'col' }, 'Count'))),
          h('tbody', {}, allowed.map((config, i) => configRow(config, i, null))),
          refused.length
            ? h('tbody', { class: 'refused' },
              h('tr', {}, h('th', { colspan: 6, scope: 'rowgroup', class: 'group' },
                h('span', { class: 'group-title' }, 'Not for this trace'),
                h('span', { class: 'group-why' }, ` It was captured on ${trace.trace_gpu_arch || 'sm_90'} and holds instructions only that architecture runs. To model another architecture, trace on that GPU.`))),
              refused.map((config, i) => configRow(config, allowed.length + i, configRefusal(trace, config))))
            : null))),
    h('fieldset', { class: 'params' },
      h('legend', {}, 'Parameters'),
      h('p', { class: 'hint', id: 'params-hint' }, 'Simulator options set over every checked config\'s own, one NAME=VALUE a line: -gpgpu_n_clusters=66 makes a variant; several values (-gpgpu_n_clusters=66,132) sweep it, a variant per value and per combination. A cache spec holds commas, so separate its values with |. Empty: the configs as they are.'),
      h('label', { for: 'run-params', class: 'visually-hidden' }, 'Parameters'),
      paramsInput,
      paramsError),
    h('fieldset', { class: 'queue' },
      h('legend', {}, 'Queue'),
      h('p', { class: 'hint', id: 'queue-hint' }, 'Sims wait for a free slot: higher priority first, then owners take turns. A sim still running after its time limit is stopped as timed out.'),
      h('div', { class: 'queue-fields' },
        h('label', { for: 'run-owner' }, 'Owner ', owner),
        h('label', { for: 'run-priority' }, 'Priority ', priority),
        h('label', { for: 'run-time-limit' }, 'Time limit per sim ', timeLimit))),
    h('div', { class: 'actions' },
      submit,
      h('a', { href: traceHref(trace.id), class: 'button' }, 'Back')));

  formEl.addEventListener('submit', async (event) => {
    event.preventDefault();
    clearErrors();
    const sent = chosen();
    const limit = timeLimit.value.trim();
    const parsed = parsedParams();
    if (parsed.problem) {
      showError(new ApiError(422, 'invalid', parsed.problem, 'params'), sent).focus();
      return;
    }
    const variant = {
      ...(Object.keys(parsed.params).length ? { params: parsed.params } : {}),
      ...(Object.keys(parsed.sweep).length ? { sweep: parsed.sweep } : {}),
    };
    const body = {
      trace_id: trace.id,
      entries: sent.map((row) => ({
        gpu_config: row.config.name, count: countValue(row), ...(limit ? { time_limit: limit } : {}), ...variant,
      })),
    };
    if (owner.value.trim()) {
      body.owner = owner.value.trim();
    }
    if (priority.value.trim()) {
      body.priority = Number(priority.value);
    }
    submit.disabled = true;
    submit.setAttribute('aria-busy', 'true');
    const label = submit.textContent;
    submit.textContent = 'Launching…';
    try {
      const run = await api('/api/runs', { method: 'POST', body });
      location.hash = runHref(run.id);
    } catch (error) {
      submit.disabled = false;
      submit.removeAttribute('aria-busy');
      submit.textContent = label;
      const target = error instanceof ApiError
        ? showError(error, sent)
        : showError(new ApiError(0, 'unreachable', problem(error), null), sent);
      target.focus();
    }
  });

  paramsInput.addEventListener('input', updateButton);
  updateButton();
  return h('div', {},
    traceFacts(trace),
    allowed.length === 0
      ? h('div', { class: 'error-box', role: 'alert' }, h('p', {}, `No GPU config in the catalog can run this ${trace.trace_gpu_arch || 'sm_90'} trace.`))
      : null,
    formEl);
}
