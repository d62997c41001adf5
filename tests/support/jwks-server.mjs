// An identity provider's JWKS endpoint for tests: a real HTTPS server (node:https) with a
// certificate issued by a throw-away CA the test makes with openssl, serving the signing keys the
// test publishes, with the Cache-Control max-age it chooses. It can also misbehave as providers do
// (connections reset, 503, a body that is not a JWKS), and counts the requests it receives, so a
// test can see how often the daemons fetch.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { newKeyPair, signJwt } from './jwt.mjs';

// A CA and a certificate it issued for 127.0.0.1 and localhost, in a new directory under `parent`.
// Returns the paths; ca.pem is what NETGRAPH_JWT_JWKS_CA_FILE names.
export function makeCertificates(parent = os.tmpdir()) {
  const dir = mkdtempSync(path.join(parent, 'jwks-tls-'));
  const file = (name) => path.join(dir, name);
  const openssl = (...args) => execFileSync('openssl', args, { stdio: ['ignore', 'ignore', 'pipe'] });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
  openssl('req', '-x509', ...ec, '-keyout', file('ca.key'), '-out', file('ca.pem'), '-days', '2',
    '-subj', '/CN=netgraph test identity provider CA',
    '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign');
  openssl('req', ...ec, '-keyout', file('server.key'), '-out', file('server.csr'), '-subj', '/CN=127.0.0.1');
  writeFileSync(file('server.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
  openssl('x509', '-req', '-in', file('server.csr'), '-CA', file('ca.pem'), '-CAkey', file('ca.key'),
    '-CAcreateserial', '-days', '2', '-extfile', file('server.ext'), '-out', file('server.pem'));
  return { dir, caFile: file('ca.pem'), keyFile: file('server.key'), certFile: file('server.pem') };
}

// A new ES256 signing key with `kid`: its public JWK and a signer of tokens carrying the kid.
// `withKid(other)` is the same key under another kid: a test that needs many unknown kids makes one
// key (newKeyPair runs openssl), not one per token.
export function signingKey(kid, keyPair = newKeyPair('ec')) {
  const { privateKey, publicKey } = keyPair;
  const jwk = { ...publicKey.export({ format: 'jwk' }), kid, alg: 'ES256', use: 'sig' };
  return {
    kid,
    jwk,
    sign: (claims) => signJwt({ alg: 'ES256', typ: 'JWT', kid }, claims, privateKey),
    withKid: (other) => signingKey(other, keyPair),
  };
}

// Starts the server on 127.0.0.1 (`port` 0: any free port). `publish(keys, { maxAge })` sets what
// GET /jwks.json answers; `misbehave(mode)` makes it 'reset' connections, answer 'error' (503) or
// 'garbage' (200 with HTML), and misbehave(null) serves the keys again; `delay(ms)` holds every
// answer that long first, as an overloaded provider does (delay(0): no more).
export async function startJwksServer({ port = 0, certificates = makeCertificates() } = {}) {
  let keys = [];
  let maxAge = 3600;
  let mode = null;
  let delayMs = 0;
  const state = { requests: 0 };
  const server = createServer({
    key: readFileSync(certificates.keyFile), cert: readFileSync(certificates.certFile),
  }, async (request, response) => {
    state.requests++;
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    if (mode === 'reset') { request.socket.destroy(); return; }
    if (mode === 'error') { response.writeHead(503, { 'content-type': 'text/plain' }).end('unavailable'); return; }
    if (mode === 'garbage') {
      response.writeHead(200, { 'content-type': 'text/html', 'cache-control': 'max-age=1' })
        .end('<html><body>502 Bad Gateway</body></html>');
      return;
    }
    if (request.url !== '/jwks.json') { response.writeHead(404).end(); return; }
    response.writeHead(200, { 'content-type': 'application/json', 'cache-control': `public, max-age=${maxAge}` })
      .end(JSON.stringify({ keys: keys.map((key) => key.jwk) }));
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  const address = server.address();
  return {
    url: `https://127.0.0.1:${address.port}/jwks.json`,
    caFile: certificates.caFile,
    get requests() { return state.requests; },
    publish(published, options = {}) {
      keys = published;
      if (options.maxAge !== undefined) maxAge = options.maxAge;
    },
    misbehave(how) { mode = how; },
    delay(ms) { delayMs = ms; },
    // Stops the server and removes its certificates.
    close: async () => {
      await new Promise((resolve) => { server.closeAllConnections(); server.close(resolve); });
      rmSync(certificates.dir, { recursive: true, force: true });
    },
  };
}
