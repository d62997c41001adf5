// WebSocket pings (ws/keepalive.h): netgraph-ws pings a connection NETGRAPH_WS_PING_INTERVAL_MS after
// it opened or last answered, and hangs up on one that leaves a ping unanswered for
// NETGRAPH_WS_PONG_TIMEOUT_MS. A netgraph-ws of the build runs beside the stack's with both at one
// second, and the clients talk to its socket directly, as nginx does.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import WebSocket from 'ws';
import { binDir } from '../support/daemon.mjs';
import { runDir, waitFor } from '../support/stack.mjs';

const socketPath = path.join(runDir, `ws-keepalive-${process.pid}.sock`);
rmSync(socketPath, { force: true });
const daemon = spawn(path.join(binDir, 'netgraph-ws'), [], {
  env: { ...process.env, NETGRAPH_WS_LISTEN: socketPath, NETGRAPH_WS_PING_INTERVAL_MS: '1000', NETGRAPH_WS_PONG_TIMEOUT_MS: '1000' },
  stdio: ['ignore', 'ignore', 'inherit'],
});
after(() => { daemon.kill('SIGTERM'); rmSync(socketPath, { force: true }); });
await waitFor(() => existsSync(socketPath), { timeoutMs: 30000, what: 'the test\'s netgraph-ws to listen' });

// An acknowledged graphql-transport-ws connection that counts the pings it gets; with `answer`
// false it never sends a pong.
async function connect({ answer }) {
  const socket = new WebSocket(`ws+unix://${socketPath}:/graphql`, 'graphql-transport-ws', { autoPong: answer });
  socket.pings = 0;
  socket.on('ping', () => { socket.pings += 1; });
  socket.closed = new Promise((resolve) => socket.once('close', (code) => resolve({ code, at: Date.now() })));
  await new Promise((resolve, reject) => { socket.once('open', resolve); socket.once('error', reject); });
  const ack = new Promise((resolve) => socket.once('message', (data) => resolve(JSON.parse(data.toString()))));
  socket.send('{"type":"connection_init"}');
  assert.equal((await ack).type, 'connection_ack');
  return socket;
}

test('a client that answers pings is pinged every interval and stays connected', { timeout: 30000 }, async () => {
  const socket = await connect({ answer: true });
  let closed = false;
  socket.closed.then(() => { closed = true; });
  // Pings at about 1, 2, 3 and 4 s (each up to a second late: the server checks once a second).
  await waitFor(() => socket.pings >= 3 || closed, { timeoutMs: 15000, what: 'three pings' });
  assert.equal(closed, false, 'the server hung up on a client that answered its pings');
  socket.close(1000);
});

test('a client that leaves a ping unanswered is hung up on', { timeout: 30000 }, async () => {
  const socket = await connect({ answer: false });
  const opened = Date.now();
  const { at } = await socket.closed;
  assert.ok(socket.pings >= 1, 'no ping came before the hang-up');
  // The ping a second or more after the connection opened, the hang-up a second or more after the
  // ping (each up to a second late: the server checks once a second); generous on a busy machine.
  assert.ok(at - opened >= 1500, `hung up after ${at - opened} ms, before the ping was due an answer`);
  assert.ok(at - opened <= 12000, `hung up only after ${at - opened} ms`);
});
