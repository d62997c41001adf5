// Replaying, on Redis, an update the outbox relay signed for an earlier epoch (a database since reset
// or restored). The message is genuine: its MAC verifies, and it carries its epoch and publisher
// sequence under the MAC. netgraph-ws asks the outbox which epoch it is in before it follows one it
// does not follow (ws/update_feed.h): the replay reaches no subscriber and leaves the numbering
// alone, so the next genuine update follows the last one delivered without a skip. Before, the
// replay was delivered and reset the process's tracking to the old epoch.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { claim, issueVouchers, newUser, randomWallet } from '../support/api.mjs';
import { psql } from '../support/postgres.mjs';
import { openUpdate, publishRaw, subscribe as subscribeToRedis } from '../support/redis.mjs';
import { RawSocket, graphChannel, mentionsAny, publishUntilReceived, redisUrl } from '../support/websocket.mjs';

const query = 'subscription { networkUpdated { nodes { id type } } }';

async function claimOne(label) {
  const [code] = issueVouchers(5);
  const result = await claim(newUser(label).token, code, randomWallet());
  assert.equal(result.success, true, JSON.stringify(result));
}

// Waits for the update of publisher sequence `publisherSequence` on `socket`.
function received(socket, publisherSequence) {
  return socket.next((m) => m.type === 'next' &&
    m.payload.extensions?.publisherSequence === publisherSequence, 15000);
}

test('an update of an earlier epoch replayed on Redis is not delivered and does not reset the numbering', { timeout: 120000 }, async (t) => {
  const socket = new RawSocket();
  const delivered = [];  // every update the subscriber received, in order
  socket.socket.on('message', (data) => {
    const message = JSON.parse(data.toString());
    if (message.type === 'next' && message.id === 'graph') delivered.push(message.payload);
  });
  await socket.init();
  t.after(() => socket.close());
  socket.send({ id: 'graph', type: 'subscribe', payload: { query } });
  await publishUntilReceived((markers) => socket.messages.some((m) => mentionsAny(m, markers)));
  const redis = await subscribeToRedis(redisUrl.href, graphChannel);
  t.after(() => redis.close());

  // A genuine update of the current epoch, captured as the relay published it.
  await claimOne('replay-captured');
  const captured = await redis.next(15000);
  const capturedUpdate = JSON.parse(openUpdate(captured, graphChannel));
  await received(socket, capturedUpdate.sequence);

  // The outbox moves to a new epoch, as when the relay finds its database restored
  // (core/domain/outbox_relay.h); the next update goes out in it and the subscriber follows.
  psql('UPDATE outbox_sequence SET epoch = gen_random_uuid()::text, epoch_start = last_id');
  await claimOne('replay-new-epoch');
  const first = JSON.parse(openUpdate(await redis.next(15000), graphChannel));
  assert.notEqual(first.epoch, capturedUpdate.epoch, 'the update goes out in the new epoch');
  const followed = await received(socket, first.sequence);

  // The replay: the very bytes the relay published, signed and all.
  assert.ok(await publishRaw(redisUrl.href, graphChannel, captured) >= 1, 'netgraph-ws got the replay');
  assert.equal(await redis.next(15000), captured);
  await claimOne('replay-after');
  const next = JSON.parse(openUpdate(await redis.next(15000), graphChannel));
  const after = await received(socket, next.sequence);

  const at = (payload) => delivered.findIndex((p) => JSON.stringify(p) === JSON.stringify(payload));
  const between = delivered.slice(at(followed.payload) + 1, at(after.payload));
  assert.deepEqual(between, [], 'nothing was delivered between the two genuine updates: not the replay');
  assert.equal(delivered.filter((p) => p.extensions?.publisherSequence === capturedUpdate.sequence).length,
    1, 'the captured update was delivered once, when it was genuine');
  assert.equal(after.payload.extensions.sequence, followed.payload.extensions.sequence + 1,
    'the numbering goes on from the new epoch: the replay did not reset it');
  assert.equal(after.payload.extensions.publisherSequence, first.sequence + 1);
});
