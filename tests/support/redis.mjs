// A minimal Redis subscriber (RESP2 over node:net): enough to watch a pub/sub channel in tests.
import net from 'node:net';

// Parses one RESP value from `buffer` at `offset`; returns [value, next offset] or null when the
// buffer holds only part of it.
function parse(buffer, offset) {
  const end = buffer.indexOf('\r\n', offset);
  if (end < 0) return null;
  const kind = String.fromCharCode(buffer[offset]);
  const line = buffer.toString('utf8', offset + 1, end);
  if (kind === '+' || kind === '-') return [line, end + 2];
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

// Subscribes to `channel` at redis://host:port. Returns {messages, next(timeoutMs), close()}:
// messages collects every message; next() resolves with the next one.
export async function subscribe(redisUrl, channel) {
  const { hostname, port } = new URL(redisUrl);
  const socket = net.createConnection(Number(port), hostname);
  const messages = [];
  const waiters = [];
  let buffer = Buffer.alloc(0);
  let subscribed;
  const ready = new Promise((resolve, reject) => { subscribed = resolve; socket.on('error', reject); });
  socket.on('data', (data) => {
    buffer = Buffer.concat([buffer, data]);
    for (;;) {
      const parsed = parse(buffer, 0);
      if (!parsed) break;
      buffer = buffer.subarray(parsed[1]);
      const [kind, , payload] = parsed[0];
      if (kind === 'subscribe') subscribed();
      if (kind === 'message') {
        messages.push(payload);
        const waiter = waiters.shift();
        if (waiter) waiter(payload);
      }
    }
  });
  socket.write(`*2\r\n$9\r\nSUBSCRIBE\r\n$${Buffer.byteLength(channel)}\r\n${channel}\r\n`);
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
