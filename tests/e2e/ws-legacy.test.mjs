// The legacy graphql-ws subprotocol (subscriptions-transport-ws) through nginx.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RawSocket, mentionsAny, publishUntilReceived } from '../support/websocket.mjs';

const legacy = () => new RawSocket('graphql-ws');

test('the legacy subprotocol is negotiated, acknowledged and kept alive', async () => {
  const socket = legacy();
  await socket.opened;
  assert.equal(socket.socket.protocol, 'graphql-ws');
  socket.send({ type: 'connection_init', payload: {} });
  assert.deepEqual(await socket.next(), { type: 'connection_ack' });
  assert.deepEqual(await socket.next(), { type: 'ka' });
  await socket.close();
});

test('a client offering both subprotocols gets the one it lists first', async () => {
  const socket = new RawSocket(['graphql-transport-ws', 'graphql-ws']);
  await socket.opened;
  assert.equal(socket.socket.protocol, 'graphql-transport-ws');
  await socket.close();
});

test('start delivers data on updates, and stop ends with complete', async () => {
  const socket = legacy();
  await socket.init({});
  socket.send({ id: '1', type: 'start', payload: { query: 'subscription { networkUpdated { nodes { id } } }' } });
  const data = await publishUntilReceived((markers) =>
    socket.take((m) => m.type === 'data' && mentionsAny(m, markers)));
  assert.equal(data.id, '1');
  assert.equal(data.payload.data.networkUpdated.nodes.length, 1);
  assert.equal(typeof data.payload.extensions.sequence, 'number');
  socket.send({ id: '1', type: 'stop' });
  assert.deepEqual(await socket.next((m) => m.type === 'complete'), { id: '1', type: 'complete' });
  await socket.close();
});

test('a query is answered with data then complete', async () => {
  const socket = legacy();
  await socket.init({});
  socket.send({ id: 'q', type: 'start', payload: { query: '{ __typename }' } });
  assert.deepEqual(await socket.next((m) => m.id === 'q'),
    { id: 'q', type: 'data', payload: { data: { __typename: 'Query' } } });
  assert.deepEqual(await socket.next((m) => m.id === 'q'), { id: 'q', type: 'complete' });
  await socket.close();
});

test('a validation error is data with errors, then complete', async () => {
  const socket = legacy();
  await socket.init({});
  socket.send({ id: 'v', type: 'start', payload: { query: 'subscription { nope }' } });
  const data = await socket.next((m) => m.id === 'v');
  assert.equal(data.type, 'data');
  assert.match(data.payload.errors[0].message, /nope/);
  assert.deepEqual(await socket.next((m) => m.id === 'v'), { id: 'v', type: 'complete' });
  await socket.close();
});

test('bad messages get connection_error or error and the socket stays open', async () => {
  const socket = legacy();
  await socket.init({});
  socket.send('{not json');
  const connectionError = await socket.next((m) => m.type === 'connection_error');
  assert.equal(typeof connectionError.payload.message, 'string');
  socket.send({ id: '9', type: 'unheard_of' });
  assert.deepEqual(await socket.next((m) => m.type === 'error'),
    { id: '9', type: 'error', payload: { message: 'Invalid message type!' } });
  socket.send({ id: 'q', type: 'start', payload: { query: '{ __typename }' } });
  assert.equal((await socket.next((m) => m.id === 'q')).type, 'data');
  await socket.close();
});

test('a forged token gets connection_error and the socket is closed', async () => {
  const socket = legacy();
  await socket.opened;
  socket.send({ type: 'connection_init', payload: { authToken: 'forged.token.value' } });
  const error = await socket.next((m) => m.type === 'connection_error');
  assert.equal(error.payload.message, 'Forbidden');
  assert.equal((await socket.closed).code, 4403);
});

test('connection_terminate closes the socket normally', async () => {
  const socket = legacy();
  await socket.init({});
  socket.send({ type: 'connection_terminate' });
  assert.equal((await socket.closed).code, 1000);
});
