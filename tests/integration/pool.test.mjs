// The FastCGI pool behind nginx: health, the engine's entry point, worker supervision, shutdown.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import WebSocket from 'ws';
import {
  baseUrl, childrenOf, graphql, isAlive, readPid, repo, runDir, waitFor, wsUrl,
} from '../support/stack.mjs';

test('GET /health answers 200 with the state of PostgreSQL and Redis', async () => {
  const response = await fetch(`${baseUrl}/health`);
  assert.equal(response.status, 200);
  assert.match(response.headers.get('content-type'), /^application\/json/);
  const body = await response.json();
  assert.equal(body.status, 'ok');
  assert.equal(body.postgres.connected, true);
  assert.match(body.postgres.version, /^\d+\.\d+/);
  assert.equal(body.redis.connected, true);
});

test('graphdbStatus through nginx reports the real PostgreSQL server', async () => {
  const { status, body } = await graphql('{ graphdbStatus { connected version } }');
  assert.equal(status, 200);
  assert.equal(body.errors, undefined);
  assert.equal(body.data.graphdbStatus.connected, true);
  assert.match(body.data.graphdbStatus.version, /^\d+\.\d+/);
});

test('{ __typename } answers Query', async () => {
  const { status, body } = await graphql('{ __typename }');
  assert.equal(status, 200);
  assert.deepEqual(body, { data: { __typename: 'Query' } });
});

test('an unknown path is 404 JSON, not a crash', async () => {
  const response = await fetch(`${baseUrl}/nope`);
  assert.equal(response.status, 404);
  assert.match(await response.text(), /graphql/);
});

test('a WebSocket connection_init is acknowledged through nginx', async () => {
  const socket = new WebSocket(wsUrl, 'graphql-transport-ws');
  const reply = await new Promise((resolve, reject) => {
    socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init' })));
    socket.on('message', (data) => resolve(JSON.parse(data.toString())));
    socket.on('error', reject);
    socket.on('close', (code) => reject(new Error(`closed with ${code}`)));
  });
  assert.equal(socket.protocol, 'graphql-transport-ws');
  assert.equal(reply.type, 'connection_ack');
  socket.close(1000);
});

test('a worker killed with SIGKILL is replaced and the pool keeps serving', async () => {
  const master = readPid('fcgi.pid');
  assert.ok(master && isAlive(master), 'the stack runs netgraph-fcgi');
  const before = childrenOf(master);
  assert.ok(before.length >= 1, 'the master has workers');
  const victim = before[0];
  process.kill(victim, 'SIGKILL');
  const after = await waitFor(() => {
    const now = childrenOf(master);
    return now.length === before.length && !now.includes(victim) ? now : null;
  }, { what: 'a replacement worker' });
  assert.equal(after.length, before.length);
  for (let i = 0; i < 20; i++) {
    const { status } = await graphql('{ __typename }');
    assert.equal(status, 200);
  }
});

test('SIGHUP replaces every worker one by one while requests keep succeeding', async () => {
  const master = readPid('fcgi.pid');
  const before = childrenOf(master);
  process.kill(master, 'SIGHUP');
  let failures = 0;
  const replaced = waitFor(() => {
    const now = childrenOf(master);
    return now.length === before.length && now.every((pid) => !before.includes(pid)) ? now : null;
  }, { what: 'all workers replaced', timeoutMs: 20000 });
  let done = false;
  replaced.finally(() => { done = true; });
  while (!done) {
    const { status } = await graphql('{ __typename }');
    if (status !== 200) failures++;
  }
  await replaced;
  assert.equal(failures, 0);
});

test('SIGTERM stops a pool gracefully and leaves no process behind', async () => {
  const socket = path.join(runDir, 'sigterm-test.sock');
  const pool = spawn(path.join(repo, 'build', 'bin', 'netgraph-fcgi'), [], {
    env: { ...process.env, NETGRAPH_FCGI_LISTEN: socket, NETGRAPH_WORKERS: '3' },
    stdio: 'ignore',
  });
  // Three workers and the outbox relay.
  await waitFor(() => existsSync(socket) && childrenOf(pool.pid).length === 4, { what: 'the pool' });
  const children = childrenOf(pool.pid);
  const exited = new Promise((resolve) => pool.on('exit', (code, signal) => resolve({ code, signal })));
  pool.kill('SIGTERM');
  const { code } = await exited;
  assert.equal(code, 0);
  for (const pid of children) assert.equal(isAlive(pid), false, `child ${pid} is gone`);
  assert.equal(existsSync(socket), false, 'the socket file is removed');
});
