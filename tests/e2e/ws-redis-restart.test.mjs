// Redis restarts under live subscribers: netgraph-ws reconnects with back-off, subscribes again,
// and updates published once Redis is back reach every subscriber with no client reconnecting.
// Nothing was published while Redis was away, and the ws process catches up from the outbox when it
// subscribes again (ws/update_feed.h), so the sequence numbers go on without a skip: no client
// resynchronises for nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  RawSocket, mentionsAny, networkUpdate, publish, publishUntilDelivered, publishUntilReceived,
  restartRedis, uniqueMarker,
} from '../support/websocket.mjs';

const clientCount = 100;

test('after a Redis restart, 100 subscribers get new updates without reconnecting', { timeout: 120000 }, async () => {
  const sockets = [];
  for (let i = 0; i < clientCount; i++) sockets.push(new RawSocket());
  let closes = 0;
  for (const socket of sockets) socket.closed.then(() => { closes += 1; });
  try {
    await Promise.all(sockets.map((socket) => socket.init()));
    for (const socket of sockets) {
      socket.send({ id: 'graph', type: 'subscribe', payload: { query: 'subscription { networkUpdated { nodes { id } } }' } });
    }
    // Every subscriber receives updates before the restart.
    await publishUntilReceived((markers) =>
      sockets.every((socket) => socket.messages.some((m) => mentionsAny(m, markers))));
    const before = uniqueMarker('before');
    await publish(networkUpdate(before));
    const lastBefore = await Promise.all(sockets.map((socket) =>
      socket.next((m) => m.type === 'next' && mentionsAny(m, [before]))));

    await restartRedis();

    // Once the ws process has subscribed again, an update reaches everyone.
    const after = await publishUntilDelivered((marker) => networkUpdate(marker), { timeoutMs: 30000 });
    const firstAfter = await Promise.all(sockets.map((socket) =>
      socket.next((m) => m.type === 'next' && mentionsAny(m, [after]), 15000)));
    assert.equal(closes, 0, 'no client was disconnected');
    for (let i = 0; i < clientCount; i++) {
      assert.equal(firstAfter[i].id, 'graph');
      const gap = firstAfter[i].payload.extensions.sequence - lastBefore[i].payload.extensions.sequence;
      assert.equal(gap, 1, 'nothing was lost: the sequence goes on');
    }
    // And the stream goes on as usual.
    const later = uniqueMarker('later');
    assert.ok(await publish(networkUpdate(later)) >= 1);
    await Promise.all(sockets.map((socket) =>
      socket.next((m) => m.type === 'next' && mentionsAny(m, [later]))));
    assert.equal(closes, 0);
  } finally {
    await Promise.all(sockets.map((socket) => socket.close()));
  }
});
