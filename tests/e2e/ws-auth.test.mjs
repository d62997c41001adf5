// Credentials over WebSocket: the token of connection_init (or of the upgrade request) is checked
// with the same code as HTTP, and queries on the socket run as that user.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { claimsFor, devKey, now, signJwt, tokenFor } from '../support/jwt.mjs';
import { RawSocket } from '../support/websocket.mjs';

const portfolioQuery = '{ getUserPortfolio { success error } }';

async function query(socket, id, text) {
  socket.send({ id, type: 'subscribe', payload: { query: text } });
  const next = await socket.next((m) => m.id === id);
  assert.equal(next.type, 'next');
  assert.deepEqual(await socket.next((m) => m.id === id), { id, type: 'complete' });
  return next.payload;
}

test('a valid token in connection_init is acknowledged and queries run as that user', async () => {
  const socket = new RawSocket();
  try {
    await socket.init({ Authorization: `Bearer ${tokenFor(`did:example:ws-${process.pid}-${Date.now()}`)}` });
    const result = await query(socket, 'p', portfolioQuery);
    assert.equal(result.errors, undefined);
    assert.deepEqual(result.data.getUserPortfolio, { success: true, error: null });
  } finally {
    await socket.close();
  }
});

test('a valid token in the upgrade request is used when connection_init has none', async () => {
  const token = tokenFor(`did:example:ws-header-${process.pid}-${Date.now()}`);
  const socket = new RawSocket('graphql-transport-ws', { headers: { Authorization: `Bearer ${token}` } });
  try {
    await socket.init({});
    const result = await query(socket, 'p', portfolioQuery);
    assert.equal(result.data.getUserPortfolio.success, true);
  } finally {
    await socket.close();
  }
});

test('an anonymous connection queries as nobody', async () => {
  const socket = new RawSocket();
  try {
    await socket.init();
    const result = await query(socket, 'p', portfolioQuery);
    assert.deepEqual(result.data.getUserPortfolio, { success: false, error: 'Authentication required' });
  } finally {
    await socket.close();
  }
});

test('an expired token is refused with 4403', async () => {
  const expired = signJwt({ alg: 'ES256', typ: 'JWT' },
    claimsFor('did:example:expired', { iat: now() - 7200, exp: now() - 3600 }), devKey());
  const socket = new RawSocket();
  await socket.opened;
  socket.send({ type: 'connection_init', payload: { authToken: expired } });
  const closed = await socket.closedWithin(10000);
  assert.equal(closed.code, 4403);
  assert.equal(closed.reason, 'Forbidden');
});
