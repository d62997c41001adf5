// Reload that reloads, through the stack: the stack's daemons read $NETGRAPH_RUN_DIR/stack.env as
// their configuration file (scripts/stack), so each test edits that file and sends SIGHUP, as
// `systemctl reload` does. The pool (netgraph-fcgi) applies a new worker count and new token keys
// without a restart and without a failed request, and refuses a bad configuration while its
// workers keep serving; netgraph-ws applies new keys and keeps every subscriber connected.
import { test, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  childrenOf, graphql, isAlive, readPid, runDir, stackSettings, waitFor,
} from '../support/stack.mjs';
import { claimsFor, newKeyPair, signJwt, tokenFor } from '../support/jwt.mjs';
import { PORTFOLIO } from '../support/api.mjs';
import { loadLoop } from '../support/load-loop.mjs';
import {
  connectionOutcome, graphqlWsClient, networkUpdatedQuery, publishUntilReceived, subscribe,
} from '../support/websocket.mjs';

const settings = stackSettings();
const configure = (changes) => settings.configure(changes);

const logOf = (daemon) => readFileSync(path.join(runDir, 'logs', `${daemon}.log`), 'utf8');
const count = (text, needle) => text.split(needle).length - 1;

// Sends SIGHUP to the daemon and waits until its log shows the reload's outcome (`outcome`, a line
// it logs once per reload). Returns the log lines the reload wrote.
async function reload(daemon, outcome) {
  const pid = readPid(`${daemon}.pid`);
  const before = logOf(daemon);
  const seen = count(before, outcome);
  process.kill(pid, 'SIGHUP');
  await waitFor(() => count(logOf(daemon), outcome) > seen, { timeoutMs: 60000, what: `${daemon}: ${outcome}` });
  assert.equal(readPid(`${daemon}.pid`), pid);
  assert.ok(isAlive(pid), `${daemon} still runs: reloaded, not restarted`);
  return logOf(daemon).slice(before.length);
}

// The pool's workers: the master's children but the outbox relay (one).
const workerCount = () => childrenOf(readPid('fcgi.pid')).length - 1;

afterEach(async () => {
  if (!settings.changed()) return;
  settings.restore();
  await reload('fcgi', 'reload complete');
  await reload('ws', 'reloaded:');
});

test('a reload with NETGRAPH_WORKERS 2 then 4 gives 4 workers while a load loop sees no failed request', async () => {
  configure({ NETGRAPH_WORKERS: 2 });
  await reload('fcgi', 'reload complete');
  await waitFor(() => workerCount() === 2, { timeoutMs: 30000, what: '2 workers' });

  const load = loadLoop();
  await new Promise((resolve) => setTimeout(resolve, 500));
  configure({ NETGRAPH_WORKERS: 4 });
  const written = await reload('fcgi', 'reload complete');
  await waitFor(() => workerCount() === 4, { timeoutMs: 30000, what: '4 workers' });
  await new Promise((resolve) => setTimeout(resolve, 500));
  const tally = await load.stop();
  assert.match(written, /reloading: 5 children from now on/);
  assert.deepEqual(tally.failed, []);
  assert.ok(tally.ok > 0, 'the load loop ran');
});

// A second signing key, published as a JWKS the way identity providers do.
function rotatedKey() {
  const { privateKey, publicKey } = newKeyPair('ec');
  const jwk = { ...publicKey.export({ format: 'jwk' }), kid: `rotated-${Date.now()}`, alg: 'ES256', use: 'sig' };
  const jwks = path.join(runDir, `jwks-${process.pid}.json`);
  writeFileSync(jwks, JSON.stringify({ keys: [jwk] }));
  const token = (sub) => signJwt({ alg: 'ES256', typ: 'JWT', kid: jwk.kid }, claimsFor(sub), privateKey);
  return { jwks, token };
}

const accepted = async (token) => (await graphql(PORTFOLIO, { token })).body.data.getUserPortfolio.success;

test('a reload after rotating the token key: new tokens accepted, the retired key refused, no restart', async () => {
  const rotated = rotatedKey();
  const sub = `did:test:rotation-${Date.now()}`;
  assert.equal(await accepted(tokenFor(sub)), true, 'the current key works before the rotation');
  assert.equal(await accepted(rotated.token(sub)), false, 'the new key is unknown before the reload');

  configure({ NETGRAPH_JWT_PUBLIC_KEY_FILE: null, NETGRAPH_JWT_JWKS_FILE: rotated.jwks });
  await reload('fcgi', 'reload complete');
  assert.equal(await accepted(rotated.token(sub)), true, 'new tokens are accepted');
  assert.equal(await accepted(tokenFor(sub)), false, 'the retired key is refused');
});

test('a bad configuration on reload is refused with a log line and the workers keep serving', async () => {
  const workers = childrenOf(readPid('fcgi.pid')).sort();
  configure({ NETGRAPH_WORKERS: 'many', NETGRAPH_JWT_ALG: 'none' });
  const written = await reload('fcgi', 'reload refused');
  assert.match(written, /NETGRAPH_WORKERS must be an integer from 1 to 1024, not 'many'/);
  assert.match(written, /NETGRAPH_JWT_ALG must be ES256 or RS256, not 'none'/);
  assert.deepEqual(childrenOf(readPid('fcgi.pid')).sort(), workers, 'no worker was replaced');
  for (let i = 0; i < 10; i++) {
    const { status } = await graphql('{ __typename }');
    assert.equal(status, 200);
  }
  assert.equal(await accepted(tokenFor(`did:test:refused-reload-${Date.now()}`)), true, 'old keys still apply');
});

test('SIGHUP to netgraph-ws applies the new keys and keeps every subscriber connected', async () => {
  const clients = [];
  const subscriptions = [];
  let closes = 0;
  try {
    for (let i = 0; i < 5; i++) {
      const client = graphqlWsClient({ on: { closed: () => { closes++; } } });
      clients.push(client);
      subscriptions.push(subscribe(client, { query: networkUpdatedQuery }));
    }
    await publishUntilReceived((markers) =>
      subscriptions.every((s) => s.results.some((r) => markers.some((m) => JSON.stringify(r).includes(m)))));

    const rotated = rotatedKey();
    const sub = `did:test:ws-rotation-${Date.now()}`;
    assert.equal(await connectionOutcome(tokenFor(sub)), 'ack');
    assert.equal(await connectionOutcome(rotated.token(sub)), 4403, 'the new key is unknown before the reload');

    configure({ NETGRAPH_JWT_PUBLIC_KEY_FILE: null, NETGRAPH_JWT_JWKS_FILE: rotated.jwks });
    await reload('ws', 'reloaded:');
    assert.equal(await connectionOutcome(rotated.token(sub)), 'ack', 'new tokens are accepted');
    assert.equal(await connectionOutcome(tokenFor(sub)), 4403, 'the retired key is refused');

    // Every subscriber is still there and still fed.
    const counts = subscriptions.map((s) => s.results.length);
    await publishUntilReceived(() => subscriptions.every((s, i) => s.results.length > counts[i]));
    assert.equal(closes, 0, 'no subscriber was disconnected');
    assert.ok(subscriptions.every((s) => s.errors.length === 0 && !s.completed));
  } finally {
    for (const s of subscriptions) s.unsubscribe();
    await Promise.all(clients.map((c) => c.dispose()));
  }
});
