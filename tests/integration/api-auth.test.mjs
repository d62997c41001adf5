// Bearer tokens through HTTP. The stack pins ES256 with a PEM key: valid tokens pass, and every
// forged, broken or stale token reads "Authentication required". A second pool, spoken to over
// FastCGI directly, pins RS256 with a JWKS and an issuer and audience: kid selection, iss and aud.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { childrenOf, graphql, netgraphctl, repo, runDir, waitFor } from '../support/stack.mjs';
import { fastcgiGraphql } from '../support/fastcgi.mjs';
import { claimsFor, devKey, newKeyPair, now, signJwt, tokenFor } from '../support/jwt.mjs';
import { CLAIM, PORTFOLIO, issueVouchers, newUser, randomWallet } from '../support/api.mjs';

const ES256 = { alg: 'ES256', typ: 'JWT' };
let code;  // an available voucher that refused callers try to claim

before(() => {
  [code] = issueVouchers(1);
});

// Asserts that `token` gets nothing but "Authentication required" from every protected operation,
// while public queries still answer.
async function assertRefused(token, what) {
  const mine = await graphql(PORTFOLIO, { token });
  assert.equal(mine.status, 200, what);
  assert.deepEqual(mine.body.data.getUserPortfolio, { success: false, error: 'Authentication required', data: null }, what);
  const claimed = await graphql(CLAIM, { token, variables: { code, wallet: randomWallet() } });
  assert.equal(claimed.body.data.claimVoucher.success, false, what);
  assert.equal(claimed.body.data.claimVoucher.error, 'Authentication required', what);
  const all = await graphql('{ allVouchers { id } }', { token });
  assert.equal(all.body.errors[0].extensions.code, 'UNAUTHENTICATED', what);
  const graph = await graphql('{ networkGraph(limit: 1) { metadata { nodeCount } } }', { token });
  assert.equal(graph.body.data.networkGraph.metadata.nodeCount, 1, `${what}: public queries still answer`);
}

test('a valid ES256 token signed with the identity provider key is accepted', async () => {
  const did = `did:test:es256-${Date.now()}`;
  const mine = await graphql(PORTFOLIO, { token: tokenFor(did, { email: 'es@example.com' }) });
  assert.equal(mine.body.data.getUserPortfolio.success, true);
  assert.equal(mine.body.data.getUserPortfolio.data.user.idpDid, did);
  assert.equal(mine.body.data.getUserPortfolio.data.user.email, 'es@example.com');
});

test('netgraphctl token mint makes tokens the stack accepts; --expired ones it refuses', async () => {
  const did = `did:test:minted-${Date.now()}`;
  const token = netgraphctl('token', 'mint', '--sub', did, '--email', 'minted@example.com').trim();
  const mine = await graphql(PORTFOLIO, { token });
  assert.equal(mine.body.data.getUserPortfolio.data.user.idpDid, did);
  const admin = netgraphctl('token', 'mint', '--sub', `${did}-admin`, '--admin').trim();
  assert.equal((await graphql('{ allVouchers(first: 1) { id } }', { token: admin })).body.errors, undefined);
  await assertRefused(netgraphctl('token', 'mint', '--sub', did, '--expired').trim(), 'minted --expired');
});

test('forged, broken and stale tokens read "Authentication required"', async () => {
  const sub = `did:test:victim-${Date.now()}`;
  const publicPem = readFileSync(process.env.NETGRAPH_JWT_PUBLIC_KEY_FILE, 'utf8');
  const otherEc = newKeyPair('ec').privateKey;
  const rsa = newKeyPair('rsa').privateKey;
  const good = tokenFor(sub);
  const cases = {
    'alg none without signature': signJwt({ alg: 'none', typ: 'JWT' }, claimsFor(sub)),
    'alg none with a signature': `${signJwt({ alg: 'none', typ: 'JWT' }, claimsFor(sub))}${good.split('.')[2]}`,
    'HS256 keyed with the public key PEM': signJwt({ alg: 'HS256', typ: 'JWT' }, claimsFor(sub), publicPem),
    'ES256 signed with another key': signJwt(ES256, claimsFor(sub), otherEc),
    'RS256 when ES256 is pinned': signJwt({ alg: 'RS256', typ: 'JWT' }, claimsFor(sub), rsa),
    'expired': signJwt(ES256, claimsFor(sub, { iat: now() - 7200, exp: now() - 3600 }), devKey()),
    'no exp': signJwt(ES256, claimsFor(sub, { exp: undefined }), devKey()),
    'nbf in the future': signJwt(ES256, claimsFor(sub, { nbf: now() + 3600 }), devKey()),
    'iat in the future': signJwt(ES256, claimsFor(sub, { iat: now() + 3600 }), devKey()),
    'missing sub': signJwt(ES256, claimsFor(sub, { sub: undefined }), devKey()),
    'empty sub': signJwt(ES256, claimsFor(sub, { sub: '' }), devKey()),
    'numeric sub': signJwt(ES256, claimsFor(sub, { sub: 42 }), devKey()),
    'a crit header': signJwt({ ...ES256, crit: ['exp'] }, claimsFor(sub), devKey()),
    'payload swapped under a valid signature': [good.split('.')[0],
      Buffer.from(JSON.stringify(claimsFor('did:test:admin'))).toString('base64url'), good.split('.')[2]].join('.'),
    'truncated signature': good.slice(0, -10),
    'truncated to two parts': good.split('.').slice(0, 2).join('.'),
    'garbage': 'this-is-not-a-token',
    'three garbage parts': 'a.b.c',
  };
  for (const [what, token] of Object.entries(cases)) await assertRefused(token, what);

  // A token far beyond any limit: nginx refuses the header itself (400), the service never sees it.
  const oversized = await graphql(PORTFOLIO, { token: `${good}${'A'.repeat(20000)}` });
  assert.equal(oversized.status, 400);

  // Malformed Authorization headers are refused the same way.
  for (const header of ['Basic dXNlcjpwYXNz', 'Bearer', `Bearer ${good} extra`, good]) {
    const { body } = await graphql(PORTFOLIO, { headers: { authorization: header } });
    assert.equal(body.data.getUserPortfolio.error, 'Authentication required', header);
  }
});

test('a token with the admin role claim is an administrator; others are not', async () => {
  const admin = newUser('claim-admin', { roles: ['admin'] });
  const notAdmin = newUser('claim-user', { roles: ['user'] });
  assert.equal((await graphql('{ allVouchers(first: 1) { id } }', { token: admin.token })).body.errors, undefined);
  const { body } = await graphql('{ allVouchers(first: 1) { id } }', { token: notAdmin.token });
  assert.equal(body.errors[0].message, 'Admin access required');
});

// --- A second pool: RS256, keys from a JWKS, issuer and audience pinned. -------------------------

const ISSUER = 'https://issuer.netgraph.test/';
const AUDIENCE = 'netgraph-api-test';
const socket = path.join(runDir, 'api-auth-rs256.sock');
const keys = {
  k1: newKeyPair('rsa'),
  k2: newKeyPair('rsa'),
};
let pool;

before(async () => {
  const jwks = path.join(runDir, 'api-auth-test.jwks.json');
  writeFileSync(jwks, JSON.stringify({
    keys: Object.entries(keys).map(([kid, pair]) => ({ ...pair.publicKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' })),
  }));
  const binary = path.join(process.env.NETGRAPH_BUILD_DIR ?? path.join(repo, 'build'), 'bin', 'netgraph-fcgi');
  pool = spawn(binary, [], {
    env: {
      ...process.env,
      NETGRAPH_FCGI_LISTEN: socket,
      NETGRAPH_WORKERS: '1',
      NETGRAPH_JWT_ALG: 'RS256',
      NETGRAPH_JWT_PUBLIC_KEY_FILE: '',
      NETGRAPH_JWT_JWKS_FILE: jwks,
      NETGRAPH_JWT_ISSUER: ISSUER,
      NETGRAPH_JWT_AUDIENCE: AUDIENCE,
    },
    stdio: 'ignore',
  });
  await waitFor(() => existsSync(socket) && childrenOf(pool.pid).length === 2, { what: 'the RS256 pool' });
});

after(async () => {
  const exited = new Promise((resolve) => pool.on('exit', resolve));
  pool.kill('SIGTERM');
  await exited;
});

async function rs256Portfolio(token) {
  const { status, body } = await fastcgiGraphql(socket, PORTFOLIO, { token });
  assert.equal(status, 200);
  return body.data.getUserPortfolio;
}

function rs256(kid, claims, key = keys[kid]?.privateKey) {
  return signJwt({ alg: 'RS256', typ: 'JWT', ...(kid ? { kid } : {}) }, claims, key);
}

test('RS256 pool: tokens signed by a JWKS key named by kid, with our iss and aud, pass', async () => {
  const sub = `did:test:rs256-${Date.now()}`;
  const claims = { sub, iss: ISSUER, aud: AUDIENCE, iat: now(), exp: now() + 600 };
  for (const kid of ['k1', 'k2']) {
    const result = await rs256Portfolio(rs256(kid, claims));
    assert.equal(result.success, true, kid);
    assert.equal(result.data.user.idpDid, sub);
  }
  const listed = await rs256Portfolio(rs256('k1', { ...claims, aud: ['other-app', AUDIENCE] }));
  assert.equal(listed.success, true, 'aud may be an array that contains ours');
});

test('RS256 pool: unknown kid, no kid, wrong key, wrong iss or aud, ES256: Authentication required', async () => {
  const sub = `did:test:rs256-bad-${Date.now()}`;
  const claims = { sub, iss: ISSUER, aud: AUDIENCE, iat: now(), exp: now() + 600 };
  const cases = {
    'unknown kid': rs256('k3', claims, keys.k1.privateKey),
    'no kid with two keys in the JWKS': rs256(null, claims, keys.k1.privateKey),
    'kid of another key': rs256('k2', claims, keys.k1.privateKey),
    'wrong iss': rs256('k1', { ...claims, iss: 'https://evil.example/' }),
    'missing iss': rs256('k1', { ...claims, iss: undefined }),
    'wrong aud': rs256('k1', { ...claims, aud: 'another-app' }),
    'missing aud': rs256('k1', { ...claims, aud: undefined }),
    'ES256 when RS256 is pinned': signJwt({ ...ES256, kid: 'k1' }, claims, devKey()),
    'expired': rs256('k1', { ...claims, exp: now() - 3600 }),
  };
  for (const [what, token] of Object.entries(cases)) {
    assert.deepEqual(await rs256Portfolio(token), { success: false, error: 'Authentication required', data: null }, what);
  }
});
