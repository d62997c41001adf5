// netgraph-ws catches up from the outbox (ws/update_feed.h): every graph change committed reaches
// every live subscriber, in outbox order and once, whatever Redis lost on the way. Subscribers of
// both protocols (the graphql-ws client and the legacy graphql-ws) are compared with the outbox.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { claim, issueVouchers, newUser, randomWallet } from '../support/api.mjs';
import { psql } from '../support/postgres.mjs';
import { readPid, waitFor } from '../support/stack.mjs';
import {
  RawSocket, graphqlWsClient, mentionsAny, publishUntilReceived, startRedis, stopRedis, subscribe,
  uniqueMarker,
} from '../support/websocket.mjs';

const query = 'subscription { networkUpdated { nodes { id type } } }';
const perProtocol = 4;

// Live subscribers of both protocols, each having received a warm-up update.
async function liveSubscribers() {
  const clients = [];
  const modern = [];
  const legacy = [];
  for (let i = 0; i < perProtocol; i++) {
    const client = graphqlWsClient();
    clients.push(client);
    modern.push(subscribe(client, { query }));
    const socket = new RawSocket('graphql-ws');
    await socket.init();
    socket.send({ id: 'graph', type: 'start', payload: { query } });
    legacy.push(socket);
  }
  const legacyResults = (socket) =>
    socket.messages.filter((m) => m.type === 'data' && m.id === 'graph').map((m) => m.payload);
  // Each subscriber's results as received, oldest first.
  const results = () => [...modern.map((s) => s.results), ...legacy.map(legacyResults)];
  await publishUntilReceived((markers) =>
    results().every((list) => list.some((r) => mentionsAny(r, markers))), { timeoutMs: 30000 });
  return {
    results,
    // Each subscriber's publisher numbers (the outbox ids), in the order received.
    numbers: () => results().map((list) => list.map((r) => r.extensions?.publisherSequence)
      .filter((n) => typeof n === 'number')),
    async close() {
      await Promise.all(clients.map((client) => client.dispose()));
      await Promise.all(legacy.map((socket) => socket.close()));
    },
  };
}

async function claimOne(label) {
  const [code] = issueVouchers(5);
  const result = await claim(newUser(label).token, code, randomWallet());
  assert.equal(result.success, true, JSON.stringify(result));
}

// Waits until every subscriber has received outbox id `id`.
function allReceived(subscribers, id, what) {
  return waitFor(() => subscribers.numbers().every((list) => list.includes(id)),
    { timeoutMs: 30000, what });
}

// The last outbox id every subscriber received (they must agree).
function commonLast(subscribers) {
  const lasts = subscribers.numbers().map((list) => list.at(-1));
  assert.equal(new Set(lasts).size, 1, `the subscribers agree on the last update: ${lasts}`);
  return lasts[0];
}

// Each subscriber's numbers after `start`, which must be exactly the outbox's ids after it.
function assertEveryoneGotTheOutboxAfter(subscribers, start) {
  const outbox = psql(`SELECT string_agg(id::text, ',' ORDER BY id) FROM outbox WHERE id > ${start}`)
    .split(',').map(Number);
  for (const list of subscribers.numbers()) {
    assert.deepEqual(list.slice(list.indexOf(start) + 1), outbox,
      'every update of the outbox, in order, once');
  }
  return outbox;
}

test('updates committed while Redis is down reach every subscriber, in order and once, when it is back', { timeout: 180000 }, async (t) => {
  const subscribers = await liveSubscribers();
  t.after(() => subscribers.close());
  await claimOne('catch-up-before');
  const [before] = psql('SELECT max(id) FROM outbox').split('\n').map(Number);
  await allReceived(subscribers, before, 'the update before the outage');
  const start = commonLast(subscribers);

  await stopRedis();
  // The race the issue found, made certain: the relay publishes what piled up before netgraph-ws
  // has subscribed again (its back-off reaches 5 s). Pub/sub gives those messages to no one.
  const ws = readPid('ws.pid');
  process.kill(ws, 'SIGSTOP');
  try {
    // They commit: the relay cannot publish them, the outbox keeps them.
    for (let i = 0; i < 4; i++) await claimOne(`catch-up-during-${i}`);
    await startRedis();
    await waitFor(() => psql('SELECT count(*) FROM outbox WHERE published_at IS NULL') === '0',
      { timeoutMs: 30000, what: 'the relay to publish the updates of the outage' });
  } finally {
    process.kill(ws, 'SIGCONT');
  }
  const during = Number(psql('SELECT max(id) FROM outbox'));
  assert.equal(during, start + 4);
  await allReceived(subscribers, during, 'the updates committed during the outage');
  // One more, to show the stream goes on, each update once.
  await claimOne('catch-up-after');
  await allReceived(subscribers, during + 1, 'the update after the outage');
  const ids = assertEveryoneGotTheOutboxAfter(subscribers, start);
  assert.equal(ids.length, 5);
});

test('a message lost on the way is read from the outbox before the next one is delivered', { timeout: 120000 }, async (t) => {
  const subscribers = await liveSubscribers();
  t.after(() => subscribers.close());
  await claimOne('gap-before');
  const start = Number(psql('SELECT max(id) FROM outbox'));
  await allReceived(subscribers, start, 'the first update');

  // An outbox row the relay takes as published, as if its PUBLISH had been lost (the epoch, when
  // the outbox has one, as the service writes it).
  const marker = uniqueMarker('lost');
  const lost = Number(psql(`WITH next AS (
      UPDATE outbox_sequence SET last_id = last_id + 1 RETURNING *)
    INSERT INTO outbox (id, channel, payload, published_at)
    SELECT last_id, 'netgraph:graph', json_build_object(
      'sequence', last_id, 'epoch', to_jsonb(next) ->> 'epoch',
      'nodes', json_build_array(json_build_object('id', '${marker}', 'type', 'Wallet', 'labels', json_build_array())),
      'links', json_build_array(),
      'metadata', json_build_object('nodeCount', 1, 'linkCount', 0, 'lastUpdated', '2026-11-26T00:00:00.000Z')
    )::text, now() FROM next RETURNING id`).split('\n')[0]);
  assert.equal(lost, start + 1);
  await claimOne('gap-after');
  await allReceived(subscribers, start + 2, 'the update after the lost one');
  assertEveryoneGotTheOutboxAfter(subscribers, start);
  for (const list of subscribers.results()) {
    const found = list.find((r) => r.extensions?.publisherSequence === lost);
    assert.ok(mentionsAny(found, [marker]), 'the lost update is the outbox row');
  }
});

test('after the outbox starts over in a new epoch (a reset database), its updates are delivered', { timeout: 120000 }, async (t) => {
  const subscribers = await liveSubscribers();
  t.after(() => subscribers.close());
  await claimOne('epoch-before');
  let previous = Number(psql('SELECT max(id) FROM outbox'));
  await allReceived(subscribers, previous, 'the update before the reset');

  // Twice: the second time, the subscribers' process has already delivered an update 1 (of the
  // previous database), which the new one must not be taken for.
  for (let reset = 1; reset <= 2; reset++) {
    // What a database dropped and migrated again looks like to the outbox: no rows, ids from 1,
    // and a new epoch starting at 0 (core/store/migrations/0004_outbox_epoch.sql, 0005).
    psql('DELETE FROM outbox; UPDATE outbox_sequence SET last_id = 0, epoch_start = 0, epoch = gen_random_uuid()::text');
    const seen = subscribers.numbers().map((list) => list.length);
    await claimOne(`epoch-after-${reset}`);
    await waitFor(() => subscribers.numbers().every((list, i) => list.length > seen[i]),
      { timeoutMs: 30000, what: `update 1 of the database reset ${reset} time(s)` });
    for (const list of subscribers.results()) {
      const numbered = list.filter((r) => typeof r.extensions?.publisherSequence === 'number');
      const [before, first] = numbered.slice(-2);
      assert.equal(before.extensions.publisherSequence, previous);
      assert.equal(first.extensions.publisherSequence, 1);
      assert.ok(first.extensions.sequence - before.extensions.sequence >= 2,
        'the sequence skips: clients resynchronise with the new database');
      assert.deepEqual(first.data.networkUpdated.nodes.map((n) => n.type).sort(),
        ['Investor', 'Round', 'Wallet']);
    }
    previous = 1;
  }
});
