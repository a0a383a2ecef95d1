// The server's time as this page estimates it, and the "… ago" texts that tick every second.

import { ago } from './format.js';
import { setText } from './dom.js';

let skewMs = 0;
let timer = null;

/** Milliseconds since the epoch on the server's clock (the browser's, corrected by the skew). */
export function serverNow() {
  return Date.now() - skewMs;
}

/**
 * Learns the skew between this browser's clock and the server's from one sim the server just
 * described: it was `ageSeconds` since `iso` on the server's clock.
 */
export function learnSkew(iso, ageSeconds) {
  if (!iso || ageSeconds === null || ageSeconds === undefined) {
    return;
  }
  const at = Date.parse(iso);
  if (!Number.isNaN(at)) {
    skewMs = Date.now() - at - ageSeconds * 1000;
  }
}

/** Seconds from `iso` to now on the server's clock; null for no time. */
export function secondsSince(iso) {
  if (!iso) {
    return null;
  }
  const at = Date.parse(iso);
  return Number.isNaN(at) ? null : Math.max(0, (serverNow() - at) / 1000);
}

/**
 * An element whose text says how long ago `iso` was, kept current by the ticker. `format` turns
 * seconds into the text (default "12 s ago").
 */
export function since(el, iso, format = ago) {
  el.dataset.since = iso || '';
  el.sinceFormat = format;
  refresh(el);
  return el;
}

function refresh(el) {
  const iso = el.dataset.since;
  const format = el.sinceFormat || ago;
  setText(el, iso ? format(secondsSince(iso)) : el.dataset.sinceEmpty || '—');
}

/** Starts the once-a-second tick of every `data-since` element on the page. */
export function startTicker() {
  if (timer === null) {
    timer = setInterval(() => document.querySelectorAll('[data-since]').forEach(refresh), 1000);
  }
}
