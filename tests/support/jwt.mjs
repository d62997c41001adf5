// Compact JWS tokens for tests, signed with node:crypto: the good ones the stack accepts and the
// bad ones it must refuse (alg none, HS256 keyed with the public key, wrong keys, bad claims).
import { execFileSync } from 'node:child_process';
import { createHmac, createPrivateKey, createPublicKey, sign } from 'node:crypto';
import { readFileSync } from 'node:fs';

const b64url = (data) => Buffer.from(data).toString('base64url');

// A new key pair ({privateKey, publicKey} KeyObjects): 'ec' (P-256), 'rsa' (2048 bits) or 'ed25519'.
// Made by openssl, not node:crypto's generateKeyPairSync: on node 20 a garbage collection during
// an operation on a freshly generated key can free the generating job, whose destructor then
// waits for the key's lock that the operation holds, and the test process hangs for ever (seen
// in tests/integration/jwks-url.test.mjs, one run in seven, and in CI).
export function newKeyPair(kind) {
  const options = {
    ec: ['-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256'],
    rsa: ['-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:2048'],
    ed25519: ['-algorithm', 'ED25519'],
  }[kind];
  if (!options) throw new Error(`no key pair of kind ${kind}`);
  const privateKey = createPrivateKey(execFileSync('openssl', ['genpkey', ...options], { encoding: 'utf8' }));
  return { privateKey, publicKey: createPublicKey(privateKey) };
}

// Signs `claims` with `header.alg`: ES256/RS256 with a private KeyObject, HS256 with a secret
// (Buffer or string), `none` with nothing.
export function signJwt(header, claims, key) {
  const input = `${b64url(JSON.stringify(header))}.${b64url(JSON.stringify(claims))}`;
  let signature;
  switch (header.alg) {
    case 'ES256': signature = sign('sha256', Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' }); break;
    case 'RS256': signature = sign('sha256', Buffer.from(input), key); break;
    case 'HS256': signature = createHmac('sha256', key).update(input).digest(); break;
    case 'none': signature = Buffer.alloc(0); break;
    default: throw new Error(`signJwt: unsupported alg ${header.alg}`);
  }
  return `${input}.${b64url(signature)}`;
}

export const now = () => Math.floor(Date.now() / 1000);

// The stack's development signing key (scripts/stack writes it; ES256, P-256).
export function devKey() {
  return createPrivateKey(readFileSync(process.env.NETGRAPH_DEV_SIGNING_KEY));
}

// Claims a token for `sub` carries: the configured iss/aud, an hour of validity, and `extra`.
export function claimsFor(sub, extra = {}) {
  const claims = { sub, iat: now(), exp: now() + 3600 };
  if (process.env.NETGRAPH_JWT_ISSUER) claims.iss = process.env.NETGRAPH_JWT_ISSUER;
  if (process.env.NETGRAPH_JWT_AUDIENCE) claims.aud = process.env.NETGRAPH_JWT_AUDIENCE;
  return { ...claims, ...extra };
}

// A token the stack accepts for `sub` (ES256 with the development key).
export function tokenFor(sub, extra = {}) {
  return signJwt({ alg: 'ES256', typ: 'JWT' }, claimsFor(sub, extra), devKey());
}
