// A minimal Redis client (RESP2 over node:net): enough to watch a pub/sub channel and to publish in
// tests, logging in as REDIS_URL says (redis://[user]:password@host:port/db), and the update
// signature the outbox relay puts on what it publishes (core/domain/update_authenticator.h).
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import net from 'node:net';

// A RESP command.
export function respCommand(...args) {
  return `*${args.length}\r\n` + args.map((a) => `$${Buffer.byteLength(a)}\r\n${a}\r\n`).join('');
}

// The commands that log in at `redisUrl` (AUTH, SELECT), as one RESP string, and how many replies
// they produce.
export function loginCommands(redisUrl) {
  const url = new URL(redisUrl);
  const commands = [];
  if (url.password) {
    const password = decodeURIComponent(url.password);
    commands.push(url.username
      ? respCommand('AUTH', decodeURIComponent(url.username), password)
      : respCommand('AUTH', password));
  }
  const database = url.pathname.replace(/^\//, '');
  if (database && database !== '0') commands.push(respCommand('SELECT', database));
  return { text: commands.join(''), replies: commands.length };
}

// The shared update signing key (NETGRAPH_UPDATE_SIGNING_KEY_FILE: hex), or null when signing is off.
export function updateSigningKey() {
  const setting = process.env.NETGRAPH_UPDATE_SIGNING_KEY_FILE;
  if (!setting) throw new Error('NETGRAPH_UPDATE_SIGNING_KEY_FILE is not set (source stack.env)');
  if (setting === 'off') return null;
  return Buffer.from(readFileSync(setting, 'utf8').trim(), 'hex');
}

// `payload` as the outbox relay publishes it on `channel`: <hex HMAC-SHA256>.<payload>, the MAC over
// <channel length>:<channel><payload>. `key` defaults to the stack's; null leaves it unsigned.
export function signUpdate(payload, channel, key = updateSigningKey()) {
  if (key === null) return payload;
  const mac = createHmac('sha256', key)
    .update(`${Buffer.byteLength(channel)}:${channel}`).update(payload).digest('hex');
  return `${mac}.${payload}`;
}

// The payload of a message the relay published on `channel`; throws when its signature is wrong.
export function openUpdate(message, channel) {
  const key = updateSigningKey();
  if (key === null) return message;
  const payload = message.slice(65);
  if (signUpdate(payload, channel, key) !== message) throw new Error(`badly signed update: ${message}`);
  return payload;
}

// A connection to `redisUrl` that logs in as the URL says and then sends `commands` (RESP).
function connect(redisUrl, commands) {
  const { hostname, port } = new URL(redisUrl);
  const socket = net.connect(Number(port || 6379), hostname || '127.0.0.1');
  socket.write(loginCommands(redisUrl).text + commands);  // sent once connected
  return socket;
}

// Calls `onReply` with each RESP value `socket` receives, in order, however its bytes are split;
// when onReply returns false, the rest of that chunk is left unread.
function onReplies(socket, onReply) {
  let buffer = Buffer.alloc(0);
  socket.on('data', (chunk) => {
    buffer = Buffer.concat([buffer, chunk]);
    for (;;) {
      const parsed = parse(buffer, 0);
      if (!parsed) return;
      buffer = buffer.subarray(parsed[1]);
      if (onReply(parsed[0]) === false) return;
    }
  });
}

// One connection to `redisUrl` for any number of PUBLISHes, answered in order; resolves once it
// has logged in. publish(channel, message) sends `message` as given (sign it first: signUpdate) and
// resolves with the number of subscribers that received it, or rejects with Redis's error.
export async function publisher(redisUrl) {
  const socket = connect(redisUrl, '');
  socket.setNoDelay(true);  // a benchmark times each publish (bench/ws-fanout.mjs)
  const waiting = [];
  const reply = () => new Promise((resolve, reject) => waiting.push({ resolve, reject }));
  onReplies(socket, (value) => {
    const waiter = waiting.shift();
    if (value instanceof RespError) waiter.reject(new Error(`Redis answered ${value.message}`));
    else waiter.resolve(value);
  });
  socket.on('error', (error) => { for (const waiter of waiting.splice(0)) waiter.reject(error); });
  await Promise.all(Array.from({ length: loginCommands(redisUrl).replies }, reply));
  return {
    publish(channel, message) {
      const answered = reply();
      socket.write(respCommand('PUBLISH', channel, message));
      return answered;
    },
    close() { socket.end(); },
  };
}

// PUBLISH `message` (as given: sign it first) on `channel` over a fresh connection to `redisUrl`;
// resolves with the number of subscribers that received it, rejects with Redis's error.
export async function publishRaw(redisUrl, channel, message) {
  const connection = await publisher(redisUrl);
  try {
    return await connection.publish(channel, message);
  } finally {
    connection.close();
  }
}

class RespError extends Error {}

// Parses one RESP value from `buffer` at `offset`; returns [value, next offset] or null when the
// buffer holds only part of it.
function parse(buffer, offset) {
  const end = buffer.indexOf('\r\n', offset);
  if (end < 0) return null;
  const kind = String.fromCharCode(buffer[offset]);
  const line = buffer.toString('utf8', offset + 1, end);
  if (kind === '+') return [line, end + 2];
  if (kind === '-') return [new RespError(line), end + 2];
  if (kind === ':') return [Number(line), end + 2];
  if (kind === '$') {
    const length = Number(line);
    if (length < 0) return [null, end + 2];
    if (buffer.length < end + 2 + length + 2) return null;
    return [buffer.toString('utf8', end + 2, end + 2 + length), end + 2 + length + 2];
  }
  if (kind === '*') {
    const items = [];
    let next = end + 2;
    for (let i = 0; i < Number(line); i++) {
      const parsed = parse(buffer, next);
      if (!parsed) return null;
      items.push(parsed[0]);
      next = parsed[1];
    }
    return [items, next];
  }
  throw new Error(`unexpected RESP type ${kind}`);
}

// Subscribes to `channel` at `redisUrl`. Returns {messages, next(timeoutMs), close()}: messages
// collects every message (as published: see openUpdate); next() resolves with the next one.
export async function subscribe(redisUrl, channel) {
  const socket = connect(redisUrl, respCommand('SUBSCRIBE', channel));
  const messages = [];
  const waiters = [];
  let subscribed;
  const ready = new Promise((resolve, reject) => { subscribed = resolve; socket.on('error', reject); });
  onReplies(socket, (reply) => {
    if (reply instanceof RespError) { socket.destroy(reply); return false; }
    if (!Array.isArray(reply)) return true;  // a login's +OK
    const [kind, , payload] = reply;
    if (kind === 'subscribe') subscribed();
    if (kind === 'message') {
      messages.push(payload);
      const waiter = waiters.shift();
      if (waiter) waiter(payload);
    }
    return true;
  });
  await ready;
  let consumed = 0;
  return {
    messages,
    // The next message not yet returned by next().
    next(timeoutMs = 10000) {
      if (consumed < messages.length) return Promise.resolve(messages[consumed++]);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no message on ${channel} in ${timeoutMs} ms`)), timeoutMs);
        waiters.push((message) => { clearTimeout(timer); consumed++; resolve(message); });
      });
    },
    close() { socket.destroy(); },
  };
}
