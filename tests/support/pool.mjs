// Extra netgraph-fcgi pools beside the stack's (same database and Redis, a socket of their own,
// settings of their own), for tests that talk to a pool directly over FastCGI
// (tests/support/fastcgi.mjs); tests/support/database_relay.mjs breaks their way to PostgreSQL.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { childrenOf, repo, runDir, waitFor } from './stack.mjs';

// Starts a pool of `workers` workers with the stack's environment plus `env`; it is stopped when
// test `t` ends. Resolves to {socket, pid, relayPid, workers()} once every worker and the relay run.
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
  return { socket, pid: pool.pid, relayPid, workers: workerPids };
}
