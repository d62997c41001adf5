// What a WebSocket connection may do over its life: its token is honoured only until it expires
// (exp plus NETGRAPH_JWT_LEEWAY_SECONDS), then the server closes the socket with 4403 and nothing
// more runs as that user; and it may start operations only at NETGRAPH_WS_OPERATIONS_PER_SECOND
// (burst NETGRAPH_WS_OPERATIONS_BURST), past which it is closed with 4429.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CLAIM, claim, issueVouchers, newUser, randomWallet } from '../support/api.mjs';
import { now, tokenFor } from '../support/jwt.mjs';
import WebSocket from 'ws';
import { RawSocket } from '../support/websocket.mjs';

const leewaySeconds = Number(process.env.NETGRAPH_JWT_LEEWAY_SECONDS ?? 60);
const portfolioQuery = '{ getUserPortfolio { success error } }';

// A token the service accepts for about `seconds` more: its exp is already in the past by all but
// that much of the leeway.
function shortLivedToken(label, seconds) {
  const expiresAt = now() + seconds - leewaySeconds;
  const token = tokenFor(`did:example:${label}-${process.pid}-${Date.now()}`,
    { iat: expiresAt - 60, exp: expiresAt });
  return { token, acceptedUntilMs: (expiresAt + leewaySeconds) * 1000 };
}

async function waitUntil(timeMs) {
  while (Date.now() < timeMs) await new Promise((resolve) => setTimeout(resolve, 100));
}

for (const protocol of ['graphql-transport-ws', 'graphql-ws']) {
  const legacy = protocol === 'graphql-ws';
  const operation = legacy ? 'start' : 'subscribe';
  const resultType = legacy ? 'data' : 'next';

  test(`${protocol}: a token is honoured until it expires, then the socket is closed with 4403`, async () => {
    const [code] = issueVouchers(5);
    const { token, acceptedUntilMs } = shortLivedToken('ws-expiry', 6);
    const socket = new RawSocket(protocol);
    try {
      await socket.init({ Authorization: `Bearer ${token}` });
      socket.send({ id: 'before', type: operation, payload: { query: portfolioQuery } });
      const before = await socket.next((m) => m.id === 'before' && m.type === resultType);
      assert.deepEqual(before.payload.data.getUserPortfolio, { success: true, error: null });

      // Past the expiry (with a second to spare for clock rounding), the user's query and a claim
      // are sent if the socket is still open; neither may run.
      await waitUntil(acceptedUntilMs + 1000);
      socket.send({ id: 'after', type: operation, payload: { query: portfolioQuery } });
      socket.send({ id: 'claim', type: operation,
        payload: { query: CLAIM, variables: { code, wallet: randomWallet() } } });
      const closed = await socket.closedWithin(20000);
      assert.equal(closed.code, 4403);
      assert.equal(closed.reason, 'Forbidden: token expired');
      assert.equal(socket.take((m) => m.id === 'after' || m.id === 'claim'), undefined);
      if (legacy) {
        assert.deepEqual(socket.take((m) => m.type === 'connection_error'),
          { type: 'connection_error', payload: { message: 'Forbidden: token expired' } });
      }
      // The voucher is still unclaimed: someone else can claim it.
      assert.equal((await claim(newUser('ws-expiry-other').token, code, randomWallet())).success, true);
    } finally {
      await socket.close();
    }
  });
}

test('a flood of operations is closed with 4429 while another client keeps working', async () => {
  const flooder = new RawSocket();
  const bystander = new RawSocket();
  try {
    await flooder.init();
    await bystander.init();
    // The default burst (100) at once, then 50 a second, past the default rate (20 a second), until
    // the server closes. Sending stops once its close frame is in: data still in flight when a
    // proxy hangs up would reset the TCP connection and hide the close code (1006).
    const send = (i) => flooder.send({ id: `f${i}`, type: 'subscribe', payload: { query: '{ __typename }' } });
    for (let i = 0; i < 100; i++) send(i);
    // The burst is within the limit: it runs (the limit is a rate, not a ban). Waiting for its first
    // answer before going on keeps a busy machine's slow answer from racing the close below.
    const first = await flooder.next((m) => m.id === 'f0');
    assert.equal(first.type, 'next');
    for (let i = 100; i < 1100 && flooder.socket.readyState === WebSocket.OPEN; i++) {
      send(i);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const closed = await flooder.closedWithin(30000);
    assert.equal(closed.code, 4429);
    assert.equal(closed.reason, 'Too many operations');

    bystander.send({ id: 'b', type: 'subscribe', payload: { query: '{ __typename }' } });
    const answer = await bystander.next((m) => m.id === 'b');
    assert.equal(answer.type, 'next');
    assert.deepEqual(answer.payload.data, { __typename: 'Query' });
  } finally {
    await flooder.close();
    await bystander.close();
  }
});
