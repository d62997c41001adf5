// The user cache (the caller's user from memory while its row is unchanged: core/api/user_cache.h)
// on a real pool beside the stack's, over FastCGI: authenticated requests take their user from
// memory, their claims leave them there (a claim changes the user's portfolio, not the row), and a
// change of the user's row made by netgraphctl or in SQL reaches every worker within the freshness
// bound, the administrator flag included, both ways.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { netgraphctl, waitFor } from '../support/stack.mjs';
import {
  metricSample, onEveryWorker, poolData as data, poolMetrics, poolPost as post, startPool,
} from '../support/pool.mjs';
import { CLAIM, issueVouchers, newUser, randomWallet } from '../support/api.mjs';
import { psql } from '../support/postgres.mjs';

const ADMIN_ONLY = '{ allVouchers(first: 1) { id } }';
const isAdmin = (body) => {
  const { errors } = JSON.parse(body);
  if (errors === undefined) return true;
  assert.equal(errors[0].message, 'Admin access required', body);
  return false;
};

test('users come from memory, and a change of the row reaches every worker within the bound', async (t) => {
  const workers = 2;
  const pool = await startPool(t, 'user-cache', {}, { workers });
  // "Within 100 ms" on an idle machine; the assertion allows a loaded CI machine 1 s, which still
  // tells an invalidation from a TTL (there is none: without one the change is never seen).
  const bound = 1000;
  const user = newUser('user-cache');
  const onEvery = () => onEveryWorker(pool.socket, workers, ADMIN_ONLY, { token: user.token });
  const hits = async () => metricSample(await poolMetrics(pool.socket), 'netgraph_user_cache_hits_total');

  // Each worker learns the user's id from its first read and keeps the row it reads after.
  for (let i = 0; i < 2; i++) for (const body of await onEvery()) assert.equal(isAdmin(body), false);
  const before = await hits();
  for (const body of await onEvery()) assert.equal(isAdmin(body), false);
  assert.equal(await hits() - before, workers, 'every worker had the user in memory');
  const [code] = issueVouchers(10);
  const claimed = await data(pool.socket, CLAIM, { token: user.token, variables: { code, wallet: randomWallet() } });
  assert.equal(claimed.claimVoucher.success, true);
  const afterClaim = await hits();
  for (const body of await onEvery()) assert.equal(isAdmin(body), false);
  assert.equal(await hits() - afterClaim, workers, 'the claim left the user in memory on every worker');

  const delayUntilEveryWorker = async (admin) => {
    const since = performance.now();
    await waitFor(async () => isAdmin(await post(pool.socket, ADMIN_ONLY, { token: user.token })) === admin, {
      timeoutMs: 15000, intervalMs: 2, what: `the user to be ${admin ? '' : 'no longer '}an administrator`,
    });
    const delay = performance.now() - since;
    for (const body of await onEvery()) assert.equal(isAdmin(body), admin, body);
    return delay;
  };
  netgraphctl('admin', 'grant', user.did);
  const granted = await delayUntilEveryWorker(true);
  psql(`UPDATE users SET is_admin = false WHERE idp_did = '${user.did}'`);
  const revoked = await delayUntilEveryWorker(false);
  t.diagnostic(`delays until seen (ms): ${granted.toFixed(1)}, ${revoked.toFixed(1)}`);
  for (const delay of [granted, revoked]) assert.ok(delay < bound, `seen after ${delay.toFixed(1)} ms`);
});
