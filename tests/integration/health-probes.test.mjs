// Liveness and readiness through nginx: /live answers 200 whatever PostgreSQL and Redis do, /health
// is 503 while PostgreSQL is down, and a load balancer probing /health every few milliseconds then
// does not flood the log: the pool writes a line a minute per worker about it, not one per probe.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { baseUrl, repo, runDir, stackStart, waitFor } from '../support/stack.mjs';

const poolLog = path.join(runDir, 'logs', 'fcgi.log');
const stack = (...args) => execFileSync(path.join(repo, 'scripts', 'stack'), args, { stdio: 'ignore', env: process.env });

after(() => stackStart('postgres'));

test('/live is 200 with no dependency asked; /health is the readiness check', async () => {
  const live = await fetch(`${baseUrl}/live`);
  assert.equal(live.status, 200);
  assert.deepEqual(await live.json(), { status: 'alive' });
  assert.equal(live.headers.get('cache-control'), 'no-store');
  assert.equal((await fetch(`${baseUrl}/health`)).status, 200);
  assert.equal((await fetch(`${baseUrl}/live`, { method: 'POST' })).status, 405);
});

test('with PostgreSQL down: /health 503, /live 200, and 40 probes log at most a line or two per worker', async () => {
  const workers = Number(process.env.NETGRAPH_WORKERS ?? 2);
  const logged = statSync(poolLog).size;
  stack('stop', 'postgres');
  try {
    for (let i = 0; i < 40; i++) {
      const health = await fetch(`${baseUrl}/health`);
      assert.equal(health.status, 503);
      await health.arrayBuffer();
      assert.equal((await fetch(`${baseUrl}/live`)).status, 200);
    }
  } finally {
    stackStart('postgres');
  }
  const lines = readFileSync(poolLog, 'utf8').slice(logged).split('\n').filter((l) => l.includes(' health: '));
  assert.ok(lines.length >= 1, 'the outage is logged');
  // The first probe a worker answers writes its line; the rest of the minute only counts.
  assert.ok(lines.length <= workers, `${lines.length} lines for 40 probes:\n${lines.join('\n')}`);
  await waitFor(async () => (await fetch(`${baseUrl}/health`)).status === 200, { timeoutMs: 30000, what: '/health 200 again' });
});
