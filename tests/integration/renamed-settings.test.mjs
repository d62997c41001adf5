// Durations are configured in milliseconds by variables ending in _MS (docs/operations.md,
// "Configuration"). The three that took seconds under names without a unit still work for one
// release, read as seconds and checked in seconds, and each use logs a warning naming the new one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EX_CONFIG, runDaemon } from '../support/daemon.mjs';

test('netgraph-fcgi starts with the old NETGRAPH_SHUTDOWN_TIMEOUT and warns that it is deprecated', async () => {
  // The stack sets the new name; unset (empty) it so the old one is the one read.
  const run = await runDaemon('netgraph-fcgi', { NETGRAPH_SHUTDOWN_TIMEOUT_MS: '', NETGRAPH_SHUTDOWN_TIMEOUT: '5' });
  assert.equal(run.started, true, run.stderr);
  assert.match(run.stderr, /warn .*NETGRAPH_SHUTDOWN_TIMEOUT is deprecated.*set NETGRAPH_SHUTDOWN_TIMEOUT_MS instead/);
});

test('the old NETGRAPH_SHUTDOWN_TIMEOUT is read in seconds: beyond an hour is refused (78)', async () => {
  const run = await runDaemon('netgraph-fcgi', { NETGRAPH_SHUTDOWN_TIMEOUT_MS: '', NETGRAPH_SHUTDOWN_TIMEOUT: '3601' });
  assert.equal(run.code, EX_CONFIG, run.stderr);
  assert.match(run.stderr, /NETGRAPH_SHUTDOWN_TIMEOUT must be an integer from 0 to 3600, not '3601'/);
});

test('NETGRAPH_SHUTDOWN_TIMEOUT_MS is read, and a bad value is refused (78)', async () => {
  const run = await runDaemon('netgraph-fcgi', { NETGRAPH_SHUTDOWN_TIMEOUT_MS: '10s' });
  assert.equal(run.code, EX_CONFIG, run.stderr);
  assert.match(run.stderr, /NETGRAPH_SHUTDOWN_TIMEOUT_MS must be an integer from 0 to 3600000, not '10s'/);
});

test('with both names set, the new one wins and the old one is reported as ignored', async () => {
  const run = await runDaemon('netgraph-fcgi', { NETGRAPH_SHUTDOWN_TIMEOUT_MS: '2000', NETGRAPH_SHUTDOWN_TIMEOUT: '3601' });
  assert.equal(run.started, true, run.stderr);
  assert.match(run.stderr, /NETGRAPH_SHUTDOWN_TIMEOUT is ignored: NETGRAPH_SHUTDOWN_TIMEOUT_MS is set/);
});

test('netgraph-ws starts with the old NETGRAPH_WS_PING_INTERVAL and NETGRAPH_WS_PONG_TIMEOUT and warns', async () => {
  const run = await runDaemon('netgraph-ws', { NETGRAPH_WS_PING_INTERVAL: '20', NETGRAPH_WS_PONG_TIMEOUT: '10' });
  assert.equal(run.started, true, run.stderr);
  assert.match(run.stderr, /NETGRAPH_WS_PING_INTERVAL is deprecated.*NETGRAPH_WS_PING_INTERVAL_MS/);
  assert.match(run.stderr, /NETGRAPH_WS_PONG_TIMEOUT is deprecated.*NETGRAPH_WS_PONG_TIMEOUT_MS/);
});
