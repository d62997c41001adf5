// Extra netgraph-fcgi pools beside the stack's (same database and Redis, a socket of their own,
// settings of their own), for tests that talk to a pool directly over FastCGI
// (tests/support/fastcgi.mjs); tests/support/database_relay.mjs breaks their way to PostgreSQL.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fastcgiRequest } from './fastcgi.mjs';
import { childrenOf, repo, runDir, waitFor } from './stack.mjs';

// Starts a pool of `workers` workers with the stack's environment plus `env`; it is stopped when
// test `t` ends. Resolves to {socket, pid, relayPid, workers(), log(), exited} once every worker and
// the relay run: log() is what the pool has written to stderr so far, exited resolves when it exits.
export async function startPool(t, name, env = {}, { workers = 2 } = {}) {
  const socket = path.join(runDir, `${name}.sock`);
  const pool = spawn(path.join(repo, 'build', 'bin', 'netgraph-fcgi'), [], {
    env: { ...process.env, NETGRAPH_FCGI_LISTEN: socket, NETGRAPH_WORKERS: String(workers), ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  pool.stderr.on('data', (chunk) => { log += chunk; });
  const exited = new Promise((resolve) => pool.on('exit', resolve));
  t.after(async () => {
    pool.kill('SIGTERM');
    await exited;
  });
  await waitFor(() => existsSync(socket) && childrenOf(pool.pid).length === workers + 1, { what: 'the pool' });
  const relayPid = await waitFor(() => Number(/relay started as pid (\d+)/.exec(log)?.[1]), { what: 'the relay' });
  // The workers: the master's children but its relays (a reload replaces the relay too).
  const workerPids = () => {
    const relays = new Set([...log.matchAll(/relay started as pid (\d+)/g)].map((match) => Number(match[1])));
    return childrenOf(pool.pid).filter((pid) => !relays.has(pid));
  };
  return { socket, pid: pool.pid, relayPid, workers: workerPids, log: () => log, exited };
}

// A GraphQL POST to a pool over FastCGI, the whole exchange asserted to be a 200; resolves to the
// body. `hold` delays the body (see fastcgiRequest).
// Runs `fn` with the pool's relay stopped (SIGSTOP): meanwhile nothing but the worker that commits
// a change can invalidate the workers' caches. The relay goes on (SIGCONT) however `fn` ends.
export async function withRelayStopped(pool, fn) {
  process.kill(pool.relayPid, 'SIGSTOP');
  try {
    return await fn();
  } finally {
    process.kill(pool.relayPid, 'SIGCONT');
  }
}

export async function poolPost(socket, query, { token, variables, hold } = {}) {
  const response = await fastcgiRequest(socket, {
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      ...(token && { authorization: `Bearer ${token}` }),
    },
    body: JSON.stringify({ query, variables }),
    hold,
  });
  assert.equal(response.status, 200, response.body);
  return response.body;
}

// The answer's data, asserted to come without errors.
export async function poolData(socket, query, options) {
  const body = JSON.parse(await poolPost(socket, query, options));
  assert.equal(body.errors, undefined, JSON.stringify(body.errors));
  return body.data;
}

// Sends `query` to every worker of a pool of `workers`: each worker serves one connection at a
// time, so `workers` requests whose bodies are held until all have been accepted are answered by
// as many different workers. `send` makes one request (poolPost by default, resolving to the body;
// it must pass `hold` on to fastcgiRequest). Resolves to what each `send` resolved to.
export async function onEveryWorker(socket, workers, query, { send = poolPost, ...options } = {}) {
  let release;
  const hold = new Promise((resolve) => { release = resolve; });
  const pending = Array.from({ length: workers }, () => send(socket, query, { ...options, hold }));
  await new Promise((resolve) => setTimeout(resolve, 300));
  release();
  return Promise.all(pending);
}

// The pool's own /metrics over FastCGI (nginx restricts it; this talks to the pool directly), and
// one sample of it.
export async function poolMetrics(socket) {
  const response = await fastcgiRequest(socket, { method: 'GET', path: '/metrics' });
  assert.equal(response.status, 200, response.body);
  return response.body;
}
export const metricSample = (text, name) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1]);
