// The run screen's "Retry failed sims" button: POST /api/runs/{id}/retry, then the fresh run.

import { api } from './api.js';
import { h } from './dom.js';
import { problem } from './screen.js';

/** The button and its error line; `onRetried` gets the run as the server answered. */
export function retryControl(runId, onRetried) {
  const button = h('button', { type: 'button', id: 'retry-run' }, 'Retry failed sims');
  const error = h('p', { class: 'field-error', role: 'alert', hidden: true });
  button.addEventListener('click', async () => {
    button.disabled = true;
    error.hidden = true;
    try {
      await onRetried(await api(`/api/runs/${encodeURIComponent(runId)}/retry`, { method: 'POST' }));
    } catch (failure) {
      error.hidden = false;
      error.textContent = problem(failure);
    } finally {
      button.disabled = false;
    }
  });
  return h('div', { class: 'retry-area', hidden: true }, button, error);
}
