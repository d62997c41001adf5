// Helpers for the netgraph-ws end-to-end tests: WebSocket clients (raw `ws` sockets and the
// graphql-ws client) through nginx, and Redis publishing and restarting. The stack's settings come
// from the environment scripts/test exports (see stack.mjs).
import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import path from 'node:path';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { binDir } from './daemon.mjs';
import { publishRaw, signUpdate, updateSigningKey } from './redis.mjs';
import {
  isAlive, readPid, runDir, stackStart, startStackWs, stopStackWs, waitFor, wsUrl,
} from './stack.mjs';

export { wsUrl };
export const redisUrl = new URL(process.env.REDIS_URL ?? 'redis://127.0.0.1:56379');
export const graphChannel = 'netgraph:graph';

// The subscription most tests use.
export const networkUpdatedQuery =
  'subscription { networkUpdated { nodes { id type labels } links { source target type } metadata { nodeCount linkCount lastUpdated } } }';

let markers = 0;
// A value no other test (or run) publishes: tests recognise their own updates by it.
export function uniqueMarker(prefix = 'e2e') {
  markers += 1;
  return `${prefix}-${process.pid}-${Date.now().toString(36)}-${markers}`;
}

// A NetworkUpdate (docs/api.md, "networkUpdated") whose one node has id `marker`.
export function networkUpdate(marker, extra = {}) {
  return {
    nodes: [{ id: marker, type: 'Wallet', labels: ['e2e'] }],
    links: [{ source: marker, target: 'round-1', type: 'CLAIMED_IN' }],
    metadata: { nodeCount: 1, linkCount: 1, lastUpdated: new Date().toISOString() },
    ...extra,
  };
}

// PUBLISH over a fresh RESP connection, signed with the stack's update key as the outbox relay signs
// (pass `key` to sign with another one, null to send it unsigned); resolves with the number of
// Redis subscribers that got it.
export function publish(message, channel = graphChannel, { key = updateSigningKey() } = {}) {
  const payload = typeof message === 'string' ? message : JSON.stringify(message);
  return publishRaw(redisUrl.href, channel, signUpdate(payload, channel, key));
}

// Publishes (again and again) until the ws process has received it: right after a subscription is
// made, or after a Redis restart, the process may not have subscribed yet. Each attempt carries a
// new marker; resolves with the marker that reached a subscriber.
export async function publishUntilDelivered(makeUpdate, { timeoutMs = 15000 } = {}) {
  const deadline = Date.now() + timeoutMs;
  for (let attempt = 0; ; attempt++) {
    const marker = uniqueMarker('pub');
    let receivers = 0;
    try { receivers = await publish(makeUpdate(marker)); } catch { /* Redis not back yet */ }
    if (receivers > 0) return marker;
    if (Date.now() > deadline) throw new Error('no Redis subscriber received the update');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

// Publishes a new update every 100 ms until `check(markers)` (markers: those published so far)
// returns something, and resolves with that: a subscription made a moment ago may not be in place
// yet when the first update goes out.
export async function publishUntilReceived(check, { timeoutMs = 15000 } = {}) {
  const markers = [];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const marker = uniqueMarker('warm');
    markers.push(marker);
    try { await publish(networkUpdate(marker)); } catch { /* Redis not there: try again */ }
    for (let i = 0; i < 5; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      const found = check(markers);
      if (found) return found;
    }
    if (Date.now() > deadline) throw new Error('no published update reached the subscriber');
  }
}

// Whether `value` (a message or result) mentions one of `markers`.
export function mentionsAny(value, markers) {
  const text = JSON.stringify(value);
  return markers.some((marker) => text.includes(marker));
}

// A raw WebSocket with a queue of parsed incoming messages.
export class RawSocket {
  constructor(protocols = 'graphql-transport-ws', options = {}) {
    this.messages = [];
    this.waiters = [];
    this.socket = new WebSocket(wsUrl, protocols, options);
    this.opened = new Promise((resolve, reject) => {
      this.socket.once('open', resolve);
      this.socket.once('error', reject);
      // With a listener here, ending the refused request is ours to do: left alone it would hold
      // its connection, and the test file's process, until nginx's keep-alive timeout (75 s).
      this.socket.once('unexpected-response', (request, response) => {
        reject(Object.assign(new Error(`upgrade refused with ${response.statusCode}`),
          { statusCode: response.statusCode }));
        this.socket.terminate();
      });
    });
    this.closed = new Promise((resolve) => {
      this.socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() }));
    });
    this.socket.on('error', () => {});  // reported through opened/closed
    this.socket.on('message', (data) => {
      const message = JSON.parse(data.toString());
      const waiter = this.waiters.findIndex((w) => w.match(message));
      if (waiter >= 0) this.waiters.splice(waiter, 1)[0].resolve(message);
      else this.messages.push(message);
    });
  }

  // Takes the first queued message for which `match` holds, or returns undefined.
  take(match) {
    const index = this.messages.findIndex(match);
    return index >= 0 ? this.messages.splice(index, 1)[0] : undefined;
  }

  send(message) {
    this.socket.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  // The next message (already received or to come) for which `match` holds.
  next(match = () => true, timeoutMs = 10000) {
    const index = this.messages.findIndex(match);
    if (index >= 0) return Promise.resolve(this.messages.splice(index, 1)[0]);
    return new Promise((resolve, reject) => {
      const waiter = { match, resolve };
      this.waiters.push(waiter);
      setTimeout(() => {
        const i = this.waiters.indexOf(waiter);
        if (i >= 0) {
          this.waiters.splice(i, 1);
          reject(new Error(`no matching message within ${timeoutMs} ms`));
        }
      }, timeoutMs).unref();
    });
  }

  // Sends connection_init and waits for the ack (graphql-transport-ws and legacy alike).
  async init(payload) {
    await this.opened;
    this.send(payload === undefined ? { type: 'connection_init' } : { type: 'connection_init', payload });
    return this.next((m) => m.type === 'connection_ack');
  }

  // How the socket closed: {code, reason}; rejects when it stays open for `timeoutMs`.
  closedWithin(timeoutMs = 10000) {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`still open after ${timeoutMs} ms`)), timeoutMs);
      this.closed.then((closed) => { clearTimeout(timer); resolve(closed); });
    });
  }

  close() { this.socket.close(1000); return this.closed; }
}

// Runs netgraph-ws with the stack's settings and `overrides` in place of the stack's own process
// (stopped first), its output in logs/`logName`; resolves once it acknowledges a connection, to
// {child, log, stop}: stop() ends it and brings the stack's own netgraph-ws back (startStackWs).
export async function replaceStackWs(overrides, { logName = 'ws-replaced.log' } = {}) {
  await stopStackWs();
  const binary = path.join(binDir, 'netgraph-ws');
  const log = path.join(runDir, 'logs', logName);
  const output = openSync(log, 'w');
  const child = spawn(binary, [], { env: { ...process.env, ...overrides }, stdio: ['ignore', output, output] });
  closeSync(output);  // the child has its own copy
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    await startStackWs();
  };
  try {
    await waitFor(async () => {
      const probe = new RawSocket();
      try { await probe.init(); await probe.close(); return true; } catch { return false; }
    }, { timeoutMs: 20000, intervalMs: 200, what: `netgraph-ws with ${Object.keys(overrides).join(', ')}` });
  } catch (error) {
    await stop();
    throw error;
  }
  return { child, log, stop };
}

// Opens a raw graphql-transport-ws connection with `token` and resolves to what netgraph-ws made of
// it: 'ack', or the close code.
export async function connectionOutcome(token) {
  const socket = new RawSocket();
  await socket.opened;
  socket.send({ type: 'connection_init', payload: { Authorization: `Bearer ${token}` } });
  const outcome = await Promise.race([
    socket.next((m) => m.type === 'connection_ack').then(() => 'ack'),
    socket.closedWithin(10000).then((closed) => closed.code),
  ]);
  if (outcome === 'ack') await socket.close();
  return outcome;
}

// Resolves with the first message of `socket` whose update carries `marker` (a next or data).
export function updateWithMarker(socket, marker, timeoutMs = 10000) {
  return socket.next((m) => (m.type === 'next' || m.type === 'data') &&
    JSON.stringify(m.payload).includes(marker), timeoutMs);
}

// A graphql-ws client that does not retry (a retry would hide the close a test looks for).
export function graphqlWsClient(options = {}) {
  return createClient({ url: wsUrl, webSocketImpl: WebSocket, retryAttempts: 0, lazy: true, ...options });
}

// Subscribes through `client`; returns {results, errors, completed, waitFor(marker)}.
export function subscribe(client, payload) {
  const state = { results: [], errors: [], completed: false, listeners: [] };
  state.unsubscribe = client.subscribe(payload, {
    next: (value) => {
      state.results.push(value);
      for (const listener of state.listeners) listener();
    },
    error: (error) => { state.errors.push(error); for (const l of state.listeners) l(); },
    complete: () => { state.completed = true; for (const l of state.listeners) l(); },
  });
  state.until = (predicate, what = 'a subscription result', timeoutMs = 10000) =>
    new Promise((resolve, reject) => {
      const check = () => {
        const found = predicate(state);
        if (found) { state.listeners.splice(state.listeners.indexOf(check), 1); resolve(found); }
      };
      state.listeners.push(check);
      check();
      setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), timeoutMs).unref();
    });
  state.resultWith = (marker, timeoutMs) =>
    state.until((s) => s.results.find((r) => JSON.stringify(r).includes(marker)),
      `an update carrying ${marker}`, timeoutMs);
  // Publishes until this subscription has received one of the updates.
  state.warmUp = () => publishUntilReceived((markers) =>
    state.results.find((r) => mentionsAny(r, markers)));
  return state;
}

// Stops the stack's Redis (SIGTERM) and waits until it is gone.
export async function stopRedis() {
  const pid = readPid('redis.pid');
  if (!pid || !isAlive(pid)) throw new Error(`no Redis to stop (${path.join(runDir, 'redis.pid')})`);
  process.kill(pid, 'SIGTERM');
  await waitFor(() => !isAlive(pid), { timeoutMs: 10000, what: 'Redis to stop' });
}

// Starts the stack's Redis again (scripts/stack start redis), and waits until it takes a publish.
export async function startRedis() {
  stackStart('redis');
  await waitFor(async () => {
    try { await publish('ping', 'netgraph:e2e-probe'); return true; } catch { return false; }
  }, { timeoutMs: 10000, what: 'Redis to answer again' });
}

// Restarts the stack's Redis. Subscribers of the ws process are not touched.
export async function restartRedis() {
  await stopRedis();
  await startRedis();
}
