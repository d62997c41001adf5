// The limits the service puts on its PostgreSQL sessions (core/store/connection.h,
// docs/operations.md), through nginx and the pool: a request that needs a row another session has
// locked fails cleanly once lock_timeout (default 2 s) passes, instead of holding a worker.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lockUserRow, psql } from '../support/postgres.mjs';
import { graphql } from '../support/stack.mjs';
import { CLAIM, claim, issueVouchers, newUser, portfolio, randomWallet } from '../support/api.mjs';

test('a claim that needs a row another session holds fails cleanly, then works once it is free', async (t) => {
  const user = newUser('lock-timeout');
  const wallet = randomWallet();
  const [code] = issueVouchers(3);
  assert.equal((await portfolio(user.token)).success, true, 'the first request creates the user row');

  const lock = await lockUserRow(user);
  t.after(() => lock.release());
  const started = Date.now();
  const hung = new Promise((resolve) => { setTimeout(() => resolve('hung'), 20000).unref(); });
  const answer = await Promise.race([
    graphql(CLAIM, { token: user.token, variables: { code, wallet } }), hung]);
  const elapsed = Date.now() - started;
  assert.notEqual(answer, 'hung', 'the claim answers while the row stays locked');
  assert.ok(elapsed >= 1000, `the claim waited for the lock first (${elapsed} ms)`);
  assert.equal(answer.status, 200);
  assert.equal(answer.body.data?.claimVoucher ?? null, null);
  assert.deepEqual(answer.body.errors.map((e) => [e.message, e.extensions?.code]),
    [['Internal server error', 'INTERNAL_SERVER_ERROR']]);

  // Nothing of the failed claim was written.
  const normalised = code.replaceAll('-', '');
  assert.equal(psql(`SELECT status || ' ' || (user_id IS NULL) FROM vouchers WHERE code = '${normalised}'`),
    'AVAILABLE true');
  assert.equal(psql(`SELECT count(*) FROM wallets WHERE address = '${wallet}'`), '0');

  await lock.release();
  const result = await claim(user.token, code, wallet);
  assert.equal(result.success, true);
  assert.equal(result.voucher.status, 'CLAIMED');
  assert.equal(psql(`SELECT count(*) FROM wallets WHERE address = '${wallet}'`), '1');
});
