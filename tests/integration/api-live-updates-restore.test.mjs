// A database restored from an earlier dump under live subscribers (issue 22, finding 7): pg_restore
// brings back the outbox's epoch and a last id from before updates the subscribers have received,
// so the ids taken again would be dropped by netgraph-ws as repeats. The relay finds the database
// no longer holds what it published, starts a new epoch (core/domain/outbox_relay.h), and the
// subscriber receives the next claim, with a skip in its sequence that tells it to resynchronise.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { claim, issueVouchers, newUser, randomWallet } from '../support/api.mjs';
import { psql } from '../support/postgres.mjs';
import { runDir } from '../support/stack.mjs';
import { graphqlWsClient, subscribe } from '../support/websocket.mjs';

const query = 'subscription { networkUpdated { nodes { id type } } }';

async function claimOne(label) {
  const [code] = issueVouchers(5);
  const result = await claim(newUser(label).token, code, randomWallet());
  assert.equal(result.success, true, JSON.stringify(result));
}

const numbered = (subscription) =>
  subscription.results.filter((r) => typeof r.extensions?.publisherSequence === 'number');

// Claims and waits until the subscriber has received one more claim's update; returns it.
async function claimReceived(subscription, label) {
  const before = numbered(subscription).length;
  await claimOne(label);
  return subscription.until((s) => numbered(s).slice(before)
    .find((r) => r.data.networkUpdated.nodes.some((n) => n.type === 'Investor')),
  `the update of claim ${label}`, 15000);
}

test('after pg_restore of an earlier dump, a live subscriber receives the next claim', { timeout: 180000 }, async (t) => {
  const client = graphqlWsClient();
  const subscription = subscribe(client, { query });
  t.after(async () => { subscription.unsubscribe(); await client.dispose(); });
  await subscription.warmUp();
  await claimReceived(subscription, 'restore-before-dump');

  const dump = path.join(runDir, `restore-test-${process.pid}.dump`);
  t.after(() => rmSync(dump, { force: true }));
  execFileSync('pg_dump', ['--format=custom', `--file=${dump}`, process.env.DATABASE_URL]);
  const epoch = psql('SELECT epoch FROM outbox_sequence');
  const dumped = Number(psql('SELECT last_id FROM outbox_sequence'));

  // Updates the dump does not hold reach the subscriber.
  await claimReceived(subscription, 'restore-after-dump-1');
  const lastBefore = await claimReceived(subscription, 'restore-after-dump-2');
  assert.ok(lastBefore.extensions.publisherSequence > dumped);

  // The services keep running while the dump is restored into their database.
  execFileSync('pg_restore', ['--clean', '--if-exists', '--single-transaction', '--no-owner',
    '--no-acl', `--dbname=${process.env.DATABASE_URL}`, dump]);
  assert.equal(Number(psql('SELECT last_id FROM outbox_sequence')), dumped, 'the outbox is rewound');
  assert.equal(psql('SELECT epoch FROM outbox_sequence'), epoch, 'with the epoch of the dump');

  const next = await claimReceived(subscription, 'restore-after-restore');
  assert.equal(next.extensions.publisherSequence, dumped + 1, 'its id is taken again');
  assert.ok(next.extensions.sequence >= lastBefore.extensions.sequence + 2,
    'the sequence skips: the subscriber resynchronises with the restored database');
  assert.notEqual(psql('SELECT epoch FROM outbox_sequence'), epoch, 'the relay started a new epoch');
  assert.equal(Number(psql('SELECT epoch_start FROM outbox_sequence')), dumped);

  const after = await claimReceived(subscription, 'restore-after-restore-2');
  assert.equal(after.extensions.publisherSequence, dumped + 2);
  assert.equal(after.extensions.sequence, next.extensions.sequence + 1, 'and goes on one by one');
});
