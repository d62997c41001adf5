// Helpers for tests that run against the private stack scripts/test brings up. The stack's settings
// come from its stack.env, which scripts/test exports into the environment.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

function required(name) {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the tests through scripts/test`);
  return value;
}

export const repo = process.env.NETGRAPH_REPO ?? path.resolve(import.meta.dirname, '../..');
export const baseUrl = required('NETGRAPH_BASE_URL');
export const wsUrl = required('NETGRAPH_WS_URL');
export const runDir = required('NETGRAPH_RUN_DIR');
export const graphqlUrl = `${baseUrl}/graphql`;
export const netgraphctlPath = path.join(process.env.NETGRAPH_BUILD_DIR ?? path.join(repo, 'build'), 'bin', 'netgraphctl');

// POSTs a GraphQL request; returns {status, headers, body (parsed JSON or null), text}.
export async function graphql(query, { variables, operationName, token, headers = {} } = {}) {
  const response = await fetch(graphqlUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/graphql-response+json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    body: JSON.stringify({ query, variables, operationName }),
  }).catch((error) => {
    // fetch's own message is only "fetch failed": name what failed (the socket's error), so a
    // failure in CI says whether the connection was refused, reset or closed under the request.
    const cause = error.cause ?? {};
    const what = [cause.code, cause.message ?? error.message].filter(Boolean).join(' ');
    throw new Error(`POST ${graphqlUrl} failed: ${what}`, { cause: error });
  });
  const text = await response.text();
  let body = null;
  try { body = JSON.parse(text); } catch { /* left null: the caller asserts on text */ }
  return { status: response.status, headers: response.headers, body, text };
}

// Runs netgraphctl with the stack's environment; returns stdout. Throws on a non-zero exit.
export function netgraphctl(...args) {
  return execFileSync(netgraphctlPath, args, { encoding: 'utf8', env: process.env });
}

export function netgraphctlResult(...args) {
  return spawnSync(netgraphctlPath, args, { encoding: 'utf8', env: process.env });
}

export function readPid(name) {
  const file = path.join(runDir, name);
  return existsSync(file) ? Number(readFileSync(file, 'utf8').trim()) : null;
}

export function isAlive(pid) {
  try { process.kill(pid, 0); return true; } catch { return false; }
}

// The pids of the direct children of `pid`.
export function childrenOf(pid) {
  const out = spawnSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' }).stdout.trim();
  return out ? out.split('\n').map(Number) : [];
}

export async function waitFor(predicate, { timeoutMs = 10000, intervalMs = 50, what = 'condition' } = {}) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await predicate();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

// Starts one of the stack's components again (postgres, redis, fcgi, ws) after a test stopped it,
// and leaves the others alone: nginx is not reloaded, so clients' kept connections stay usable.
export function stackStart(component) {
  execFileSync(path.join(repo, 'scripts', 'stack'), ['start', component], { stdio: 'ignore', env: process.env });
}

// Stops the stack's netgraph-ws (SIGTERM) if it runs, and waits until it is gone; returns the pid it
// stopped, or null when none ran.
export async function stopStackWs() {
  const pid = readPid('ws.pid');
  if (!pid || !isAlive(pid)) return null;
  process.kill(pid, 'SIGTERM');
  await waitFor(() => !isAlive(pid), { timeoutMs: 20000, what: 'netgraph-ws to stop' });
  return pid;
}

// Starts the stack's netgraph-ws, reading stack.env as it stands (see stackSettings); resolves once
// it answers /ws/health at `url` (the stack's nginx, or another one in front of it), which it does
// once it has reached Redis.
export async function startStackWs({ url = baseUrl } = {}) {
  stackStart('ws');
  await waitFor(async () => (await fetch(`${url}/ws/health`).catch(() => null))?.status === 200,
    { timeoutMs: 30000, intervalMs: 100, what: 'netgraph-ws back, with Redis' });
}

// Stops the stack's netgraph-ws and starts it again (stopStackWs, startStackWs).
export async function restartStackWs() {
  await stopStackWs();
  await startStackWs();
}

// The stack's stack.env (what `scripts/stack reload` and the daemons read) as it stands now, for a
// test that reconfigures the stack: configure(changes) writes it with `changes` applied to that
// text (a value replaces the variable's line or is appended, null removes it), restore() puts it
// back, and changed() says whether it differs from it.
export function stackSettings() {
  const file = path.join(runDir, 'stack.env');
  const original = readFileSync(file, 'utf8');
  return {
    original,
    configure(changes) {
      let lines = original.split('\n');
      for (const [name, value] of Object.entries(changes)) {
        lines = lines.filter((line) => !line.startsWith(`${name}=`));
        if (value !== null) lines.push(`${name}=${value}`);
      }
      writeFileSync(file, `${lines.join('\n')}\n`);
    },
    changed() { return readFileSync(file, 'utf8') !== original; },
    restore() { writeFileSync(file, original); },
  };
}
