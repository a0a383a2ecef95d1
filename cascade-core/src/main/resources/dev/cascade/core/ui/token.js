// The token prompt: shown when the server answers 401 (no valid token), never when it needs none;
// and who is signed in, in the header, with their role on the page for what it may not do.

import { ApiError, me, onTokenNeeded, setToken, token } from './api.js';

/** Wires the dialog and the header's token button. */
export function setUpToken() {
  const dialog = document.getElementById('token-dialog');
  const form = document.getElementById('token-form');
  const input = document.getElementById('token-input');
  const error = document.getElementById('token-error');
  const cancel = document.getElementById('token-cancel');
  const button = document.getElementById('token-button');
  const who = document.getElementById('who');

  let settle = null;
  // "Not now" was chosen: calls fail with a clear message until the person asks for the prompt.
  let dismissed = false;

  function open(reason) {
    error.hidden = !reason;
    error.textContent = reason || '';
    input.value = '';
    if (!dialog.open) {
      dialog.showModal();
    }
    input.focus();
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const value = input.value.trim();
    if (!value) {
      error.hidden = false;
      error.textContent = 'Enter the token, or choose Not now.';
      input.focus();
      return;
    }
    setToken(value);
    dismissed = false;
    const done = settle;
    settle = null;
    dialog.close();
    done?.resolve();
  });
  cancel.addEventListener('click', () => dialog.close());
  dialog.addEventListener('close', () => {
    if (settle) {
      dismissed = true;
      const done = settle;
      settle = null;
      done.reject(needed());
      showButton();
    }
  });

  function needed() {
    return new ApiError(401, 'unauthorized', 'This server needs a token: choose “Enter token” at the top of the page.', 'Authorization');
  }

  onTokenNeeded((apiError) => {
    if (dismissed) {
      return Promise.reject(needed());
    }
    return new Promise((resolve, reject) => {
      settle = { resolve, reject };
      const refused = apiError && apiError.status === 401 && token();
      if (refused) {
        setToken(null);
      }
      open(refused ? `The server refused that token: ${apiError.message}` : null);
    });
  });

  function showButton() {
    button.hidden = !token() && !dismissed;
    button.textContent = token() ? 'Forget token' : 'Enter token';
    showWho();
  }

  // "alice (submitter)" in the header; the role on <body> hides what it may not do.
  async function showWho() {
    const caller = await me();
    if (caller) {
      document.body.dataset.role = caller.role;
    } else {
      delete document.body.dataset.role;
    }
    // The local admin of a server without a token is everyone: nothing to say.
    const shown = Boolean(caller) && (Boolean(token()) || caller.name !== 'local');
    who.hidden = !shown;
    who.textContent = shown ? `Signed in as ${caller.name} (${caller.role})` : '';
  }
  button.addEventListener('click', () => {
    if (token()) {
      setToken(null);
      location.reload();
      return;
    }
    dismissed = false;
    settle = {
      // Draw the screen again, now with the token.
      resolve: () => window.dispatchEvent(new HashChangeEvent('hashchange')),
      reject: () => {},
    };
    open(null);
  });
  window.addEventListener('cascade-token', showButton);
  showButton();
}
