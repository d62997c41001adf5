// Solana encodings the tests check the service's receipts with, written apart from the service's
// own code (core/crypto), so a test does not lean on the service's encoding to check that encoding.
import { createPublicKey } from 'node:crypto';

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

// Base58 with the Bitcoin alphabet, as Solana writes keys and signatures.
export function base58Decode(text) {
  let n = 0n;
  for (const c of text) {
    const digit = BASE58.indexOf(c);
    if (digit < 0) throw new Error(`not base58: ${c}`);
    n = n * 58n + BigInt(digit);
  }
  const bytes = [];
  while (n > 0n) { bytes.unshift(Number(n % 256n)); n /= 256n; }
  for (const c of text) { if (c !== '1') break; bytes.unshift(0); }
  return Buffer.from(bytes);
}

// The Solana off-chain message v0 envelope the treasury signs: 0xFF "solana offchain", version 0,
// format 0 (restricted ASCII), the length (u16 little-endian), the message.
export function offchainEnvelope(text) {
  const message = Buffer.from(text, 'ascii');
  const header = Buffer.alloc(4);
  header.writeUInt8(0, 0);
  header.writeUInt8(0, 1);
  header.writeUInt16LE(message.length, 2);
  return Buffer.concat([Buffer.from([0xff]), Buffer.from('solana offchain', 'ascii'), header, message]);
}

// A node:crypto public key from a raw 32-byte Ed25519 key.
export function ed25519PublicKey(raw32) {
  return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: raw32.toString('base64url') }, format: 'jwk' });
}
