// Queries and mutations sent over WebSocket run on netgraph-ws's database threads
// (ws/database_workers.h), not on its event loop: while one client's statements wait on a row lock
// (a test's own psql session holds it, so each waits lock_timeout, 2 s), another client's pings
// are answered at once. On one thread they waited for every one of those statements in turn.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { CLAIM, issueVouchers, newUser, portfolio, randomWallet } from '../support/api.mjs';
import { lockUserRow } from '../support/postgres.mjs';
import { RawSocket } from '../support/websocket.mjs';

const claims = 3;

test('statements waiting on a lock for one client do not hold up another client\'s pings', { timeout: 120000 }, async (t) => {
  const user = newUser('ws-off-loop');
  assert.equal((await portfolio(user.token)).success, true, 'the first request creates the user row');
  const codes = issueVouchers(5, { count: claims + 1 });
  const busy = new RawSocket();
  const other = new RawSocket();
  t.after(() => Promise.all([busy.close(), other.close()]));
  await busy.init({ Authorization: `Bearer ${user.token}` });
  await other.init();

  const lock = await lockUserRow(user);
  t.after(() => lock.release());
  const claim = (id, code) => busy.send({
    id, type: 'subscribe', payload: { query: CLAIM, variables: { code, wallet: randomWallet() } },
  });
  for (let i = 0; i < claims; i++) claim(`claim-${i}`, codes[i]);
  let answered = false;
  const answers = Promise.all(Array.from({ length: claims }, (_, i) =>
    busy.next((m) => m.id === `claim-${i}` && m.type === 'next', 60000)))
    .finally(() => { answered = true; });

  const latencies = [];
  while (!answered) {
    const n = latencies.length;
    const started = performance.now();
    other.send({ type: 'ping', payload: { n } });
    await other.next((m) => m.type === 'pong' && m.payload?.n === n, 60000);
    latencies.push(performance.now() - started);
    await sleep(50);
  }
  // Each claim failed cleanly once lock_timeout passed.
  for (const answer of await answers) {
    assert.equal(answer.payload.data?.claimVoucher ?? null, null);
    assert.deepEqual(answer.payload.errors.map((e) => e.message), ['Internal server error']);
  }
  const worst = Math.max(...latencies);
  t.diagnostic(`${latencies.length} pings while the claims waited, the slowest answered in ${worst.toFixed(0)} ms`);
  assert.ok(latencies.length >= 5, `pings went on while the claims waited (${latencies.length})`);
  // On one thread the first ping waited for all the claims (3 × 2 s); the bound is a quarter of it.
  assert.ok(worst < 1500, `the slowest ping was answered in ${worst.toFixed(0)} ms`);

  // Once the row is free, a mutation over the socket goes through the same threads and succeeds.
  await lock.release();
  claim('claim-free', codes[claims]);
  const free = await busy.next((m) => m.id === 'claim-free' && m.type === 'next', 30000);
  assert.equal(free.payload.data.claimVoucher.success, true, JSON.stringify(free.payload));
  await busy.next((m) => m.id === 'claim-free' && m.type === 'complete');
});
