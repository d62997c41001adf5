// netgraph-ws does not trust what arrives on Redis (core/domain/update_authenticator.h, core/domain/update_message.h):
// messages nested deeper than client JSON may are refused without crashing the process, unsigned or
// forged updates reach no subscriber and are logged, a forged update cannot take the sequence
// number of a genuine one, and a wrong Redis password is reported as such.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { claim, issueVouchers, newUser, randomWallet } from '../support/api.mjs';
import { isAlive, readPid, repo, runDir, waitFor } from '../support/stack.mjs';
import {
  RawSocket, mentionsAny, networkUpdate, publish, publishUntilReceived, redisUrl, uniqueMarker,
} from '../support/websocket.mjs';

const wsLog = path.join(runDir, 'logs', 'ws.log');
const otherKey = randomBytes(32);
const query = 'subscription { networkUpdated { nodes { id type } } }';

// The ws log from byte `offset` on.
function wsLogFrom(offset) {
  return readFileSync(wsLog, 'utf8').slice(offset);
}

// A subscriber on networkUpdated that has received updates already (so its subscription is in place).
async function warmSubscriber() {
  const socket = new RawSocket();
  await socket.init();
  socket.send({ id: 'graph', type: 'subscribe', payload: { query } });
  await publishUntilReceived((markers) => socket.messages.some((m) => mentionsAny(m, markers)));
  return socket;
}

// Publishes forged updates until ws logs a refusal after `offset`: refusals are logged at most once
// per interval (core/throttled_log.h), so an earlier test's refusal may hold the line back.
async function refusalLogged(offset) {
  return waitFor(async () => {
    await publish(networkUpdate(uniqueMarker('forged-probe')), undefined, { key: null });
    return /refused a message from Redis/.test(wsLogFrom(offset));
  }, { timeoutMs: 30000, intervalMs: 500, what: 'netgraph-ws to log a refused message' });
}

test('a 100,000-deep message on netgraph:graph leaves netgraph-ws alive and serving', { timeout: 60000 }, async () => {
  const pid = readPid('ws.pid');
  const socket = await warmSubscriber();
  try {
    const offset = statSync(wsLog).size;
    const depth = 100000;
    const deep = `{"nodes":${'['.repeat(depth)}${']'.repeat(depth)}}`;
    // Signed, so that it is the depth limit that refuses it; and unsigned, as anyone could send it.
    assert.ok(await publish(deep) >= 1, 'netgraph-ws is subscribed');
    await publish(deep, undefined, { key: null });
    const after = uniqueMarker('after-deep');
    assert.ok(await publish(networkUpdate(after)) >= 1);
    await socket.next((m) => m.type === 'next' && mentionsAny(m, [after]), 15000);
    assert.ok(isAlive(pid), 'the same netgraph-ws process still runs');
    await waitFor(() => /nests deeper than 64 levels/.test(wsLogFrom(offset)) ||
      /refused a message from Redis/.test(wsLogFrom(offset)), { timeoutMs: 15000, what: 'the refusal logged' });
    // And new clients are served.
    const fresh = new RawSocket();
    await fresh.init();
    await fresh.close();
  } finally {
    await socket.close();
  }
});

test('unsigned and forged updates reach no subscriber, and are logged', { timeout: 60000 }, async () => {
  const socket = await warmSubscriber();
  try {
    const offset = statSync(wsLog).size;
    const unsigned = uniqueMarker('unsigned');
    const wrongKey = uniqueMarker('wrong-key');
    const genuine = uniqueMarker('genuine');
    assert.ok(await publish(networkUpdate(unsigned), undefined, { key: null }) >= 1);
    assert.ok(await publish(networkUpdate(wrongKey), undefined, { key: otherKey }) >= 1);
    assert.ok(await publish(`not-a-signature.${JSON.stringify(networkUpdate(wrongKey))}`) >= 1);
    // Redis delivers one connection's messages in order: once the genuine update is here, the
    // forged ones published before it would have been too.
    assert.ok(await publish(networkUpdate(genuine)) >= 1);
    await socket.next((m) => m.type === 'next' && mentionsAny(m, [genuine]), 15000);
    assert.ok(!socket.messages.some((m) => mentionsAny(m, [unsigned, wrongKey])),
      'no forged update was delivered');
    await refusalLogged(offset);
  } finally {
    await socket.close();
  }
});

test('a forged update carrying the next publisher sequence does not make ws drop the genuine one', { timeout: 90000 }, async () => {
  const socket = await warmSubscriber();
  try {
    // A real change, published by the outbox relay, gives the current publisher sequence.
    const [first] = issueVouchers(1);
    assert.equal((await claim(newUser('seq-a').token, first, randomWallet())).success, true);
    const current = await socket.next((m) => m.type === 'next' &&
      typeof m.payload.extensions?.publisherSequence === 'number', 15000);
    const next = current.payload.extensions.publisherSequence + 1;

    const forged = uniqueMarker('forged-sequence');
    await publish(networkUpdate(forged, { sequence: next }), undefined, { key: null });
    await publish(networkUpdate(forged, { sequence: next }), undefined, { key: otherKey });
    const [second] = issueVouchers(1);
    assert.equal((await claim(newUser('seq-b').token, second, randomWallet())).success, true);
    const delivered = await socket.next((m) => m.type === 'next' &&
      m.payload.extensions?.publisherSequence === next, 15000);
    assert.ok(!mentionsAny(delivered, [forged]), 'sequence ' + next + ' is the genuine update');
    assert.deepEqual(delivered.payload.data.networkUpdated.nodes.map((n) => n.type).sort(),
      ['Investor', 'Round', 'Wallet']);
    assert.ok(!socket.messages.some((m) => mentionsAny(m, [forged])), 'the forgery was not delivered');
  } finally {
    await socket.close();
  }
});

// Runs a second netgraph-ws on its own socket with `environment` changes; resolves with
// {exitCode, output} once `done(output)` holds or it exits.
async function runWs(environment, done) {
  const listen = path.join(runDir, `ws-trust-${process.pid}.sock`);
  const binary = path.join(process.env.NETGRAPH_BUILD_DIR ?? path.join(repo, 'build'), 'bin', 'netgraph-ws');
  const env = { ...process.env, NETGRAPH_WS_LISTEN: listen, NETGRAPH_WS_REDIS_RETRY_MAX_MS: '500' };
  for (const [name, value] of Object.entries(environment)) {
    if (value === undefined) delete env[name]; else env[name] = value;
  }
  const child = spawn(binary, [], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => { output += chunk; });
  child.stderr.on('data', (chunk) => { output += chunk; });
  let exitCode = null;
  const exited = new Promise((resolve) => child.on('exit', (code) => { exitCode = code; resolve(); }));
  try {
    await waitFor(() => exitCode !== null || done(output),
      { timeoutMs: 20000, what: 'netgraph-ws to report' });
  } finally {
    if (exitCode === null) child.kill('SIGTERM');
    await exited;
    rmSync(listen, { force: true });
  }
  return { exitCode, output };
}

test('with a wrong Redis password, netgraph-ws says that logging in to Redis failed', { timeout: 60000 }, async () => {
  const wrong = new URL(redisUrl.href);
  wrong.username = '';
  wrong.password = 'not-the-password';
  const { output } = await runWs({ REDIS_URL: wrong.href },
    (text) => /logging in \(AUTH\/SELECT\) failed: WRONGPASS/.test(text));
  assert.match(output, /Redis at 127\.0\.0\.1:\d+: logging in \(AUTH\/SELECT\) failed: WRONGPASS/);
  assert.ok(!output.includes('not-the-password'), 'the password is not logged');
});

test('without NETGRAPH_UPDATE_SIGNING_KEY_FILE, netgraph-ws refuses to start (exit 78)', { timeout: 60000 }, async () => {
  const { exitCode, output } = await runWs({ NETGRAPH_UPDATE_SIGNING_KEY_FILE: undefined }, () => false);
  assert.equal(exitCode, 78);
  assert.match(output, /NETGRAPH_UPDATE_SIGNING_KEY_FILE is not set/);
});
