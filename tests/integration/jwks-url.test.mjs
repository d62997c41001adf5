// NETGRAPH_JWT_JWKS_URL through the stack: the pool and netgraph-ws fetch the identity provider's
// keys from a real local HTTPS server (tests/support/jwks-server.mjs, its CA named by
// NETGRAPH_JWT_JWKS_CA_FILE), pick up a rotation there without a restart (a new kid is fetched on
// sight, a dropped key is refused once the set is refreshed per Cache-Control), keep the last good
// set while the provider is down or serves garbage, fetch for unknown kids only at the rate the
// minimum refresh interval allows, and never make a request wait for a fetch (a slow provider
// delays nothing). The stack's daemons read $NETGRAPH_RUN_DIR/stack.env as their configuration
// file (scripts/stack): the test points it at the server and reloads them.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { graphql, readPid, runDir, stackSettings, waitFor } from '../support/stack.mjs';
import { claimsFor } from '../support/jwt.mjs';
import { PORTFOLIO } from '../support/api.mjs';
import { makeCertificates, signingKey, startJwksServer } from '../support/jwks-server.mjs';
import { connectionOutcome } from '../support/websocket.mjs';

const settings = stackSettings();
const { original } = settings;
const logOf = (daemon) => readFileSync(path.join(runDir, 'logs', `${daemon}.log`), 'utf8');
const count = (text, needle) => text.split(needle).length - 1;
const configure = (changes) => settings.configure(changes);

// The daemons' keys from the test's server, with `settings` (a daemon reload applies them).
const useUrl = (settings) => configure({
  NETGRAPH_JWT_PUBLIC_KEY_FILE: null,
  NETGRAPH_JWT_JWKS_URL: server.url,
  NETGRAPH_JWT_JWKS_CA_FILE: server.caFile,
  NETGRAPH_JWT_JWKS_MAX_REFRESH_SECONDS: 3600,
  ...settings,
});

// SIGHUP, as `systemctl reload`, and the reload's outcome line in the daemon's log.
async function reload(daemon, outcome) {
  const seen = count(logOf(daemon), outcome);
  process.kill(readPid(`${daemon}.pid`), 'SIGHUP');
  await waitFor(() => count(logOf(daemon), outcome) > seen, { timeoutMs: 60000, what: `${daemon}: ${outcome}` });
}
const reloadBoth = async () => {
  await reload('fcgi', 'reload complete');
  await reload('ws', 'reloaded:');
};

const workers = Number(/^NETGRAPH_WORKERS=(\d+)/m.exec(original)?.[1] ?? 1);

// Whether the pool accepts `token`: each worker holds its own key set, so "every worker" is
// `times` answers in a row, more than the workers a request can land on.
const acceptedByPool = async (token) => (await graphql(PORTFOLIO, { token })).body.data.getUserPortfolio.success;
async function poolAnswers(token, expected, times = 4 * workers) {
  for (let i = 0; i < times; i++) if (await acceptedByPool(token) !== expected) return false;
  return true;
}

const sub = `did:test:jwks-url-${Date.now()}`;
const first = signingKey(`first-${Date.now()}`);
const second = signingKey(`second-${Date.now()}`);
// Tokens naming a kid no one publishes, a new one each time.
const forger = signingKey('forged');
const forgedToken = () => forger.withKid(`forged-${Math.random()}`).sign(claimsFor(sub));
let server;

before(async () => {
  server = await startJwksServer({ certificates: makeCertificates(runDir) });
  server.publish([first], { maxAge: 3600 });
  useUrl({ NETGRAPH_JWT_JWKS_MIN_REFRESH_SECONDS: 1 });
  await reloadBoth();
});

after(async () => {
  settings.restore();
  await reloadBoth();
  await server?.close();
});

test('keys from the URL: a key newly published there is accepted without a restart on the pool and netgraph-ws, the retired one refused', async () => {
  // The same token before and after: verified once, it sits in each process's verified-token cache.
  const retired = first.sign(claimsFor(sub));
  assert.ok(await poolAnswers(retired, true), 'the URL\'s key works on the pool');
  assert.equal(await connectionOutcome(retired), 'ack', 'and on netgraph-ws');

  // The provider rotates: the second key replaces the first. Its kid is unknown to every process,
  // which fetches the URL again (at most once a second) and then accepts it.
  server.publish([second], { maxAge: 3600 });
  await waitFor(() => poolAnswers(second.sign(claimsFor(sub)), true),
    { timeoutMs: 30000, intervalMs: 500, what: 'the pool to accept the new key' });
  await waitFor(async () => await connectionOutcome(second.sign(claimsFor(sub))) === 'ack',
    { timeoutMs: 30000, intervalMs: 500, what: 'netgraph-ws to accept the new key' });
  // The first key is gone from the fetched set: its token, verified before with the old set, is
  // checked again and refused.
  assert.ok(await poolAnswers(retired, false), 'the retired key is refused by the pool');
  assert.equal(await connectionOutcome(retired), 4403, 'and by netgraph-ws');
});

test('a key dropped from the set is refused once Cache-Control max-age has run out, with no unknown kid involved', async () => {
  server.publish([first, second], { maxAge: 1 });
  await waitFor(() => poolAnswers(first.sign(claimsFor(sub)), true),
    { timeoutMs: 30000, intervalMs: 500, what: 'the pool to fetch both keys' });
  await waitFor(async () => await connectionOutcome(first.sign(claimsFor(sub))) === 'ack',
    { timeoutMs: 30000, intervalMs: 500, what: 'netgraph-ws to fetch both keys' });
  server.publish([second], { maxAge: 1 });
  await waitFor(() => poolAnswers(first.sign(claimsFor(sub)), false),
    { timeoutMs: 30000, intervalMs: 500, what: 'the pool to refresh and refuse the dropped key' });
  await waitFor(async () => await connectionOutcome(first.sign(claimsFor(sub))) === 4403,
    { timeoutMs: 30000, intervalMs: 500, what: 'netgraph-ws to refresh and refuse the dropped key' });
  assert.ok(await poolAnswers(second.sign(claimsFor(sub)), true));
});

test('while the provider is down or serves garbage, the last good set stays in use', async () => {
  server.publish([second], { maxAge: 1 });
  assert.ok(await poolAnswers(second.sign(claimsFor(sub)), true));
  for (const mode of ['reset', 'error', 'garbage']) {
    const failures = { fcgi: count(logOf('fcgi'), 'fetch failed'), ws: count(logOf('ws'), 'fetch failed') };
    server.misbehave(mode);
    // Both daemons have tried (max-age 1 s) and failed, and say so.
    for (const daemon of ['fcgi', 'ws']) {
      await waitFor(() => count(logOf(daemon), 'fetch failed') > failures[daemon],
        { timeoutMs: 30000, intervalMs: 500, what: `${daemon} to log a failed fetch (${mode})` });
    }
    assert.match(logOf('fcgi'), /fetch failed .*keeping the last good set, 1 key/);
    assert.ok(await poolAnswers(second.sign(claimsFor(sub)), true), `the pool keeps the key (${mode})`);
    assert.equal(await connectionOutcome(second.sign(claimsFor(sub))), 'ack', `netgraph-ws keeps the key (${mode})`);
  }
  server.misbehave(null);
});

test('tokens with unknown kids make each process fetch at most once per minimum interval', async () => {
  const minimum = 3;
  server.publish([second], { maxAge: 3600 });
  useUrl({ NETGRAPH_JWT_JWKS_MIN_REFRESH_SECONDS: minimum });
  await reloadBoth();
  const before = server.requests;
  const started = Date.now();
  let sent = 0;
  while (Date.now() - started < 6000) {
    assert.equal(await acceptedByPool(forgedToken()), false);
    assert.equal(await connectionOutcome(forgedToken()), 4403);
    sent += 2;
  }
  // Let a fetch netgraph-ws started last reach the server.
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const elapsed = (Date.now() - started) / 1000;
  const fetches = server.requests - before;
  // Each worker and netgraph-ws: one fetch per interval at most, plus the first.
  const bound = (workers + 1) * (Math.floor(elapsed / minimum) + 1);
  assert.ok(fetches <= bound, `${fetches} fetches for ${sent} forged tokens in ${elapsed} s (at most ${bound})`);
  assert.ok(fetches < sent, `${fetches} fetches, ${sent} forged tokens`);
  assert.ok(await poolAnswers(second.sign(claimsFor(sub)), true), 'the real key still works');
});

// Issue 22, finding 9: fetches happen on a thread of each worker's own (netgraph-ws: libuv's
// pool), so a request only reads the key set there is. A token naming an unknown kid is refused at
// once while the fetch it asked for runs; the scheduled refresh (max-age 1 s here) waits for no one.
test('a slow identity provider delays no request', async (t) => {
  const delayMs = 6000;
  server.publish([second], { maxAge: 1 });
  useUrl({ NETGRAPH_JWT_JWKS_MIN_REFRESH_SECONDS: 1, NETGRAPH_JWT_JWKS_TIMEOUT_MS: 20000 });
  await reloadBoth();
  assert.ok(await poolAnswers(second.sign(claimsFor(sub)), true));
  const fetchesBefore = server.requests;
  let slowest = 0;
  const timed = async (request) => {
    const started = performance.now();
    const outcome = await request();
    slowest = Math.max(slowest, performance.now() - started);
    return outcome;
  };
  server.delay(delayMs);
  try {
    const started = Date.now();
    while (Date.now() - started < 2 * delayMs) {
      const valid = second.sign(claimsFor(sub));
      const forged = forgedToken();
      assert.equal(await timed(() => acceptedByPool(valid)), true);
      assert.equal(await timed(() => acceptedByPool(forged)), false);
      assert.equal(await timed(() => connectionOutcome(forged)), 4403);
    }
  } finally {
    server.delay(0);
  }
  t.diagnostic(`${server.requests - fetchesBefore} fetches of ${delayMs} ms; the slowest request took ${slowest.toFixed(0)} ms`);
  assert.ok(server.requests > fetchesBefore, 'the daemons fetched meanwhile');
  assert.ok(slowest < delayMs / 3, `the slowest request took ${slowest.toFixed(0)} ms; each fetch ${delayMs} ms`);
});
