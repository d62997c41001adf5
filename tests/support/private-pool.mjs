// A FastCGI pool of the build with settings of the test's own (a short request deadline, a slow
// log threshold, no lock timeout...), behind an nginx of its own rendered from the stack's template
// (nginx/stack.conf.template: the same locations as production), on a port next to the stack's.
// WebSocket upgrades and /ws/* go to the stack's netgraph-ws. (Locks that make a request slow for
// real: tests/support/postgres.mjs.)
import { execFileSync, spawn } from 'node:child_process';
import {
  closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { repo, runDir, waitFor } from './stack.mjs';
import { binDir } from './daemon.mjs';

const buildDir = process.env.NETGRAPH_BUILD_DIR ?? path.join(repo, 'build');

// A port of the stack's block that the stack itself does not use (it uses +0 to +3).
export function sparePort(offset) {
  return Number(new URL(process.env.NETGRAPH_BASE_URL).port) + offset;
}

// Starts netgraph-fcgi with the stack's environment plus `env`, and nginx on 127.0.0.1:`port`,
// sending WebSocket upgrades and /ws/* to `wsSocket` (default: the stack's netgraph-ws);
// `nginxConf` may rewrite the rendered nginx.conf (a lower rate limit, a cache).
// Returns {baseUrl, dir, poolLog, nginxAccessLog, masterPid, stop()}.
export async function startPrivatePool(name, {
  port, env = {}, wsSocket = path.join(runDir, 'ws.sock'), nginxConf = (conf) => conf,
}) {
  const dir = path.join(runDir, `pool-${name}`);
  rmSync(dir, { recursive: true, force: true });
  for (const sub of ['logs', 'nginx/tmp']) mkdirSync(path.join(dir, sub), { recursive: true });
  const socket = path.join(dir, 'fcgi.sock');
  const poolLog = path.join(dir, 'logs', 'fcgi.log');
  const logFd = openSync(poolLog, 'a');
  const master = spawn(path.join(binDir, 'netgraph-fcgi'), [], {
    env: { ...process.env, NETGRAPH_FCGI_LISTEN: socket, NETGRAPH_WORKERS: '2', ...env },
    stdio: ['ignore', logFd, logFd],
  });
  closeSync(logFd);
  const exited = new Promise((resolve) => master.on('exit', resolve));
  await waitFor(() => existsSync(socket) || master.exitCode !== null, { timeoutMs: 30000, what: 'the private pool' });
  if (master.exitCode !== null) throw new Error(`netgraph-fcgi exited: ${readFileSync(poolLog, 'utf8')}`);

  const template = readFileSync(path.join(repo, 'nginx', 'stack.conf.template'), 'utf8');
  const conf = template
    .replaceAll('@RUN_DIR@', dir).replaceAll('@REPO@', repo).replaceAll('@HTTP_PORT@', String(port))
    .replaceAll('@USER_LINE@', process.getuid() === 0 ? 'user root;' : '')
    .replaceAll('@WEB_ROOT@', path.join(buildDir, 'web'))
    .replaceAll('@CORS_ORIGINS@', (process.env.NETGRAPH_CORS_ORIGINS ?? '').split(',').join(' '))
    .replaceAll(`unix:${dir}/ws.sock`, `unix:${wsSocket}`);
  const nginxConfFile = path.join(dir, 'nginx', 'nginx.conf');
  writeFileSync(nginxConfFile, nginxConf(conf));
  const nginxArgs = ['-p', path.join(dir, 'nginx'), '-c', nginxConfFile, '-e', path.join(dir, 'logs', 'nginx-error.log')];
  execFileSync('nginx', nginxArgs);
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitFor(async () => (await fetch(`${baseUrl}/health`).catch(() => null))?.status === 200,
    { timeoutMs: 30000, what: 'the private nginx' });
  return {
    baseUrl,
    dir,
    poolLog,
    nginxAccessLog: path.join(dir, 'logs', 'nginx-access.log'),
    masterPid: master.pid,
    log: () => readFileSync(poolLog, 'utf8'),
    async stop() {
      try { execFileSync('nginx', [...nginxArgs, '-s', 'stop'], { stdio: 'ignore' }); } catch { /* gone */ }
      if (master.exitCode === null) master.kill('SIGTERM');
      await exited;
    },
  };
}

// A GET from `localAddress` (another loopback address, to look like a host not on the allow-list).
export async function getFrom(localAddress, url) {
  const http = await import('node:http');
  return new Promise((resolve, reject) => {
    const request = http.get(url, { localAddress }, (response) => {
      let body = '';
      response.on('data', (chunk) => { body += chunk; });
      response.on('end', () => resolve({ status: response.statusCode, body }));
    });
    request.on('error', reject);
  });
}
