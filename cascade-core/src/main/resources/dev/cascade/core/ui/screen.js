// What every screen shares: polling, the connection banner, and loading errors.

import { ApiError } from './api.js';
import { h, errorBox } from './dom.js';

/**
 * Calls `fn` now and then every `ms` after each call settles, until the returned stop function is
 * called. A failure shows the connection banner and is retried; the next success hides it.
 */
export function poll(fn, ms) {
  let stopped = false;
  let timer = null;
  async function tick() {
    if (stopped) {
      return;
    }
    try {
      await fn();
      hideBanner('poll');
    } catch (error) {
      if (!stopped) {
        showBanner('poll', problem(error));
      }
    }
    if (!stopped) {
      timer = setTimeout(tick, ms);
    }
  }
  tick();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

const reasons = new Map();

/** Shows the banner under the header for `key` (several problems may be up at once). */
export function showBanner(key, message) {
  reasons.set(key, message);
  renderBanner();
}

export function hideBanner(key) {
  if (reasons.delete(key)) {
    renderBanner();
  }
}

function renderBanner() {
  const banner = document.getElementById('banner');
  const messages = [...reasons.values()];
  banner.hidden = messages.length === 0;
  const text = messages.join(' ');
  if (banner.textContent !== text) {
    banner.textContent = text;
  }
}

/** A sentence about what went wrong, for a person. */
export function problem(error) {
  if (error instanceof ApiError) {
    return error.message;
  }
  return 'Cannot reach the Cascade server; retrying.';
}

/** Fills `container` with an error for a screen that could not load. */
export function loadFailed(container, error, backHref, backText) {
  container.append(
    errorBox(problem(error), backHref ? h('p', {}, h('a', { href: backHref }, backText)) : null),
  );
}
