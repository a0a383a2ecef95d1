// Small DOM helpers: build elements without innerHTML, so no text from the server is ever parsed
// as markup.

/**
 * Creates an element. `attrs` keys: `class`, `text`, `on<event>` (listeners), `dataset`,
 * boolean attributes (true sets, false/null/undefined skips), anything else as an attribute.
 * Children may be nodes, strings, numbers, arrays or null.
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

const SVG_NS = 'http://www.w3.org/2000/svg';

/** Like `h`, for SVG elements. */
export function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

function setAttrs(el, attrs) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) {
      continue;
    }
    if (key === 'class') {
      el.setAttribute('class', Array.isArray(value) ? value.filter(Boolean).join(' ') : value);
    } else if (key === 'text') {
      el.textContent = value;
    } else if (key === 'dataset') {
      Object.assign(el.dataset, value);
    } else if (key.startsWith('on') && typeof value === 'function') {
      el.addEventListener(key.slice(2), value);
    } else if (value === true) {
      el.setAttribute(key, '');
    } else {
      el.setAttribute(key, String(value));
    }
  }
}

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) {
      continue;
    }
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Removes every child of `el`, then appends `children`. */
export function replace(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/** Sets `el`'s text only when it changed (keeps screen readers and selection quiet). */
export function setText(el, text) {
  const value = text === null || text === undefined ? '' : String(text);
  if (el.textContent !== value) {
    el.textContent = value;
  }
}

/** Says `message` to screen readers through the page's polite live region. */
export function announce(message) {
  const region = document.getElementById('announcer');
  if (!region) {
    return;
  }
  region.textContent = '';
  // A new text node on the next frame is announced even when the message repeats.
  requestAnimationFrame(() => {
    region.textContent = message;
  });
}

/** A state badge: the state's name as text, coloured by class. */
export function badge(state, extraClass) {
  return h('span', { class: ['badge', `state-${state || 'unknown'}`, extraClass], dataset: { state: state || '' } },
    state || 'unknown');
}

/** Updates a badge made by `badge` in place. */
export function setBadge(el, state) {
  if (el.dataset.state === state) {
    return;
  }
  el.dataset.state = state;
  el.className = el.className.replace(/\bstate-\S+/, `state-${state}`);
  el.textContent = state;
}

/** A paragraph for a screen that could not load. */
export function errorBox(message, ...extra) {
  return h('div', { class: 'error-box', role: 'alert' }, h('p', {}, message), extra);
}

/**
 * A table cell whose content sits in one wrapper, so that at phone width, where each row becomes
 * a card of "label: value" lines, the value stays in one piece.
 */
export function cell(tag, attrs, ...children) {
  return h(tag, attrs, h('div', { class: 'cell' }, children));
}
