// Cascade's web UI: hash routes to screens, one module per screen.

import { h, replace, errorBox } from './dom.js';
import { startTicker } from './clock.js';
import { setUpToken } from './token.js';
import { renderTraces, renderTrace } from './traces.js';
import { renderNewRun } from './new-run.js';
import { renderRuns } from './runs.js';
import { renderRun } from './run.js';
import { renderResults } from './results.js';
import { renderCompare } from './compare.js';

const ROUTES = [
  { pattern: /^\/?$/, nav: 'traces', render: renderTraces },
  { pattern: /^\/traces\/?$/, nav: 'traces', render: renderTraces },
  { pattern: /^\/traces\/([^/]+)\/new-run$/, nav: 'traces', render: renderNewRun },
  { pattern: /^\/traces\/([^/]+)$/, nav: 'traces', render: renderTrace },
  { pattern: /^\/runs\/?$/, nav: 'runs', render: renderRuns },
  { pattern: /^\/runs\/([^/]+)\/results(?:\?(.*))?$/, nav: 'runs', render: renderResults },
  { pattern: /^\/runs\/([^/]+)$/, nav: 'runs', render: renderRun },
  { pattern: /^\/compare(?:\?(.*))?$/, nav: 'runs', render: renderCompare },
];

const main = document.getElementById('main');
let current = null;
let first = true;

function route() {
  const path = location.hash.replace(/^#/, '');
  current?.dispose?.();
  current = null;
  window.scrollTo(0, 0);
  const found = ROUTES.map((r) => ({ r, match: r.pattern.exec(path) })).find((x) => x.match);
  for (const link of document.querySelectorAll('[data-nav]')) {
    if (found && link.dataset.nav === found.r.nav) {
      link.setAttribute('aria-current', 'page');
    } else {
      link.removeAttribute('aria-current');
    }
  }
  replace(main);
  if (!found) {
    document.title = 'Not found · Cascade';
    main.append(
      h('h1', { tabindex: '-1' }, 'Nothing here'),
      errorBox(`There is no screen at "${path}".`, h('p', {}, h('a', { href: '#/traces' }, 'Go to the traces'))),
    );
    focusHeading();
    return;
  }
  const params = found.match.slice(1).map((part) => decodeURIComponent(part));
  current = found.r.render(main, ...params) || null;
  focusHeading();
}

/** Moves focus to the new screen's heading, so keyboard and screen-reader users start there. */
function focusHeading() {
  const heading = main.querySelector('h1');
  heading?.setAttribute('tabindex', '-1');
  if (first) {
    // On the first load, leave focus where the browser put it.
    first = false;
    return;
  }
  if (heading) {
    heading.focus({ preventScroll: true });
  } else {
    main.focus({ preventScroll: true });
  }
}

setUpToken();
startTicker();
window.addEventListener('hashchange', route);
route();
