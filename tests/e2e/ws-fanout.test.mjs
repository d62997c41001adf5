// Fan-out at scale: 2,000 concurrent subscribers through nginx each receive every one of 100
// updates. Runs bench/ws-fanout.mjs and prints its latency percentiles and memory per connection.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { repo } from '../support/stack.mjs';

test('2,000 subscribers all receive each of 100 updates', { timeout: 300000 }, () => {
  const run = spawnSync(process.execPath, [
    path.join(repo, 'bench', 'ws-fanout.mjs'), '--clients', '2000', '--updates', '100', '--rate', '10', '--json',
  ], { encoding: 'utf8', env: process.env, timeout: 280000 });
  assert.equal(run.error, undefined);
  const line = run.stdout.trim().split('\n').pop();
  assert.ok(line, `the bench printed nothing: ${run.stderr}`);
  const result = JSON.parse(line);
  console.log(`ws fan-out: ${result.delivered}/${result.expected} delivered; latency p50 ${result.latency_ms.p50} ms, ` +
    `p99 ${result.latency_ms.p99} ms, max ${result.latency_ms.max} ms; ${result.deliveries_per_second} deliveries/s; ` +
    `RSS per connection ${result.rss_per_connection_kib} KiB`);
  assert.equal(result.unexpected_closes, 0);
  assert.equal(result.missing, 0);
  assert.equal(run.status, 0);
});
