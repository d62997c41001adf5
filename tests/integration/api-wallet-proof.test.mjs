// Proof of wallet possession (core/domain/wallet_proof.h, issue 9 defect 6): a user who claims a
// voucher to somebody else's address (a squatter) no longer owns it for ever; the key holder proves
// possession by signing walletChallenge's off-chain message and takes the wallet over.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sign } from 'node:crypto';
import { PublicKey } from '@solana/web3.js';
import { graphql, netgraphctl, netgraphctlResult } from '../support/stack.mjs';
import { fastcgiGraphql } from '../support/fastcgi.mjs';
import { psql } from '../support/postgres.mjs';
import { newKeyPair } from '../support/jwt.mjs';
import { startPool } from '../support/pool.mjs';
import {
  RFC3339_UTC, claim, confidentialKeypair, issueVouchers, newUser, portfolio, redeem,
} from '../support/api.mjs';

// An Ed25519 wallet: its address is the base58 of the public key.
function newWallet() {
  const { publicKey, privateKey } = newKeyPair('ed25519');
  const raw = Buffer.from(publicKey.export({ format: 'jwk' }).x, 'base64url');
  return {
    address: new PublicKey(raw).toBase58(),
    // A Solana signature is 64 bytes; wallets print it in base58.
    sign: (bytes) => sign(null, bytes, privateKey),
  };
}

const CHALLENGE = `mutation Challenge($wallet: String!) {
  walletChallenge(walletAddress: $wallet) {
    success error message walletAddress challenge signedBytes expiresAt
  }
}`;
const VERIFY = `mutation Verify($wallet: String!, $signature: String!) {
  verifyWallet(walletAddress: $wallet, signature: $signature) {
    success error message walletAddress tookOver
  }
}`;

async function challenge(token, wallet) {
  const { status, body } = await graphql(CHALLENGE, { token, variables: { wallet } });
  assert.equal(status, 200, JSON.stringify(body));
  assert.equal(body.errors, undefined, JSON.stringify(body));
  return body.data.walletChallenge;
}

async function verify(token, wallet, signature) {
  const { status, body } = await graphql(VERIFY, { token, variables: { wallet, signature } });
  assert.equal(status, 200, JSON.stringify(body));
  assert.equal(body.errors, undefined, JSON.stringify(body));
  return body.data.verifyWallet;
}

function base58(bytes) {
  // Solana's base58 (Bitcoin alphabet, a leading 1 per leading zero byte), for 64-byte signatures.
  const alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
  let n = BigInt(`0x${Buffer.from(bytes).toString('hex')}`);
  let text = '';
  while (n > 0n) { text = alphabet[Number(n % 58n)] + text; n /= 58n; }
  for (const b of bytes) { if (b !== 0) break; text = `1${text}`; }
  return text;
}

// Requests a challenge for `wallet` and signs its off-chain message with `signer`.
async function proofOf(token, wallet, { signer = wallet, encoding = 'base58' } = {}) {
  const c = await challenge(token, wallet.address);
  assert.equal(c.success, true, JSON.stringify(c));
  const raw = signer.sign(Buffer.from(c.signedBytes, 'base64'));
  return { challenge: c, signature: encoding === 'base64' ? raw.toString('base64') : base58(raw) };
}

function assertRefused(result, error) {
  assert.equal(result.success, false, JSON.stringify(result));
  assert.equal(result.error, error);
  assert.ok(result.message.length > 0 && result.message !== error, 'message is a sentence for people');
}

// The origin the stack serves at (NETGRAPH_PUBLIC_ORIGIN in its stack.env, scripts/stack).
const origin = process.env.NETGRAPH_PUBLIC_ORIGIN;

test('the challenge is a Solana off-chain message naming the origin, the wallet, the user, a nonce and the expiry', async () => {
  const user = newUser('challenged');
  const wallet = newWallet();
  const c = await challenge(user.token, wallet.address);
  assert.equal(c.success, true);
  assert.equal(c.walletAddress, wallet.address);
  assert.match(c.expiresAt, RFC3339_UTC);
  const lines = c.challenge.split('\n');
  assert.ok(origin, 'stack.env sets NETGRAPH_PUBLIC_ORIGIN');
  assert.equal(lines[0], `${origin} wants you to prove that you control this wallet.`,
    'the origin comes first, as in Sign-In With Solana');
  assert.equal(lines[1], `Sign only if you are on ${origin}. Signing costs nothing.`);
  assert.ok(lines.includes(`Wallet: ${wallet.address}`));
  assert.ok(lines.some((l) => /^User: [0-9a-f]{64}$/.test(l)));
  assert.ok(lines.some((l) => /^Nonce: [1-9A-HJ-NP-Za-km-z]{16,}$/.test(l)));
  assert.ok(lines.includes(`Expires: ${c.expiresAt}`));
  const envelope = Buffer.from(c.signedBytes, 'base64');
  const text = Buffer.from(c.challenge);
  // 0xFF "solana offchain" ‖ version 0 ‖ format 1 (limited UTF-8: the text has newlines) ‖
  // u16 LE length ‖ text
  assert.deepEqual(envelope.subarray(0, 16), Buffer.from('\xffsolana offchain', 'latin1'));
  assert.deepEqual([...envelope.subarray(16, 20)], [0, 1, text.length & 0xff, text.length >> 8]);
  assert.deepEqual(envelope.subarray(20), text);
  const again = await challenge(user.token, wallet.address);
  assert.notEqual(again.challenge, c.challenge, 'every challenge has a fresh nonce');

  const anonymous = (await graphql(CHALLENGE, { variables: { wallet: wallet.address } })).body.data.walletChallenge;
  assertRefused(anonymous, 'Authentication required');
  assertRefused(await challenge(user.token, 'not-a-wallet'), 'Invalid wallet address');
});

// A phishing page elsewhere can relay this service's challenge, but the wallet then shows this
// service's origin, not the page's; and a challenge issued under another origin (here another pool
// on the same database, configured for it) does not prove a wallet here.
test('a signature over a challenge of another origin is refused', async (t) => {
  const elsewhere = 'https://netgraph.example.evil.test';
  const pool = await startPool(t, 'wallet-proof-elsewhere', { NETGRAPH_PUBLIC_ORIGIN: elsewhere },
    { workers: 1 });
  const user = newUser('two-origins');
  const wallet = newWallet();
  const { body } = await fastcgiGraphql(pool.socket,
    `mutation { walletChallenge(walletAddress: "${wallet.address}") { success challenge signedBytes } }`,
    { token: user.token });
  const theirs = body.data.walletChallenge;
  assert.equal(theirs.success, true, JSON.stringify(body));
  assert.ok(theirs.challenge.startsWith(`${elsewhere} wants you`), theirs.challenge);
  const signedTheirs = base58(wallet.sign(Buffer.from(theirs.signedBytes, 'base64')));
  assertRefused(await verify(user.token, wallet.address, signedTheirs), 'No wallet challenge');

  // This origin's challenge, with the other origin's name put in its place and signed: refused.
  const ours = await challenge(user.token, wallet.address);
  const renamed = Buffer.from(ours.challenge.replaceAll(origin, elsewhere));
  // Its envelope as the service builds one (format 1, as the first test checks).
  const envelope = Buffer.concat([Buffer.from('\xffsolana offchain', 'latin1'),
    Buffer.from([0, 1, renamed.length & 0xff, renamed.length >> 8]), renamed]);
  assertRefused(await verify(user.token, wallet.address, base58(wallet.sign(envelope))),
    'Invalid wallet signature');
  assertRefused(await verify(user.token, wallet.address, signedTheirs), 'Invalid wallet signature');
  const proven = await verify(user.token, wallet.address,
    base58(wallet.sign(Buffer.from(ours.signedBytes, 'base64'))));
  assert.equal(proven.success, true, JSON.stringify(proven));
});

test('a squatter claims to the victim\'s address; the victim proves possession and takes the wallet over', async () => {
  const squatter = newUser('squatter');
  const victim = newUser('victim');
  const wallet = newWallet();
  const [squatterCode, redeemedCode] = issueVouchers(5, { count: 2 });
  const [victimCode] = issueVouchers(7);

  // The squatter claims and redeems to the victim's address, registering their own ElGamal key.
  assert.equal((await claim(squatter.token, redeemedCode, wallet.address)).success, true);
  const squatterKey = confidentialKeypair();
  assert.equal((await redeem(squatter.token, wallet.address, squatterKey.publicKey)).success, true);
  assert.equal((await claim(squatter.token, squatterCode, wallet.address)).success, true);
  assertRefused(await claim(victim.token, victimCode, wallet.address), 'Wallet belongs to another user');

  const { signature } = await proofOf(victim.token, wallet);
  const proven = await verify(victim.token, wallet.address, signature);
  assert.equal(proven.success, true, JSON.stringify(proven));
  assert.equal(proven.walletAddress, wallet.address);
  assert.equal(proven.tookOver, true);
  assert.match(proven.message, /1 of their claims/);

  // The wallet is the victim's: claims and a redemption under the victim's own key work.
  const claimed = await claim(victim.token, victimCode, wallet.address);
  assert.equal(claimed.success, true, JSON.stringify(claimed));
  const victimKey = confidentialKeypair();
  const redeemed = await redeem(victim.token, wallet.address, victimKey.publicKey);
  assert.equal(redeemed.success, true, JSON.stringify(redeemed));
  assert.equal(redeemed.redemption.amount, 7);
  const mine = await portfolio(victim.token);
  assert.deepEqual(mine.data.user.wallets, [wallet.address]);
  assert.equal(mine.data.balances.confidentialPublicKey, victimKey.publicKey);
  assert.equal(victimKey.decrypt(mine.data.balances.encryptedBalance), 700n);

  // The squatter lost the wallet and the open claim on it; the redeemed voucher stays in their
  // history; the released code can be claimed again, to a wallet of their own.
  const theirs = await portfolio(squatter.token);
  assert.deepEqual(theirs.data.user.wallets, []);
  assert.deepEqual(theirs.data.vouchers.map((v) => [v.code, v.status]), [[redeemedCode, 'REDEEMED']]);
  assert.equal(theirs.data.balances.confidentialPublicKey, null);
  assertRefused(await claim(squatter.token, squatterCode, wallet.address), 'Wallet belongs to another user');
  const own = newWallet();
  assert.equal((await claim(squatter.token, squatterCode, own.address)).success, true);
  assertRefused(await redeem(squatter.token, wallet.address, squatterKey.publicKey), 'Wallet belongs to another user');
});

test('a proven wallet refuses other users\' claims, challenges and proofs', async () => {
  const owner = newUser('prover');
  const other = newUser('latecomer');
  const wallet = newWallet();
  const [ownerCode, otherCode] = issueVouchers(3, { count: 2 });
  const { signature } = await proofOf(owner.token, wallet, { encoding: 'base64' });
  const proven = await verify(owner.token, wallet.address, signature);
  assert.equal(proven.success, true, JSON.stringify(proven));
  assert.equal(proven.tookOver, false);

  const refused = await claim(other.token, otherCode, wallet.address);
  assertRefused(refused, 'Wallet belongs to another user');
  assert.match(refused.message, /proved possession/);
  assertRefused(await challenge(other.token, wallet.address), 'Wallet belongs to another user');
  // The seed's claim keeps working for the wallet's own user.
  assert.equal((await claim(owner.token, ownerCode, wallet.address)).success, true);
  // Proving an own, proven wallet again is harmless.
  const again = await proofOf(owner.token, wallet);
  assert.equal((await verify(owner.token, wallet.address, again.signature)).success, true);
});

test('bad proofs are refused with clear errors and change nothing', async () => {
  const squatter = newUser('squatter2');
  const victim = newUser('victim2');
  const wallet = newWallet();
  const [code] = issueVouchers(2);
  assert.equal((await claim(squatter.token, code, wallet.address)).success, true);

  assertRefused(await verify(victim.token, wallet.address, base58(Buffer.alloc(64, 1))), 'No wallet challenge');
  // Signed by another key.
  const byOtherKey = await proofOf(victim.token, wallet, { signer: newWallet() });
  assertRefused(await verify(victim.token, wallet.address, byOtherKey.signature), 'Invalid wallet signature');
  // A malformed signature, and a wrong one: the challenge stays usable after both.
  assertRefused(await verify(victim.token, wallet.address, 'not a signature'), 'Invalid wallet signature');
  const wrong = Buffer.from(wallet.sign(Buffer.from('something else')));
  assertRefused(await verify(victim.token, wallet.address, base58(wrong)), 'Invalid wallet signature');
  // The squatter cannot use the victim's signature: their own challenge is a different text.
  const victims = await proofOf(victim.token, wallet);
  await challenge(squatter.token, wallet.address);
  assertRefused(await verify(squatter.token, wallet.address, victims.signature), 'Invalid wallet signature');
  assert.deepEqual((await portfolio(squatter.token)).data.user.wallets, [wallet.address], 'nothing changed');

  // Expired: the stored expiry passes (moved back rather than waiting five minutes).
  psql(`UPDATE wallet_challenges SET expires_at = now() - interval '1 second'
        WHERE wallet_address = '${wallet.address}' AND used_at IS NULL
          AND user_id = (SELECT id FROM users WHERE idp_did = '${victim.did}')`);
  assertRefused(await verify(victim.token, wallet.address, victims.signature), 'Wallet challenge expired');

  // A good proof works once; the same signature again is a replay.
  const fresh = await proofOf(victim.token, wallet);
  const proven = await verify(victim.token, wallet.address, fresh.signature);
  assert.equal(proven.success, true, JSON.stringify(proven));
  assertRefused(await verify(victim.token, wallet.address, fresh.signature), 'Wallet challenge already used');
});

test('netgraphctl wallets reassign moves a wallet to another user, releasing the previous owner\'s claims', async () => {
  const first = newUser('first');
  const second = newUser('second');
  const wallet = newWallet();
  const [firstCode, secondCode] = issueVouchers(4, { count: 2 });
  assert.equal((await claim(first.token, firstCode, wallet.address)).success, true);
  await portfolio(second.token);  // the second user exists once seen

  const out = netgraphctl('wallets', 'reassign', wallet.address, second.did);
  assert.match(out, /reassigned wallet .* released 1 claimed voucher/);
  assert.deepEqual((await portfolio(first.token)).data.user.wallets, []);
  assert.deepEqual((await portfolio(second.token)).data.user.wallets, [wallet.address]);
  assert.equal((await claim(second.token, secondCode, wallet.address)).success, true);
  // Left unproven: the key holder can still prove possession and take it over.
  const { signature } = await proofOf(first.token, wallet);
  assert.equal((await verify(first.token, wallet.address, signature)).tookOver, true);

  for (const args of [['wallets', 'reassign', 'not-a-wallet', second.did],
    ['wallets', 'reassign', newWallet().address, second.did],
    ['wallets', 'reassign', wallet.address, 'did:test:nobody-at-all'],
    ['wallets', 'reassign', wallet.address]]) {
    const result = netgraphctlResult(...args);
    assert.notEqual(result.status, 0, args.join(' '));
    assert.ok(result.stderr.length > 0, args.join(' '));
  }
});
