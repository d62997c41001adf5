// The FastCGI pool behind nginx: health, the engine's entry point, worker supervision, shutdown.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import WebSocket from 'ws';
import {
  baseUrl, childrenOf, graphql, isAlive, readPid, repo, runDir, waitFor, wsUrl,
} from '../support/stack.mjs';
import { fastcgiGraphql, fastcgiRequest } from '../support/fastcgi.mjs';
import { databaseRelay } from '../support/database_relay.mjs';
import { startPool } from '../support/pool.mjs';

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

test('SIGTERM lets an in-flight request finish, then stops the pool and leaves no process behind', async () => {
  const socket = path.join(runDir, 'sigterm-test.sock');
  const pool = spawn(path.join(repo, 'build', 'bin', 'netgraph-fcgi'), [], {
    env: { ...process.env, NETGRAPH_FCGI_LISTEN: socket, NETGRAPH_WORKERS: '3' },
    stdio: 'ignore',
  });
  // Three workers and the outbox relay.
  await waitFor(() => existsSync(socket) && childrenOf(pool.pid).length === 4, { what: 'the pool' });
  const children = childrenOf(pool.pid);
  const exited = new Promise((resolve) => pool.on('exit', (code, signal) => resolve({ code, signal })));
  // A worker has accepted this request and waits for its body when SIGTERM arrives.
  let sendBody;
  const inFlight = fastcgiRequest(socket, {
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ query: '{ graphdbStatus { connected } }' }),
    hold: new Promise((resolve) => { sendBody = resolve; }),
  });
  await new Promise((resolve) => setTimeout(resolve, 200));
  pool.kill('SIGTERM');
  await new Promise((resolve) => setTimeout(resolve, 300));
  sendBody();
  const response = await inFlight;
  assert.equal(response.status, 200);
  assert.deepEqual(JSON.parse(response.body), { data: { graphdbStatus: { connected: true } } });
  const { code } = await exited;
  assert.equal(code, 0);
  for (const pid of children) assert.equal(isAlive(pid), false, `child ${pid} is gone`);
  assert.equal(existsSync(socket), false, 'the socket file is removed');
});

const health = async (socket) => {
  const response = await fastcgiRequest(socket, { method: 'GET', path: '/health' });
  return { status: response.status, body: JSON.parse(response.body) };
};
const databaseStatus = async (socket) => {
  const { status, body } = await fastcgiGraphql(socket, '{ graphdbStatus { connected version } }');
  assert.equal(status, 200);
  return body.data.graphdbStatus;
};

test('workers reconnect to PostgreSQL after their connections are cut, without a failed request', async (t) => {
  const relay = await databaseRelay();
  t.after(() => relay.close());
  const { socket } = await startPool(t, 'reconnect-test', { DATABASE_URL: relay.url });
  for (let i = 0; i < 4; i++) assert.equal((await databaseStatus(socket)).connected, true);

  // Waits for the connections cut to close, not for none to be open: the pool's outbox relay
  // reconnects by itself at once, which could hide a moment of none from a poll.
  await relay.cut();
  // Each of the two workers meets its broken connection on its next request and opens another.
  for (let i = 0; i < 8; i++) {
    const status = await databaseStatus(socket);
    assert.equal(status.connected, true, `request ${i} after the cut`);
    assert.match(status.version, /^\d+\.\d+/);
  }
  assert.ok(relay.connections() >= 1, 'the workers connected again');
});

test('with PostgreSQL unreachable /health is 503 and graphdbStatus says so; both recover when it is back', async (t) => {
  const relay = await databaseRelay();
  t.after(() => relay.close());
  const { socket } = await startPool(t, 'unreachable-test', {
    DATABASE_URL: relay.url, PGCONNECT_TIMEOUT: '2',
  });
  assert.equal((await health(socket)).status, 200);

  await relay.close();
  const down = await health(socket);
  assert.equal(down.status, 503);
  assert.equal(down.body.status, 'unavailable');
  assert.equal(down.body.postgres.connected, false);
  assert.deepEqual(await databaseStatus(socket), { connected: false, version: null });

  await relay.reopen();
  await waitFor(async () => (await health(socket)).status === 200, { what: 'health back to 200' });
  assert.equal((await databaseStatus(socket)).connected, true);
});

test('under systemd socket activation the pool serves on the socket it is handed (LISTEN_FDS)', async (t) => {
  const activated = path.join(runDir, 'activated-test.sock');
  const unused = path.join(runDir, 'activation-unused.sock');
  // systemd-socket-activate binds the socket, and on the first connection runs the pool with it as
  // fd 3, LISTEN_FDS=1 and LISTEN_PID set, as systemd does; it passes on only the -E variables.
  const environment = Object.entries({ ...process.env, NETGRAPH_WORKERS: '2', NETGRAPH_FCGI_LISTEN: unused })
    .filter(([name]) => /^(NETGRAPH_|DATABASE_URL$|REDIS_URL$|PG)/.test(name))
    .flatMap(([name, value]) => ['-E', `${name}=${value}`]);
  rmSync(activated, { force: true });  // an inherited socket is systemd's to remove, not the pool's
  const launcher = spawn('systemd-socket-activate', ['-l', activated, ...environment,
    path.join(repo, 'build', 'bin', 'netgraph-fcgi')], { stdio: 'ignore' });
  const exited = new Promise((resolve) => launcher.on('exit', resolve));
  t.after(async () => {
    launcher.kill('SIGTERM');
    await exited;
    rmSync(activated, { force: true });
  });
  await waitFor(() => existsSync(activated), { what: 'the activation socket' });

  const first = await health(activated);
  assert.equal(first.status, 200);
  assert.equal(first.body.status, 'ok');
  // The pool (exec'd in the launcher's place) runs its workers and the relay on the inherited socket.
  await waitFor(() => childrenOf(launcher.pid).length === 3, { what: 'the workers' });
  assert.deepEqual(await databaseStatus(activated), { connected: true, version: first.body.postgres.version });
  assert.equal(existsSync(unused), false, 'NETGRAPH_FCGI_LISTEN is ignored when systemd passes a socket');
});

// Running, as opposed to gone or a zombie nobody has reaped yet.
function running(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

test('without systemd, the workers and the relay end when their master is killed outright', async (t) => {
  const socket = path.join(runDir, 'orphans-test.sock');
  const pool = spawn(path.join(repo, 'build', 'bin', 'netgraph-fcgi'), [], {
    env: { ...process.env, NETGRAPH_FCGI_LISTEN: socket, NETGRAPH_WORKERS: '2' },
    stdio: 'ignore',
  });
  const exited = new Promise((resolve) => pool.on('exit', resolve));
  let children = [];
  t.after(() => {
    for (const pid of children.filter(running)) process.kill(pid, 'SIGKILL');
    rmSync(socket, { force: true });  // the killed master could not remove it
  });
  // Two workers and the outbox relay.
  await waitFor(() => existsSync(socket) && childrenOf(pool.pid).length === 3, { what: 'the pool' });
  children = childrenOf(pool.pid);
  pool.kill('SIGKILL');
  await exited;
  await waitFor(() => !children.some(running), { timeoutMs: 15000, what: 'the orphans to end' });
});
