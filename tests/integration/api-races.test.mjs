// Double-spend races through nginx: many concurrent claims of one code, many concurrent redemptions
// of one wallet. Exactly one wins; nothing is credited twice; no request fails with a 5xx.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { graphql } from '../support/stack.mjs';
import {
  CLAIM, REDEEM, claim, confidentialKeypair, issueVouchers, newUser, portfolio, randomWallet,
} from '../support/api.mjs';

test('100 concurrent claims of one code from 100 users: exactly one succeeds', async () => {
  const users = Array.from({ length: 100 }, (_, i) => newUser(`racer${i}`));
  const [code] = issueVouchers(50);
  const responses = await Promise.all(users.map((user) =>
    graphql(CLAIM, { token: user.token, variables: { code, wallet: randomWallet() } })));
  for (const { status, body } of responses) {
    assert.equal(status, 200);
    assert.equal(body.errors, undefined);
  }
  const results = responses.map((r) => r.body.data.claimVoucher);
  const winners = results.filter((r) => r.success);
  assert.equal(winners.length, 1);
  const losers = results.filter((r) => !r.success).map((r) => r.error);
  assert.equal(losers.length, 99);
  assert.ok(losers.every((e) => e === 'Voucher not found' || e === 'Voucher already claimed'), JSON.stringify(losers));

  // The winner owns it, everybody else still cannot see it.
  const winner = users[results.findIndex((r) => r.success)];
  const mine = await portfolio(winner.token);
  assert.deepEqual(mine.data.vouchers.map((v) => v.code), [code]);
});

test('20 concurrent redemptions of one wallet credit its vouchers exactly once', async () => {
  const user = newUser('double-spender');
  const wallet = randomWallet();
  const key = confidentialKeypair();
  const codes = issueVouchers(7, { count: 3 });
  for (const code of codes) assert.equal((await claim(user.token, code, wallet)).success, true);

  const responses = await Promise.all(Array.from({ length: 20 }, () =>
    graphql(REDEEM, { token: user.token, variables: { wallet, key: key.publicKey } })));
  for (const { status, body } of responses) {
    assert.equal(status, 200);
    assert.equal(body.errors, undefined);
  }
  const results = responses.map((r) => r.body.data.redeemVoucher);
  const winners = results.filter((r) => r.success);
  assert.equal(winners.length, 1);
  assert.equal(winners[0].redemption.amount, 21);
  const others = results.filter((r) => !r.success).map((r) => r.error);
  assert.deepEqual([...new Set(others)], ['No claimed vouchers for this wallet']);

  const mine = await portfolio(user.token);
  assert.equal(key.decrypt(mine.data.balances.encryptedBalance), 2100n, 'credited once');
  assert.ok(mine.data.vouchers.every((v) => v.status === 'REDEEMED'));
});
