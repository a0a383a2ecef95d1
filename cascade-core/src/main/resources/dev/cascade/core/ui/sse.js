// Server-sent events over fetch: headers (the token, Last-Event-ID) can be sent, which
// EventSource cannot, and resuming after the last event id is explicit.

import { authHeaders, ApiError, errorFromResponse } from './api.js';

/**
 * Parses the text/event-stream format incrementally: feed it text as it arrives, split anywhere,
 * and it calls `onEvent({id, event, data})` for every complete event and `onRetry(ms)` for a
 * retry field. Comments (keep-alives) are ignored.
 */
export class EventParser {
  constructor(onEvent, onRetry = () => {}) {
    this.onEvent = onEvent;
    this.onRetry = onRetry;
    this.buffer = '';
    this.reset();
  }

  reset() {
    this.id = null;
    this.event = '';
    this.data = [];
  }

  feed(text) {
    this.buffer += text;
    for (;;) {
      const match = /\r\n|\r|\n/.exec(this.buffer);
      // A lone \r at the very end may be the first half of \r\n: wait for more.
      if (!match || (match[0] === '\r' && match.index === this.buffer.length - 1)) {
        return;
      }
      const line = this.buffer.slice(0, match.index);
      this.buffer = this.buffer.slice(match.index + match[0].length);
      this.line(line);
    }
  }

  line(line) {
    if (line === '') {
      if (this.data.length > 0) {
        this.onEvent({ id: this.id, event: this.event || 'message', data: this.data.join('\n') });
      }
      this.reset();
      return;
    }
    if (line.startsWith(':')) {
      return;
    }
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) {
      value = value.slice(1);
    }
    if (field === 'data') {
      this.data.push(value);
    } else if (field === 'event') {
      this.event = value;
    } else if (field === 'id' && !value.includes('\0')) {
      this.id = value;
    } else if (field === 'retry' && /^\d+$/.test(value)) {
      this.onRetry(Number(value));
    }
  }
}

/**
 * Follows `/api/runs/{runId}/events` for as long as it is open: reconnects on its own with
 * backoff (0.5 s doubling to 10 s), resuming after the last event id it saw.
 *
 * Callbacks: `onOpen({resumed})` once connected (again), `onEvent(envelope)` for each event's
 * parsed data, `onDown(error, retryInMs)` when the stream dropped, `onAuth(error)` when the server
 * asks for a token (returns a promise that resolves once there may be one).
 */
export class RunEvents {
  constructor(runId, callbacks) {
    this.url = `/api/runs/${encodeURIComponent(runId)}/events`;
    this.callbacks = callbacks;
    this.lastEventId = null;
    this.closed = false;
    this.controller = null;
    this.failures = 0;
    this.connected = false;
    this.loop();
  }

  close() {
    this.closed = true;
    this.controller?.abort();
  }

  async loop() {
    while (!this.closed) {
      try {
        await this.connectOnce();
        if (this.closed) {
          return;
        }
        // The server ended the stream (it is stopping): reconnect soon.
        throw new Error('the server ended the event stream');
      } catch (error) {
        if (this.closed) {
          return;
        }
        this.connected = false;
        if (error instanceof ApiError && error.status === 401) {
          await this.callbacks.onAuth?.(error);
          continue;
        }
        if (error instanceof ApiError && error.status === 404) {
          this.callbacks.onGone?.(error);
          return;
        }
        this.failures += 1;
        const wait = Math.min(10000, 500 * 2 ** (this.failures - 1)) * (0.8 + Math.random() * 0.4);
        this.callbacks.onDown?.(error, wait);
        await new Promise((resolve) => setTimeout(resolve, wait));
      }
    }
  }

  async connectOnce() {
    this.controller = new AbortController();
    const headers = { Accept: 'text/event-stream', ...authHeaders() };
    if (this.lastEventId !== null) {
      headers['Last-Event-ID'] = this.lastEventId;
    }
    const response = await fetch(this.url, { headers, signal: this.controller.signal, cache: 'no-store' });
    if (!response.ok) {
      throw await errorFromResponse(response);
    }
    const resumed = this.lastEventId !== null;
    this.connected = true;
    this.failures = 0;
    this.callbacks.onOpen?.({ resumed });
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    const batch = [];
    const parser = new EventParser((event) => {
      if (event.id !== null && event.id !== '') {
        this.lastEventId = event.id;
      }
      try {
        batch.push(JSON.parse(event.data));
      } catch {
        // Not an event of ours; nothing to show.
      }
    });
    for (;;) {
      const { value, done } = await reader.read();
      if (done) {
        return;
      }
      parser.feed(decoder.decode(value, { stream: true }));
      if (batch.length > 0) {
        this.callbacks.onEvents?.(batch.splice(0));
      }
    }
  }
}
