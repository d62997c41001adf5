// Graph changes reach Redis subscribers on netgraph:graph through the outbox relay, also when Redis
// was down while the change committed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { holdLock, psql } from '../support/postgres.mjs';
import { stackStart, waitFor } from '../support/stack.mjs';
import { openUpdate, subscribe } from '../support/redis.mjs';
import { graphqlWsClient, stopRedis, subscribe as subscribeOverWebSocket } from '../support/websocket.mjs';
import { claim, issueVouchers, newUser, randomWallet, RFC3339_UTC } from '../support/api.mjs';

const CHANNEL = 'netgraph:graph';

function assertClaimUpdate(update, user) {
  assert.equal(typeof update.sequence, 'number');
  const types = update.nodes.map((n) => n.type).sort();
  assert.deepEqual(types, ['Investor', 'Round', 'Wallet']);
  assert.deepEqual(update.links.map((l) => l.type).sort(), ['INVESTED_IN', 'OWNS']);
  assert.equal(update.metadata.nodeCount, 3);
  assert.equal(update.metadata.linkCount, 2);
  assert.match(update.metadata.lastUpdated, RFC3339_UTC);
  const text = JSON.stringify(update);
  assert.ok(!text.includes(user.did) && !text.includes('@') && !text.includes('did:'));
}

test('a claim publishes a NetworkUpdate on netgraph:graph', async () => {
  const subscriber = await subscribe(process.env.REDIS_URL, CHANNEL);
  try {
    const user = newUser('live', { email: 'live@example.com' });
    const wallet = randomWallet();
    const [code] = issueVouchers(2);
    assert.equal((await claim(user.token, code, wallet)).success, true);
    const update = JSON.parse(openUpdate(await subscriber.next(), CHANNEL));
    assertClaimUpdate(update, user);
    assert.ok(!JSON.stringify(update).includes(wallet), 'wallets appear under opaque ids');

    // Sequences increase by one per committed change.
    const [second] = issueVouchers(2);
    assert.equal((await claim(newUser('live2').token, second, randomWallet())).success, true);
    assert.equal(JSON.parse(openUpdate(await subscriber.next(), CHANNEL)).sequence, update.sequence + 1);
  } finally {
    subscriber.close();
  }
});

test('a claim reaches networkUpdated subscribers over WebSocket', async () => {
  const client = graphqlWsClient();
  const subscription = subscribeOverWebSocket(client, {
    query: 'subscription { networkUpdated { nodes { id type labels } links { source target type } '
      + 'metadata { nodeCount linkCount lastUpdated } } }',
  });
  try {
    // The subscription may not be in place yet when the first claim commits: claim until one arrives.
    let result = null;
    for (let attempt = 0; attempt < 20 && !result; attempt++) {
      const user = newUser('ws');
      const [code] = issueVouchers(1);
      assert.equal((await claim(user.token, code, randomWallet())).success, true);
      result = await subscription.until((s) => s.results[0], 'an update', 1000).catch(() => null);
    }
    assert.ok(result, 'an update arrived');
    const update = result.data.networkUpdated;
    assert.deepEqual(update.nodes.map((n) => n.type).sort(), ['Investor', 'Round', 'Wallet']);
    assert.deepEqual(update.links.map((l) => l.type).sort(), ['INVESTED_IN', 'OWNS']);
    assert.equal(update.metadata.nodeCount, 3);
    assert.match(update.metadata.lastUpdated, RFC3339_UTC);
    assert.equal(typeof result.extensions.publisherSequence, 'number', 'the outbox sequence');
  } finally {
    subscription.unsubscribe();
    await client.dispose();
  }
});

// The relay's advisory lock (core/store/outbox.cc): holding it keeps the relay from publishing.
const RELAY_LOCK = '7305218764022';

test('with Redis stopped during a claim, the update arrives once Redis is back', async (t) => {
  const before = await subscribe(process.env.REDIS_URL, CHANNEL);
  const [warmup] = issueVouchers(1);
  assert.equal((await claim(newUser('warmup').token, warmup, randomWallet())).success, true);
  // The newest row once the relay has published everything: an update of an earlier test still on
  // its way when this one subscribed must not pass for the warm-up's.
  await waitFor(() => psql('SELECT count(*) FROM outbox WHERE published_at IS NULL') === '0',
    { what: 'the relay to publish every row' });
  const last = Number(psql('SELECT max(id) FROM outbox'));
  while (JSON.parse(openUpdate(await before.next(), CHANNEL)).sequence < last);
  before.close();

  // Whatever this test finds, the suites after it need Redis (scripts/stack start leaves a running
  // one alone).
  t.after(() => stackStart('redis'));
  await stopRedis();

  const user = newUser('outage');
  const [code] = issueVouchers(4);
  assert.equal((await claim(user.token, code, randomWallet())).success, true, 'claims work without Redis');
  await new Promise((resolve) => setTimeout(resolve, 1500));  // the relay fails to publish meanwhile
  assert.equal(psql(`SELECT count(*) FROM outbox WHERE id = ${last + 1} AND published_at IS NULL`), '1',
    'the update waits in the outbox');

  // Redis pub/sub keeps nothing for late subscribers, so hold the relay off (with its own lock)
  // until this test subscribes to the restarted Redis.
  const holder = await holdLock(`SELECT pg_advisory_lock(${RELAY_LOCK})`);
  let after;
  try {
    stackStart('redis');  // restarts Redis
    after = await subscribe(process.env.REDIS_URL, CHANNEL);
  } finally {
    await holder.release();
  }
  try {
    const update = JSON.parse(openUpdate(await after.next(15000), CHANNEL));
    assert.equal(update.sequence, last + 1, 'nothing was lost');
    assertClaimUpdate(update, user);
    await waitFor(() => psql(`SELECT published_at IS NOT NULL FROM outbox WHERE id = ${last + 1}`) === 't',
      { what: 'the row marked published' });
  } finally {
    after.close();
  }
});
