// scripts/stack keeps a root-run stack's PostgreSQL cluster outside the checkout (the service user
// may not write there), so the cluster can outlive its run directory. A new run directory at the same
// path (a fresh clone where an old one was) makes new keys; the old cluster's rows, signed with the
// old treasury key, must not come back with it.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readlinkSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repo } from '../support/stack.mjs';

// Beside the suite's own stack: its ports plus 10, so moving those moves these.
const ports = {
  http: Number(process.env.NETGRAPH_HTTP_PORT) + 10,
  pg: Number(process.env.NETGRAPH_PG_PORT) + 10,
  redis: Number(process.env.NETGRAPH_REDIS_PORT) + 10,
};
const parent = mkdtempSync(path.join(os.tmpdir(), 'netgraph-stack-'));
const run = path.join(parent, 'run');
const env = {
  ...process.env,
  NETGRAPH_RUN_DIR: run,
  NETGRAPH_HTTP_PORT: String(ports.http),
  NETGRAPH_PG_PORT: String(ports.pg),
  NETGRAPH_REDIS_PORT: String(ports.redis),
  NETGRAPH_SKIP_SETUP: '1',
  NETGRAPH_WORKERS: '1',
};
const stack = (command) => execFileSync(path.join(repo, 'scripts', 'stack'), [command], { env, encoding: 'utf8' });
const sql = (query) => execFileSync('psql', [`postgresql://netgraph@127.0.0.1:${ports.pg}/netgraph`, '-tAc', query],
  { encoding: 'utf8' }).trim();
let cluster = null;

after(() => {
  try { stack('down'); } catch { /* already down, or never up */ }
  if (cluster) rmSync(cluster, { recursive: true, force: true });
  rmSync(parent, { recursive: true, force: true });
});

test('a new run directory at an old one\'s path starts on a new database, not the old rows', () => {
  stack('up');
  cluster = readlinkOrSelf(path.join(run, 'pg'));
  sql('CREATE TABLE left_behind (id int)');
  stack('down');
  rmSync(run, { recursive: true, force: true });

  const output = stack('up');
  assert.equal(sql("SELECT coalesce(to_regclass('left_behind')::text, 'gone')"), 'gone');
  if (cluster !== path.join(run, 'pg')) assert.match(output, /removing the PostgreSQL cluster an earlier/);
});

// As root the run directory links to the cluster in /var/tmp; otherwise the cluster is in it.
function readlinkOrSelf(file) {
  try { return readlinkSync(file); } catch { return existsSync(file) ? file : null; }
}
