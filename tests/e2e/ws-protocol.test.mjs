// graphql-transport-ws protocol violations through nginx: each gets its close code (ws/README.md,
// "Close codes"), and the process keeps serving everyone else.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import WebSocket from 'ws';
import {
  RawSocket, graphqlWsClient, subscribe, wsUrl,
} from '../support/websocket.mjs';

async function closedWith(socket, code, reason) {
  const closed = await socket.closedWithin(10000);
  assert.equal(closed.code, code, `close code (reason: ${closed.reason})`);
  if (reason instanceof RegExp) assert.match(closed.reason, reason);
  else if (reason !== undefined) assert.equal(closed.reason, reason);
  return closed;
}

test('no connection_init within the timeout closes 4408', async () => {
  const socket = new RawSocket();
  await socket.opened;
  const started = Date.now();
  await closedWith(socket, 4408, 'Connection initialisation timeout');
  const waited = Date.now() - started;
  assert.ok(waited >= 2500 && waited < 8000, `closed after ${waited} ms`);
});

test('subscribe before connection_ack closes 4401', async () => {
  const socket = new RawSocket();
  await socket.opened;
  socket.send({ id: '1', type: 'subscribe', payload: { query: 'subscription { networkUpdated { nodes { id } } }' } });
  await closedWith(socket, 4401, 'Unauthorized');
});

test('a second subscribe with a running id closes 4409', async () => {
  const socket = new RawSocket();
  await socket.init();
  const subscribeMessage = { id: 'dup', type: 'subscribe', payload: { query: 'subscription { networkUpdated { nodes { id } } }' } };
  socket.send(subscribeMessage);
  socket.send(subscribeMessage);
  await closedWith(socket, 4409, 'Subscriber for dup already exists');
});

test('a second connection_init closes 4429', async () => {
  const socket = new RawSocket();
  await socket.init();
  socket.send({ type: 'connection_init' });
  await closedWith(socket, 4429, 'Too many initialisation requests');
});

test('invalid JSON closes 4400', async () => {
  const socket = new RawSocket();
  await socket.opened;
  socket.send('{"type": "connection_init"');
  await closedWith(socket, 4400, /Invalid message/);
});

test('an unknown message type closes 4400', async () => {
  const socket = new RawSocket();
  await socket.init();
  socket.send({ type: 'subscribe_all_the_things' });
  await closedWith(socket, 4400, /subscribe_all_the_things/);
});

test('a message without a type closes 4400', async () => {
  const socket = new RawSocket();
  await socket.opened;
  socket.send({ payload: {} });
  await closedWith(socket, 4400, /Invalid message/);
});

test('no subprotocol closes 4406 after the upgrade', async () => {
  const socket = new WebSocket(wsUrl);
  const closed = await new Promise((resolve, reject) => {
    socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() }));
    socket.on('error', reject);
  });
  assert.equal(closed.code, 4406);
  assert.equal(closed.reason, 'Subprotocol not acceptable');
});

test('an unknown subprotocol is refused at the upgrade with 400', async () => {
  const socket = new RawSocket('graphql-over-carrier-pigeon');
  await assert.rejects(socket.opened, (error) => error.statusCode === 400);
});

test('a forged token in connection_init closes 4403', async () => {
  const socket = new RawSocket();
  await socket.opened;
  socket.send({ type: 'connection_init', payload: { Authorization: 'Bearer forged.token.value' } });
  await closedWith(socket, 4403, 'Forbidden');
});

test('a forged token as authToken closes 4403', async () => {
  const socket = new RawSocket();
  await socket.opened;
  socket.send({ type: 'connection_init', payload: { authToken: 'forged.token.value' } });
  await closedWith(socket, 4403, 'Forbidden');
});

test('a forged token in the upgrade request Authorization header closes 4403', async () => {
  const socket = new RawSocket('graphql-transport-ws', { headers: { Authorization: 'Bearer forged.token.value' } });
  await socket.opened;
  socket.send({ type: 'connection_init' });
  await closedWith(socket, 4403, 'Forbidden');
});

test('a connection without a token is acknowledged (networkUpdated is public)', async () => {
  const socket = new RawSocket();
  const ack = await socket.init({});
  assert.deepEqual(ack, { type: 'connection_ack' });
  await socket.close();
});

test('ping is answered with pong echoing the payload, even before the ack', async () => {
  const socket = new RawSocket();
  await socket.opened;
  socket.send({ type: 'ping', payload: { at: 12345 } });
  assert.deepEqual(await socket.next(), { type: 'pong', payload: { at: 12345 } });
  await socket.init();
  socket.send({ type: 'ping' });
  assert.deepEqual(await socket.next(), { type: 'pong' });
  socket.send({ type: 'pong', payload: { unsolicited: true } });
  socket.send({ type: 'ping', payload: { again: 1 } });
  assert.deepEqual(await socket.next(), { type: 'pong', payload: { again: 1 } });
  await socket.close();
});

test('complete for an unknown id is ignored', async () => {
  const socket = new RawSocket();
  await socket.init();
  socket.send({ id: 'never-started', type: 'complete' });
  socket.send({ type: 'ping', payload: { still: 'open' } });
  assert.deepEqual(await socket.next(), { type: 'pong', payload: { still: 'open' } });
  await socket.close();
});

test('after all those violations the process still serves subscribers', async () => {
  const violators = [];
  for (const bad of ['{oops', JSON.stringify({ type: 'what' }), JSON.stringify({ type: 'next', id: 'x', payload: {} })]) {
    const socket = new RawSocket();
    await socket.opened;
    socket.send(bad);
    violators.push(socket.closed);
  }
  for (const closed of await Promise.all(violators)) assert.equal(closed.code, 4400);
  const client = graphqlWsClient();
  try {
    const state = subscribe(client, { query: 'subscription { networkUpdated { nodes { id } } }' });
    const result = await state.warmUp();
    assert.ok(result.data.networkUpdated.nodes.length === 1);
  } finally {
    await client.dispose();
  }
});
