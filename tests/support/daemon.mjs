// Starting a daemon of the build beside the stack's own, to watch how it starts up.
import { spawn } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { repo, runDir, waitFor } from './stack.mjs';

export const binDir = path.join(process.env.NETGRAPH_BUILD_DIR ?? path.join(repo, 'build'), 'bin');
export const EX_CONFIG = 78;

let started = 0;

// Runs `binary` with the stack's environment plus `env` on a spare socket. Resolves with
// {code, stderr} when it exits, or with {started: true, stderr} once its socket appears (then it is
// stopped with SIGTERM first).
export async function runDaemon(binary, env) {
  const socket = path.join(runDir, `daemon-${binary}-${process.pid}-${++started}.sock`);
  rmSync(socket, { force: true });
  const child = spawn(path.join(binDir, binary), [], {
    env: {
      ...process.env, NETGRAPH_FCGI_LISTEN: socket, NETGRAPH_WS_LISTEN: socket, NETGRAPH_WORKERS: '1', ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => { stderr += chunk; });
  const exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
  let code = null;
  exited.then((c) => { code = c; });
  await waitFor(() => code !== null || existsSync(socket), { timeoutMs: 30000, what: `${binary} to exit or listen` });
  if (code !== null) return { code, stderr };
  child.kill('SIGTERM');
  await exited;
  rmSync(socket, { force: true });
  return { started: true, stderr };
}
