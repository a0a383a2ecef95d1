// The HTTP API, with the user's token when the server needs one.

const TOKEN_KEY = 'cascade.token';

/** An error answer of the API: its status and its body's `code`, `message` and `field`. */
export class ApiError extends Error {
  constructor(status, code, message, field) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.field = field ?? null;
  }
}

/** The token this tab uses, or null. */
export function token() {
  try {
    return sessionStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

export function setToken(value) {
  try {
    if (value) {
      sessionStorage.setItem(TOKEN_KEY, value);
    } else {
      sessionStorage.removeItem(TOKEN_KEY);
    }
  } catch {
    // Storage is off: the token lasts until the page is left.
  }
  window.dispatchEvent(new CustomEvent('cascade-token'));
}

/** The Authorization header for the stored token, if there is one. */
export function authHeaders() {
  const value = token();
  return value ? { Authorization: `Bearer ${value}` } : {};
}

/** The ApiError an error response stands for. */
export async function errorFromResponse(response) {
  let body = null;
  try {
    body = await response.json();
  } catch {
    // Not the API's JSON (a proxy's page, say): the status says enough.
  }
  const error = body && body.error;
  return new ApiError(
    response.status,
    error?.code || `http_${response.status}`,
    error?.message || `The server answered ${response.status} ${response.statusText || ''}`.trim(),
    error?.field,
  );
}

let askForToken = async () => {
  throw new ApiError(401, 'unauthorized', 'this server needs a token');
};

/** How to ask the person for a token (set once by the app): resolves when one may be stored. */
export function onTokenNeeded(handler) {
  askForToken = handler;
}

/** Asks for a token because of `error`; shared by every request that needs one at once. */
let pendingAsk = null;
export function requestToken(error) {
  if (!pendingAsk) {
    pendingAsk = askForToken(error).finally(() => {
      pendingAsk = null;
    });
  }
  return pendingAsk;
}

/**
 * Calls the API: `GET path`, or `method` with `body` as JSON. Returns the parsed JSON. Throws an
 * ApiError for an error answer, and a TypeError when the server cannot be reached. A 401 (no valid
 * token) asks for a token and tries again; a 403 is the role's refusal, in words, and is thrown.
 */
export async function api(path, { method = 'GET', body, signal } = {}) {
  for (let attempt = 0; ; attempt++) {
    const headers = { Accept: 'application/json', ...authHeaders() };
    if (body !== undefined) {
      headers['Content-Type'] = 'application/json';
    }
    const response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
      cache: 'no-store',
    });
    if (response.ok) {
      return response.status === 204 ? null : response.json();
    }
    const error = await errorFromResponse(response);
    if (error.status === 401 && attempt < 5) {
      await requestToken(error);
      continue;
    }
    throw error;
  }
}

let caller = null;
window.addEventListener('cascade-token', () => {
  caller = null;
});

/**
 * Who is signed in, `{name, role}` from GET /api/me with the stored token, or null when it cannot
 * be told (no valid token yet); asked once per token. It never asks for a token itself: the
 * screens' own calls do, and a new token asks again.
 */
export function me() {
  if (!caller) {
    caller = fetch('/api/me', { headers: { Accept: 'application/json', ...authHeaders() }, cache: 'no-store' })
      .then((response) => (response.ok ? response.json() : null))
      .catch(() => null);
  }
  return caller;
}

/** True when `who` may create runs (null: not known, the server decides). */
export function maySubmit(who) {
  return !who || who.role !== 'viewer';
}

/** True when `who` may cancel, retry or rerun a run of `owner`: theirs as a submitter, any as an admin. */
export function mayChange(who, owner) {
  return !who || who.role === 'admin' || (who.role === 'submitter' && who.name === owner);
}

/**
 * Opens what `path` answers (a log, a CSV) for the person: a plain link does it when there is no
 * token; with one, it is fetched with the token and handed over as a file.
 */
export async function download(path, filename) {
  const response = await fetch(path, { headers: authHeaders(), cache: 'no-store' });
  if (!response.ok) {
    const error = await errorFromResponse(response);
    if (error.status === 401) {
      await requestToken(error);
      return download(path, filename);
    }
    throw error;
  }
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60000);
}

/**
 * A link to an API file that works with and without a token: a real link (copyable, opens in a
 * tab) that is fetched with the token when one is stored.
 */
export function fileLink(path, filename, label, attrs = {}) {
  const link = document.createElement('a');
  link.href = path;
  link.textContent = label;
  for (const [key, value] of Object.entries(attrs)) {
    link.setAttribute(key, value);
  }
  link.addEventListener('click', (event) => {
    if (token()) {
      event.preventDefault();
      download(path, filename).catch((error) => {
        link.title = error.message;
      });
    }
  });
  return link;
}
