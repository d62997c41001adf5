// The Node peer of bench/ws-fanout.mjs: netgraph's subscription as a good Node team would serve it.
// graphql-ws's own server (useServer on a `ws` WebSocketServer, the graphql-transport-ws protocol)
// over graphql-js with netgraph's schema (core/api/schema.graphql); networkUpdated's source stream
// is an async iterator per subscription fed from the Redis channel netgraph-ws listens on
// (netgraph:graph), through the official `redis` client. Each message is opened as netgraph-ws
// opens it (core/domain/update_authenticator.h: the HMAC checked under
// NETGRAPH_UPDATE_SIGNING_KEY_FILE, unsigned or forged messages dropped) and read once
// (core/domain/update_message.h: the members other than sequence, epoch and appendedAt are the
// NetworkUpdate); graphql-js then executes each subscriber's document on it, as graphql-ws does.
//
//   node subscriptions.mjs --port P      (REDIS_URL, NETGRAPH_UPDATE_SIGNING_KEY_FILE as the stack's)
// Prints "listening on P" once it accepts connections and is subscribed. One process, as
// netgraph-ws is one.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildSchema } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { createClient } from 'redis';
import { WebSocketServer } from 'ws';

const { values: options } = parseArgs({ options: { port: { type: 'string' }, channel: { type: 'string', default: 'netgraph:graph' } } });
const port = Number(options.port);
if (!Number.isInteger(port) || port <= 0 || !process.env.REDIS_URL) {
  console.error('usage: REDIS_URL=... NETGRAPH_UPDATE_SIGNING_KEY_FILE=... node subscriptions.mjs --port P');
  process.exit(64);
}
const channel = options.channel;

// The signing key as netgraph-ws reads it: hex in a file, or `off` (unsigned messages accepted).
const keySetting = process.env.NETGRAPH_UPDATE_SIGNING_KEY_FILE;
if (!keySetting) {
  console.error('subscriptions: NETGRAPH_UPDATE_SIGNING_KEY_FILE is not set');
  process.exit(64);
}
const key = keySetting === 'off' ? null : Buffer.from(readFileSync(keySetting, 'utf8').trim(), 'hex');
const channelPrefix = `${Buffer.byteLength(channel)}:${channel}`;

// The payload of a sealed message, or null when its MAC is not the key's.
function open(message) {
  if (key === null) return message;
  if (message.length < 65 || message[64] !== '.') return null;
  const payload = message.slice(65);
  const expected = createHmac('sha256', key).update(channelPrefix).update(payload).digest();
  const given = Buffer.from(message.slice(0, 64), 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected) ? payload : null;
}

// The subscriptions' source streams: each a queue that the Redis listener pushes every update into.
const streams = new Set();
function updateStream() {
  const queue = [];
  let waiting = null;
  const stream = {
    push(event) {
      if (waiting) {
        const resolve = waiting;
        waiting = null;
        resolve({ value: event, done: false });
      } else {
        queue.push(event);
      }
    },
    next() {
      if (queue.length) return Promise.resolve({ value: queue.shift(), done: false });
      if (!streams.has(stream)) return Promise.resolve({ value: undefined, done: true });
      return new Promise((resolve) => { waiting = resolve; });
    },
    return() {
      streams.delete(stream);
      queue.length = 0;
      if (waiting) waiting({ value: undefined, done: true });
      waiting = null;
      return Promise.resolve({ value: undefined, done: true });
    },
    throw(error) {
      stream.return();
      return Promise.reject(error);
    },
    [Symbol.asyncIterator]() { return stream; },
  };
  streams.add(stream);
  return stream;
}

const repo = path.resolve(import.meta.dirname, '../..');
const schema = buildSchema(readFileSync(path.join(repo, 'core/api/schema.graphql'), 'utf8'));
const networkUpdated = schema.getSubscriptionType().getFields().networkUpdated;
networkUpdated.subscribe = () => updateStream();
networkUpdated.resolve = (update) => update;

const subscriber = createClient({ url: process.env.REDIS_URL });
subscriber.on('error', (error) => console.error(`subscriptions: Redis: ${error.message}`));
await subscriber.connect();
await subscriber.subscribe(channel, (message) => {
  const payload = open(message);
  if (payload === null) return;
  let update;
  try {
    update = JSON.parse(payload);
  } catch {
    return;
  }
  if (update === null || typeof update !== 'object' || Array.isArray(update)) return;
  const { sequence, epoch, appendedAt, ...event } = update;
  for (const stream of streams) stream.push(event);
});

const server = new WebSocketServer({ host: '127.0.0.1', port });
useServer({ schema }, server);
server.on('listening', () => console.log(`listening on ${port}`));
const stop = () => {
  for (const client of server.clients) client.terminate();
  server.close();
  subscriber.quit().finally(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
