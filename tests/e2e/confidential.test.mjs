// Confidential balances and signed receipts, checked end to end with independent implementations:
// Solana's own zk-sdk decrypts what the service encrypted, spl-token derives the token account, and
// Node's own Ed25519 verifies the receipt signature against the treasury's public key.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { verify } from 'node:crypto';
import { getAssociatedTokenAddressSync, TOKEN_2022_PROGRAM_ID } from '@solana/spl-token';
import { PublicKey } from '@solana/web3.js';
import { netgraphctl } from '../support/stack.mjs';
import {
  claim, confidentialKeypair, issueVouchers, newUser, portfolio, randomWallet, redeem,
} from '../support/api.mjs';
import { base58Decode, ed25519PublicKey, offchainEnvelope } from '../support/solana.mjs';
import { psql } from '../support/postgres.mjs';

function ledgerBalance(wallet) {
  return BigInt(psql(
    `SELECT balance FROM token_accounts WHERE wallet_address = '${wallet.replace(/'/g, '')}'`));
}

function receiptFields(text) {
  const [header, ...pairs] = text.split(' ');
  assert.equal(header, 'netgraph-receipt-v1');
  return Object.fromEntries(pairs.map((p) => [p.slice(0, p.indexOf('=')), p.slice(p.indexOf('=') + 1)]));
}

test('two vouchers redeemed into a confidential balance that zk-sdk decrypts and receipts that Node verifies', async () => {
  const key = confidentialKeypair();  // made by @solana/zk-sdk
  const user = newUser('confidential');
  const wallet = randomWallet();
  const codes = [...issueVouchers('12.34'), ...issueVouchers('0.66')];
  for (const code of codes) assert.equal((await claim(user.token, code, wallet)).success, true);

  const result = await redeem(user.token, wallet, key.publicKey);
  assert.equal(result.success, true, JSON.stringify(result));
  const r = result.redemption;
  assert.equal(r.amount, 13);

  // The ledger holds base units (2 decimals); zk-sdk decrypts the service's ciphertexts to them.
  const ledger = ledgerBalance(wallet);
  assert.equal(ledger, 1300n);
  assert.equal(key.decrypt(r.encryptedAmount), ledger);
  const mine = await portfolio(user.token);
  assert.equal(key.decrypt(mine.data.balances.encryptedBalance), ledger);

  // The token account is the associated Token-2022 account of (wallet, mint).
  const mint = new PublicKey(process.env.NETGRAPH_MINT_ADDRESS);
  const ata = getAssociatedTokenAddressSync(mint, new PublicKey(wallet), false, TOKEN_2022_PROGRAM_ID);
  assert.equal(r.tokenAccount, ata.toBase58());
  assert.equal(mine.data.balances.tokenAccount, ata.toBase58());

  // txSignature: the treasury's Ed25519 signature over the stored receipt's off-chain envelope.
  const stored = JSON.parse(netgraphctl('receipt', 'verify', '--signature', r.txSignature, '--json'));
  assert.equal(stored.valid, true);
  const treasury = base58Decode(netgraphctl('treasury', 'pubkey').trim());
  assert.equal(treasury.length, 32);
  const signature = base58Decode(r.txSignature);
  assert.equal(signature.length, 64);
  const envelope = offchainEnvelope(stored.receipt);
  assert.equal(verify(null, envelope, ed25519PublicKey(treasury), signature), true);

  // The receipt states what the API returned.
  const fields = receiptFields(stored.receipt);
  assert.equal(fields.wallet, wallet);
  assert.equal(fields.mint, mint.toBase58());
  assert.equal(fields.token_account, r.tokenAccount);
  assert.equal(fields.confidential_public_key, key.publicKey);
  assert.equal(fields.amount, '1300');
  assert.equal(fields.decimals, '2');
  assert.equal(fields.encrypted_amount, r.encryptedAmount);
  assert.equal(fields.encrypted_balance, mine.data.balances.encryptedBalance);
  assert.equal(fields.time, r.redeemedAt);
  assert.equal(fields.previous_receipt_hash, '0'.repeat(64), 'the account\'s first receipt');

  // A changed receipt no longer verifies.
  const forged = offchainEnvelope(stored.receipt.replace('amount=1300', 'amount=9300'));
  assert.equal(verify(null, forged, ed25519PublicKey(treasury), signature), false);

  // A second redemption chains its receipt to the first and adds to the encrypted balance.
  const [third] = issueVouchers(2);
  assert.equal((await claim(user.token, third, wallet)).success, true);
  const second = (await redeem(user.token, wallet, key.publicKey)).redemption;
  assert.equal(key.decrypt(second.encryptedAmount), 200n);
  assert.equal(key.decrypt((await portfolio(user.token)).data.balances.encryptedBalance), 1500n);
  assert.equal(ledgerBalance(wallet), 1500n);
  const next = JSON.parse(netgraphctl('receipt', 'verify', '--signature', second.txSignature, '--json'));
  assert.equal(next.valid, true);
  assert.notEqual(receiptFields(next.receipt).previous_receipt_hash, '0'.repeat(64));
});
