// Claiming, redeeming, the portfolio and allVouchers through nginx, with every refusal docs/api.md
// lists.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getAssociatedTokenAddressSync, TOKEN_2022_PROGRAM_ID } from '@solana/spl-token';
import { PublicKey } from '@solana/web3.js';
import { graphql, netgraphctl, netgraphctlResult } from '../support/stack.mjs';
import {
  PORTFOLIO, RFC3339_UTC, VOUCHER_FIELDS, claim, confidentialKeypair, issueVouchers,
  newUser, portfolio, randomWallet, redeem,
} from '../support/api.mjs';

const MINT = new PublicKey(process.env.NETGRAPH_MINT_ADDRESS);

function assertRefused(result, error) {
  assert.equal(result.success, false);
  assert.equal(result.error, error);
  assert.equal(typeof result.message, 'string');
  assert.ok(result.message.length > 0 && result.message !== error, 'message is a sentence for people');
}

test('claimVoucher binds an available voucher to the caller and the wallet', async () => {
  const user = newUser('claimer', { email: 'claimer@example.com' });
  const wallet = randomWallet();
  const [code] = issueVouchers('12.5');
  // Codes are compared in normalised form: case, hyphens and spaces do not matter.
  const typed = code.toLowerCase().replaceAll('-', ' ');
  const result = await claim(user.token, typed, wallet);
  assert.equal(result.success, true);
  assert.equal(result.error, null);
  assert.match(result.message, /claimed/);
  const v = result.voucher;
  assert.match(v.id, /^\d+$/);
  assert.equal(v.code, code);
  assert.equal(v.amount, 12.5);
  assert.equal(v.status, 'CLAIMED');
  assert.equal(v.redeemed, false);
  assert.equal(v.walletAddress, wallet);
  assert.match(v.claimedAt, RFC3339_UTC);
  assert.equal(v.redeemedAt, null);
  assert.equal(v.expiresAt, null);

  const mine = await portfolio(user.token);
  assert.equal(mine.success, true);
  assert.equal(mine.error, null);
  assert.equal(mine.data.user.idpDid, user.did);
  assert.equal(mine.data.user.email, 'claimer@example.com');
  assert.deepEqual(mine.data.user.wallets, [wallet]);
  assert.deepEqual(mine.data.vouchers.map((x) => x.code), [code]);
  assert.deepEqual(mine.data.balances, { encryptedBalance: null, confidentialPublicKey: null, tokenAccount: null });
  assert.deepEqual(mine.data.summary, { totalInvestments: 12.5 * 0.05, totalVouchers: 1, hasConfidentialBalance: false });
});

test('retrying the same claim succeeds again with the same voucher', async () => {
  const user = newUser('retry');
  const wallet = randomWallet();
  const [code] = issueVouchers(5);
  const first = await claim(user.token, code, wallet);
  const again = await claim(user.token, code, wallet);
  assert.equal(first.success, true);
  assert.equal(again.success, true);
  assert.deepEqual(again.voucher, first.voucher);
});

test('claim refusals: claimed, foreign, unknown, malformed, expired, revoked', async () => {
  const owner = newUser('owner');
  const other = newUser('other');
  const ownerWallet = randomWallet();
  const [code] = issueVouchers(5);
  assert.equal((await claim(owner.token, code, ownerWallet)).success, true);

  assertRefused(await claim(owner.token, code, randomWallet()), 'Voucher already claimed');
  // To anybody but its owner a claimed code does not exist (no enumeration).
  assertRefused(await claim(other.token, code, randomWallet()), 'Voucher not found');
  assertRefused(await claim(other.token, 'ZZZZ-ZZZZ-ZZZZ-ZZZZ-ZZZZ', randomWallet()), 'Voucher not found');
  for (const bad of ['', 'hello', 'ZZZZ-ZZZZ-ZZZZ-ZZZZ', 'ZZZZ-ZZZZ-ZZZZ-ZZZZ-ZZZU', "' OR 1=1 --"]) {
    assertRefused(await claim(other.token, bad, randomWallet()), 'Invalid voucher code');
  }

  const [expired] = issueVouchers(5, { expires: '2020-01-01T00:00:00Z' });
  assertRefused(await claim(other.token, expired, randomWallet()), 'Voucher expired');

  const [revoked] = issueVouchers(5);
  assert.match(netgraphctl('vouchers', 'revoke', revoked), /^revoked /);
  assertRefused(await claim(other.token, revoked, randomWallet()), 'Voucher revoked');
  const again = netgraphctlResult('vouchers', 'revoke', revoked);
  assert.equal(again.status, 1);
  assert.match(again.stderr, /Voucher revoked/);
});

test('claim refusals: invalid and foreign wallets', async () => {
  const owner = newUser('wallet-owner');
  const other = newUser('wallet-thief');
  const wallet = randomWallet();
  const [first, second] = issueVouchers(5, { count: 2 });
  assert.equal((await claim(owner.token, first, wallet)).success, true);
  assertRefused(await claim(other.token, second, wallet), 'Wallet belongs to another user');
  // Lengths are fixed, not derived from the random wallet: a random key with a small value plus one
  // more base58 digit still fits in 32 bytes (about one wallet in 58), and is a valid address.
  // 'z' x 44 is above 2^256 (33 bytes); 'z' x 42 is below 2^248 (31 bytes).
  for (const bad of ['', 'not-a-wallet', '0x52908400098527886E0F7030069857D2E4169EE7',
    wallet.slice(0, 20), 'z'.repeat(44), 'z'.repeat(42), 'O0Il'.repeat(11)]) {
    assertRefused(await claim(other.token, second, bad), 'Invalid wallet address');
  }
  // The refused claims left the voucher available.
  assert.equal((await claim(other.token, second, randomWallet())).success, true);
});

test('claim, redeem and portfolio without a valid token: Authentication required', async () => {
  const [code] = issueVouchers(5);
  for (const token of [undefined, 'garbage', newUser('x', { exp: 1 }).token]) {
    const claimed = await claim(token, code, randomWallet());
    assertRefused(claimed, 'Authentication required');
    assert.equal(claimed.voucher, null);
    const redeemed = await redeem(token, randomWallet(), confidentialKeypair().publicKey);
    assertRefused(redeemed, 'Authentication required');
    assert.equal(redeemed.redemption, null);
    const mine = await portfolio(token);
    assert.deepEqual(mine, { success: false, error: 'Authentication required', data: null });
  }
});

test('redeemVoucher credits every claimed voucher of the wallet into its confidential balance', async () => {
  const user = newUser('redeemer');
  const wallet = randomWallet();
  const key = confidentialKeypair();
  const codes = issueVouchers('10.25', { count: 2 });
  for (const code of codes) assert.equal((await claim(user.token, code, wallet)).success, true);
  const otherWallet = randomWallet();
  const [elsewhere] = issueVouchers(7);
  assert.equal((await claim(user.token, elsewhere, otherWallet)).success, true);

  const result = await redeem(user.token, wallet, key.publicKey);
  assert.equal(result.success, true);
  assert.equal(result.error, null);
  const r = result.redemption;
  assert.equal(r.amount, 20.5);
  assert.equal(r.walletAddress, wallet);
  // Real Solana client libraries agree on the account and can decrypt the amount.
  const ata = getAssociatedTokenAddressSync(MINT, new PublicKey(wallet), false, TOKEN_2022_PROGRAM_ID);
  assert.equal(r.tokenAccount, ata.toBase58());
  assert.equal(key.decrypt(r.encryptedAmount), 2050n);
  assert.equal(new PublicKey(r.tokenAccount).toBytes().length, 32);
  assert.ok(r.txSignature.length >= 64 && r.txSignature.length <= 88);
  assert.match(r.redeemedAt, RFC3339_UTC);

  const mine = await portfolio(user.token);
  const byCode = Object.fromEntries(mine.data.vouchers.map((v) => [v.code, v]));
  for (const code of codes) {
    assert.equal(byCode[code].status, 'REDEEMED');
    assert.equal(byCode[code].redeemed, true);
    assert.equal(byCode[code].redeemedAt, r.redeemedAt);
  }
  assert.equal(byCode[elsewhere].status, 'CLAIMED', 'other wallets are not touched');
  assert.equal(mine.data.balances.tokenAccount, r.tokenAccount);
  assert.equal(mine.data.balances.confidentialPublicKey, key.publicKey);
  assert.equal(key.decrypt(mine.data.balances.encryptedBalance), 2050n);
  assert.equal(mine.data.summary.hasConfidentialBalance, true);
  assert.equal(mine.data.summary.totalVouchers, 3);

  // Later redemptions add to the encrypted balance under the same key.
  assertRefused(await redeem(user.token, wallet, key.publicKey), 'No claimed vouchers for this wallet');
  const [more] = issueVouchers(1);
  assert.equal((await claim(user.token, more, wallet)).success, true);
  assertRefused(await redeem(user.token, wallet, confidentialKeypair().publicKey),
    'Confidential public key does not match the token account');
  const second = await redeem(user.token, wallet, key.publicKey);
  assert.equal(second.success, true);
  assert.equal(second.redemption.amount, 1);
  assert.notEqual(second.redemption.txSignature, r.txSignature);
  assert.equal(key.decrypt((await portfolio(user.token)).data.balances.encryptedBalance), 2150n);
});

test('redeem refusals: wallet, key, owner, nothing claimed, balance limit', async () => {
  const user = newUser('redeem-refusals');
  const other = newUser('redeem-other');
  const wallet = randomWallet();
  const key = confidentialKeypair();
  assertRefused(await redeem(user.token, 'nope', key.publicKey), 'Invalid wallet address');
  for (const bad of ['', 'not base64!', 'AAAA', Buffer.alloc(32).toString('base64'),
    Buffer.alloc(32, 0xff).toString('base64'), key.publicKey.slice(0, -2)]) {
    assertRefused(await redeem(user.token, wallet, bad), 'Invalid confidential public key');
  }
  assertRefused(await redeem(user.token, wallet, key.publicKey), 'No claimed vouchers for this wallet');

  // 2^32 base units = 42,949,672.96 tokens: two vouchers of 25,000,000 pass it together.
  const big = issueVouchers(25000000, { count: 2 });
  for (const code of big) assert.equal((await claim(user.token, code, wallet)).success, true);
  assertRefused(await redeem(other.token, wallet, key.publicKey), 'Wallet belongs to another user');
  assertRefused(await redeem(user.token, wallet, key.publicKey), 'Balance limit exceeded');
  const mine = await portfolio(user.token);
  assert.ok(mine.data.vouchers.every((v) => v.status === 'CLAIMED'), 'nothing was written');
  assert.equal(mine.data.balances.tokenAccount, null);
  assert.match(netgraphctl('vouchers', 'revoke', big[1]), /^revoked/);
  assert.equal((await redeem(user.token, wallet, key.publicKey)).redemption.amount, 25000000);
});

test('failed claims are rate limited per user: Too many attempts', async () => {
  const guesser = newUser('guesser');
  const wallet = randomWallet();
  const [good] = issueVouchers(1);
  for (let i = 0; i < 10; i++) {
    assertRefused(await claim(guesser.token, `ZZZZ-ZZZZ-ZZZZ-ZZZZ-ZZ${String(i).padStart(2, '0')}`, wallet), 'Voucher not found');
  }
  assertRefused(await claim(guesser.token, good, wallet), 'Too many attempts');
  // Other users are not affected.
  assert.equal((await claim(newUser('patient').token, good, randomWallet())).success, true);
});

const ALL = `query All($status: VoucherStatus, $first: Int, $after: ID) {
  allVouchers(status: $status, first: $first, after: $after) { ${VOUCHER_FIELDS} }
}`;

test('allVouchers: Authentication required for anonymous callers, Admin access required for others', async () => {
  for (const token of [undefined, 'not.a.token']) {
    const { status, body } = await graphql(ALL, { token });
    assert.equal(status, 200);
    assert.equal(body.data, null);
    assert.deepEqual(body.errors.map((e) => [e.message, e.path, e.extensions.code]),
      [['Authentication required', ['allVouchers'], 'UNAUTHENTICATED']]);
  }
  const { body } = await graphql(ALL, { token: newUser('nobody').token });
  assert.deepEqual(body.errors.map((e) => [e.message, e.path, e.extensions.code]),
    [['Admin access required', ['allVouchers'], 'FORBIDDEN']]);
});

test('allVouchers for administrators: keyset pages by id, a status filter, bounded first', async () => {
  const admin = newUser('admin', { roles: ['admin'] });  // the stack's NETGRAPH_ADMIN_ROLE_CLAIM
  const granted = newUser('granted');
  assert.match(netgraphctl('admin', 'grant', granted.did), /granted/);
  const issued = issueVouchers(2, { count: 5 });

  for (const token of [admin.token, granted.token]) {
    const { body } = await graphql(ALL, { token, variables: { first: 1000 } });
    assert.equal(body.errors, undefined);
    const codes = body.data.allVouchers.map((v) => v.code);
    for (const code of issued) assert.ok(codes.includes(code));
  }

  // Walk the newest vouchers three at a time.
  const { body: firstPage } = await graphql(ALL, { token: admin.token, variables: { first: 1000, status: 'AVAILABLE' } });
  const available = firstPage.data.allVouchers;
  assert.ok(available.every((v) => v.status === 'AVAILABLE'));
  const ids = available.map((v) => Number(v.id));
  assert.deepEqual(ids, [...ids].sort((a, b) => a - b), 'ordered by id');
  const lastSix = available.slice(-6);
  const page1 = (await graphql(ALL, { token: admin.token, variables: { status: 'AVAILABLE', first: 3, after: lastSix[0].id } })).body.data.allVouchers;
  const page2 = (await graphql(ALL, { token: admin.token, variables: { status: 'AVAILABLE', first: 3, after: page1[2].id } })).body.data.allVouchers;
  assert.deepEqual([...page1, ...page2].map((v) => v.id), lastSix.slice(1).map((v) => v.id));
  assert.equal(page2.length, 2);

  const { body: claimed } = await graphql(ALL, { token: admin.token, variables: { status: 'CLAIMED', first: 1000 } });
  assert.ok(claimed.data.allVouchers.length >= 1);
  assert.ok(claimed.data.allVouchers.every((v) => v.status === 'CLAIMED' && v.walletAddress));

  for (const first of [0, -1, 1001]) {
    const { body } = await graphql(ALL, { token: admin.token, variables: { first } });
    assert.equal(body.errors[0].extensions.code, 'BAD_USER_INPUT');
    assert.deepEqual(body.errors[0].path, ['allVouchers']);
  }
  const { body: badAfter } = await graphql(ALL, { token: admin.token, variables: { after: 'abc' } });
  assert.equal(badAfter.errors[0].extensions.code, 'BAD_USER_INPUT');
});

test('netgraphctl vouchers list shows issued vouchers', () => {
  const [code] = issueVouchers(3);
  const list = JSON.parse(netgraphctl('vouchers', 'list', '--status', 'AVAILABLE', '--first', '1000', '--json'));
  const found = list.find((v) => v.code === code);
  assert.equal(found.amount, 3);
  assert.equal(found.status, 'AVAILABLE');
});

test('a new user\'s portfolio is empty', async () => {
  const user = newUser('empty');
  const { body } = await graphql(PORTFOLIO, { token: user.token });
  assert.deepEqual(body.data.getUserPortfolio.data.summary, { totalInvestments: 0, totalVouchers: 0, hasConfidentialBalance: false });
  assert.deepEqual(body.data.getUserPortfolio.data.user, { idpDid: user.did, email: null, wallets: [] });
});
