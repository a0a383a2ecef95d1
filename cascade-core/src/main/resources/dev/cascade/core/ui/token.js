// The token prompt: shown when the server answers 401 or 403, never when it needs no token.

import { ApiError, onTokenNeeded, setToken, token } from './api.js';

/** Wires the dialog and the header's token button. */
export function setUpToken() {
  const dialog = document.getElementById('token-dialog');
  const form = document.getElementById('token-form');
  const input = document.getElementById('token-input');
  const error = document.getElementById('token-error');
  const cancel = document.getElementById('token-cancel');
  const button = document.getElementById('token-button');

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
      const refused = apiError && apiError.status === 403 && token();
      if (refused) {
        setToken(null);
      }
      open(refused ? 'The server refused that token. Check the value of CASCADE_TOKEN.' : null);
    });
  });

  function showButton() {
    button.hidden = !token() && !dismissed;
    button.textContent = token() ? 'Forget token' : 'Enter token';
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
