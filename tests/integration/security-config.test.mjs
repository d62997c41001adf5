// Start-up refusals and quieter disclosures (issue 9, defect 8): the daemons refuse to start without
// a pinned token issuer and audience unless told to accept any, the pool refuses a treasury key
// file others can read, a flood of bad tokens writes a bounded number of log lines, and the
// PostgreSQL version shown to anonymous callers is major.minor only.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, chownSync, copyFileSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { baseUrl, graphql, runDir } from '../support/stack.mjs';
import { EX_CONFIG, runDaemon } from '../support/daemon.mjs';
import { tokenFor } from '../support/jwt.mjs';
import { PORTFOLIO } from '../support/api.mjs';

for (const binary of ['netgraph-fcgi', 'netgraph-ws']) {
  test(`${binary} refuses to start (78) without NETGRAPH_JWT_ISSUER and NETGRAPH_JWT_AUDIENCE`, async () => {
    for (const missing of [
      { NETGRAPH_JWT_ISSUER: '', NETGRAPH_JWT_AUDIENCE: '' },
      { NETGRAPH_JWT_ISSUER: '' },
      { NETGRAPH_JWT_AUDIENCE: '' },
    ]) {
      const run = await runDaemon(binary, missing);
      assert.equal(run.started, undefined, `${binary} started with ${JSON.stringify(missing)}`);
      assert.equal(run.code, EX_CONFIG, run.stderr);
      assert.match(run.stderr, /NETGRAPH_JWT_ISSUER/);
      assert.match(run.stderr, /NETGRAPH_JWT_AUDIENCE/);
      assert.match(run.stderr, /NETGRAPH_JWT_ALLOW_ANY_ISSUER_AUDIENCE=on/);
    }
  });

  test(`${binary} starts without them when NETGRAPH_JWT_ALLOW_ANY_ISSUER_AUDIENCE=on`, async () => {
    const run = await runDaemon(binary, {
      NETGRAPH_JWT_ISSUER: '', NETGRAPH_JWT_AUDIENCE: '', NETGRAPH_JWT_ALLOW_ANY_ISSUER_AUDIENCE: 'on',
    });
    assert.equal(run.started, true, run.stderr);
  });
}

test('the stack pins an issuer and audience: tokens for another one are refused', async () => {
  assert.ok(process.env.NETGRAPH_JWT_ISSUER && process.env.NETGRAPH_JWT_AUDIENCE, 'stack.env sets both');
  const sub = `did:test:iss-aud-${Date.now()}`;
  const refused = { success: false, error: 'Authentication required', data: null };
  const cases = {
    'another issuer': tokenFor(sub, { iss: 'https://evil.example/' }),
    'no issuer': tokenFor(sub, { iss: undefined }),
    'another audience': tokenFor(sub, { aud: 'another-app' }),
    'no audience': tokenFor(sub, { aud: undefined }),
  };
  for (const [what, token] of Object.entries(cases)) {
    const { body } = await graphql(PORTFOLIO, { token });
    assert.deepEqual(body.data.getUserPortfolio, refused, what);
  }
  const { body } = await graphql(PORTFOLIO, { token: tokenFor(sub) });
  assert.equal(body.data.getUserPortfolio.success, true, 'the right issuer and audience pass');
});

test('the pool refuses a treasury key file that group or others can read', async () => {
  const copy = path.join(runDir, `security-config-treasury-${process.pid}.json`);
  rmSync(copy, { force: true });
  copyFileSync(process.env.NETGRAPH_TREASURY_KEYPAIR_FILE, copy);
  try {
    for (const mode of [0o644, 0o640]) {
      chmodSync(copy, mode);
      const run = await runDaemon('netgraph-fcgi', { NETGRAPH_TREASURY_KEYPAIR_FILE: copy });
      assert.equal(run.started, undefined, `the pool started with a mode ${mode.toString(8)} key file`);
      assert.equal(run.code, EX_CONFIG, run.stderr);
      assert.ok(run.stderr.includes(copy), run.stderr);
      assert.ok(run.stderr.includes(`accessible by group or others (mode 0${mode.toString(8)})`), run.stderr);
      assert.match(run.stderr, /chmod 600/);
    }
    chmodSync(copy, 0o600);
    const run = await runDaemon('netgraph-fcgi', { NETGRAPH_TREASURY_KEYPAIR_FILE: copy });
    assert.equal(run.started, true, run.stderr);
  } finally {
    rmSync(copy, { force: true });
  }
});

test('both daemons refuse an update signing key file that group or others can read, or another user owns', async () => {
  const copy = path.join(runDir, `security-config-signing-${process.pid}.key`);
  rmSync(copy, { force: true });
  copyFileSync(process.env.NETGRAPH_UPDATE_SIGNING_KEY_FILE, copy);
  try {
    for (const binary of ['netgraph-fcgi', 'netgraph-ws']) {
      for (const mode of [0o644, 0o640]) {
        chmodSync(copy, mode);
        const run = await runDaemon(binary, { NETGRAPH_UPDATE_SIGNING_KEY_FILE: copy });
        assert.equal(run.started, undefined, `${binary} started with a mode ${mode.toString(8)} signing key`);
        assert.equal(run.code, EX_CONFIG, run.stderr);
        assert.ok(run.stderr.includes(`NETGRAPH_UPDATE_SIGNING_KEY_FILE: update signing key file ${copy} is accessible by group or others (mode 0${mode.toString(8)})`), run.stderr);
      }
      chmodSync(copy, 0o600);
      if (process.getuid() === 0) {
        chownSync(copy, 65534, 65534);
        const foreign = await runDaemon(binary, { NETGRAPH_UPDATE_SIGNING_KEY_FILE: copy });
        assert.equal(foreign.code, EX_CONFIG, foreign.stderr);
        assert.match(foreign.stderr, /is owned by uid 65534, not by this process's user/);
        chownSync(copy, 0, 0);
      }
      const run = await runDaemon(binary, { NETGRAPH_UPDATE_SIGNING_KEY_FILE: copy });
      assert.equal(run.started, true, run.stderr);
    }
  } finally {
    rmSync(copy, { force: true });
  }
});

test('200 requests with bad tokens write a bounded number of log lines', async () => {
  const log = path.join(runDir, 'logs', 'fcgi.log');
  const rejections = () => readFileSync(log, 'utf8').split('\n').filter((l) => l.includes('rejected credentials')).length;
  // Earlier rejections of this minute (other tests) may already have taken this minute's line.
  const before = rejections();
  const bad = tokenFor('did:test:flood', { exp: Math.floor(Date.now() / 1000) - 3600 });
  for (let i = 0; i < 20; ++i) {
    const replies = await Promise.all(Array.from({ length: 10 }, () => graphql(PORTFOLIO, { token: bad })));
    for (const { body } of replies) assert.equal(body.data.getUserPortfolio.error, 'Authentication required');
  }
  const written = rejections() - before;
  assert.ok(rejections() >= 1, 'rejections are logged');
  // At most two lines per worker and minute (core/throttled_log.h); this run takes well under
  // a few minutes even on a loaded machine.
  const workers = Number(process.env.NETGRAPH_WORKERS ?? 2);
  assert.ok(written <= workers * 2 * 3, `${written} log lines for 200 bad tokens`);
});

test('graphdbStatus and /health give the PostgreSQL version as major.minor only', async () => {
  const { body } = await graphql('{ graphdbStatus { connected version } }');
  assert.equal(body.data.graphdbStatus.connected, true);
  assert.match(body.data.graphdbStatus.version, /^\d+\.\d+$/);
  const health = await (await fetch(`${baseUrl}/health`)).json();
  assert.match(health.postgres.version, /^\d+\.\d+$/);
  assert.equal(health.postgres.version, body.data.graphdbStatus.version);
});
