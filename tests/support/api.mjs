// Helpers for the API tests (tests/integration/api-*.test.mjs): users, vouchers, wallets and
// confidential keys, and the GraphQL documents of the operations.
import { randomUUID } from 'node:crypto';
import { Keypair } from '@solana/web3.js';
import { ElGamalCiphertext, ElGamalKeypair } from '@solana/zk-sdk/node';
import { graphql, netgraphctl } from './stack.mjs';
import { tokenFor } from './jwt.mjs';

// A user nobody else uses: a fresh DID and a token for it.
export function newUser(label = 'user', extra = {}) {
  const did = `did:test:${label}-${randomUUID()}`;
  return { did, token: tokenFor(did, extra) };
}

export function randomWallet() {
  return Keypair.generate().publicKey.toBase58();
}

// A twisted-ElGamal keypair from Solana's own zk-sdk: the public key as redeemVoucher takes it and
// a decryptor for the ciphertexts the service returns.
export function confidentialKeypair() {
  const keypair = new ElGamalKeypair();
  return {
    publicKey: Buffer.from(keypair.pubkey().toBytes()).toString('base64'),
    decrypt(base64) {
      return keypair.secret().decrypt(ElGamalCiphertext.fromBytes(Buffer.from(base64, 'base64')));
    },
  };
}

// Issues vouchers with netgraphctl; returns their codes.
export function issueVouchers(amount, { count = 1, expires, round } = {}) {
  const args = ['vouchers', 'issue', '--amount', String(amount), '--count', String(count)];
  if (expires) args.push('--expires', expires);
  if (round) args.push('--round', round);
  return netgraphctl(...args).trim().split('\n');
}

export const VOUCHER_FIELDS = 'id code amount status redeemed walletAddress claimedAt redeemedAt expiresAt';

export const CLAIM = `mutation Claim($code: String!, $wallet: String!) {
  claimVoucher(voucherCode: $code, walletAddress: $wallet) {
    success error message voucher { ${VOUCHER_FIELDS} }
  }
}`;

export const REDEEM = `mutation Redeem($wallet: String!, $key: String!) {
  redeemVoucher(walletAddress: $wallet, confidentialPublicKey: $key) {
    success error message
    redemption { amount txSignature walletAddress tokenAccount encryptedAmount redeemedAt }
  }
}`;

export const PORTFOLIO = `{ getUserPortfolio { success error data {
  user { idpDid email wallets }
  vouchers { ${VOUCHER_FIELDS} }
  balances { encryptedBalance confidentialPublicKey tokenAccount }
  summary { totalInvestments totalVouchers hasConfidentialBalance }
} } }`;

// claimVoucher's result object (asserting the HTTP exchange itself went well).
export async function claim(token, code, wallet) {
  const { status, body } = await graphql(CLAIM, { token, variables: { code, wallet } });
  if (status !== 200 || body?.errors) throw new Error(`claimVoucher: ${status} ${JSON.stringify(body)}`);
  return body.data.claimVoucher;
}

export async function redeem(token, wallet, key) {
  const { status, body } = await graphql(REDEEM, { token, variables: { wallet, key } });
  if (status !== 200 || body?.errors) throw new Error(`redeemVoucher: ${status} ${JSON.stringify(body)}`);
  return body.data.redeemVoucher;
}

export async function portfolio(token) {
  const { status, body } = await graphql(PORTFOLIO, { token });
  if (status !== 200 || body?.errors) throw new Error(`getUserPortfolio: ${status} ${JSON.stringify(body)}`);
  return body.data.getUserPortfolio;
}

export const RFC3339_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
