// Extra netgraph-fcgi pools beside the stack's (same database and Redis, a socket of their own,
// settings of their own), and a TCP relay to the stack's PostgreSQL that a test can break in the
// ways a network does, for tests that talk to a pool directly over FastCGI (tests/support/fastcgi.mjs).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { childrenOf, repo, runDir, waitFor } from './stack.mjs';

// Starts a pool of `workers` workers with the stack's environment plus `env`; it is stopped when
// test `t` ends. Resolves to {socket, pid, relayPid} once every worker and the relay run.
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
  return { socket, pid: pool.pid, relayPid };
}

// A TCP relay to the stack's PostgreSQL that the test can cut (every open connection dropped, as a
// failover or a network break would), stall (connections stay open, new ones are accepted, and
// nothing is forwarded any more: a partition, not a refusal) and close (nothing listens: the
// database is unreachable).
export async function databaseRelay() {
  const target = new URL(process.env.DATABASE_URL);
  const open = new Set();
  let stalled = false;
  const server = net.createServer((client) => {
    open.add(client);
    client.on('error', () => {});
    client.on('close', () => open.delete(client));
    if (stalled) return;  // accepted, and never answered
    const upstream = net.connect(Number(target.port), target.hostname);
    open.add(upstream);
    upstream.on('error', () => {});
    for (const socket of [client, upstream]) {
      socket.on('close', () => {
        open.delete(socket);
        if (!stalled) {
          client.destroy();
          upstream.destroy();
        }
      });
    }
    client.pipe(upstream);
    upstream.pipe(client);
  });
  const listen = (port) => new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  await listen(0);
  const { port } = server.address();
  const url = new URL(target);
  url.port = String(port);
  return {
    url: url.toString(),
    cut() { for (const socket of open) socket.destroy(); },
    stall() {
      stalled = true;
      for (const socket of open) {
        socket.unpipe();
        socket.pause();
      }
    },
    close() {
      const closed = new Promise((resolve) => server.close(resolve));
      stalled = false;
      this.cut();
      return closed;
    },
    reopen: () => listen(port),
    connections: () => open.size / 2,
  };
}
