// scripts/stack keeps a root-run stack's PostgreSQL cluster outside the checkout (the service user
// may not write there), so the cluster can outlive its run directory. A new run directory at the same
// path (a fresh clone where an old one was) makes new keys; the old cluster's rows, signed with the
// old treasury key, must not come back with it. And bringing a running stack up again, or starting
// one component, must not reload nginx: a reload closes clients' idle kept-alive connections. A
// cluster whose run directory is gone is removed by the next `up`, so they do not pile up.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import http from 'node:http';
import { existsSync, mkdtempSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repo } from '../support/stack.mjs';
import { psql } from '../support/postgres.mjs';

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
const stack = (...args) => execFileSync(path.join(repo, 'scripts', 'stack'), args, { env, encoding: 'utf8' });
const sql = (query) => psql(query, { url: `postgresql://netgraph@127.0.0.1:${ports.pg}/netgraph` });
let cluster = null;
// A second run directory's, for the sweep of clusters whose run directory is gone.
const other = path.join(parent, 'other');
const otherStack = (...args) => execFileSync(path.join(repo, 'scripts', 'stack'), args,
  { env: { ...env, NETGRAPH_RUN_DIR: other }, encoding: 'utf8' });
let otherCluster = null;

after(() => {
  try { stack('down'); } catch { /* already down, or never up */ }
  try { if (existsSync(other)) otherStack('down'); } catch { /* never up */ }
  for (const dir of [cluster, otherCluster].filter(Boolean)) {
    rmSync(dir, { recursive: true, force: true });
    rmSync(`${dir}.owner`, { force: true });
  }
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

// POSTs { __typename } on the agent's connection; resolves to the answer and the connection's local
// port, which names the connection.
function postOn(agent) {
  return new Promise((resolve, reject) => {
    const request = http.request({
      host: '127.0.0.1', port: ports.http, path: '/graphql', method: 'POST', agent,
      headers: { 'content-type': 'application/json' },
    }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => { body += chunk; });
      response.on('end', () => resolve({ status: response.statusCode, body, port: request.socket.localPort }));
    });
    request.on('error', reject);
    request.end(JSON.stringify({ query: '{ __typename }' }));
  });
}

test('up on a running stack, and starting one component again, keep clients\' kept connections: nginx is not reloaded', async () => {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const first = await postOn(agent);
    assert.equal(first.status, 200, first.body);
    const nginxPid = readFileSync(path.join(run, 'nginx', 'nginx.pid'), 'utf8').trim();
    stack('up');
    stack('stop', 'ws');
    stack('start', 'ws');
    // A reload would have closed the idle connection: the next POST would fail or open another one.
    const second = await postOn(agent);
    assert.equal(second.status, 200, second.body);
    assert.equal(second.port, first.port, 'the POST went on the same kept connection');
    // `nginx -s reload` logs this line (scripts/stack sends its messages to the error log).
    const errorLog = readFileSync(path.join(run, 'logs', 'nginx-error.log'), 'utf8');
    assert.doesNotMatch(errorLog, /signal process started/, 'nginx was not signalled');
    assert.equal(readFileSync(path.join(run, 'nginx', 'nginx.pid'), 'utf8').trim(), nginxPid);
  } finally {
    agent.destroy();
  }
});

test('up removes the clusters whose run directory is gone, and keeps every other',
  { skip: process.getuid() !== 0 && 'only as root is a cluster kept outside its run directory' }, () => {
    stack('down');
    otherStack('up');
    otherCluster = readlinkSync(path.join(other, 'pg'));
    otherStack('down');
    stack('up');
    assert.ok(existsSync(path.join(otherCluster, 'PG_VERSION')), 'a stopped stack\'s cluster stays');

    stack('down');
    rmSync(other, { recursive: true, force: true });
    const output = stack('up');
    assert.match(output, /removing the PostgreSQL cluster of .*\/other, which is gone/);
    assert.equal(existsSync(otherCluster), false);
    assert.equal(existsSync(`${otherCluster}.owner`), false);
    assert.ok(existsSync(path.join(cluster, 'PG_VERSION')), 'the stack\'s own cluster stays');
    assert.equal(sql('SELECT 1'), '1');
  });

// As root the run directory links to the cluster in /var/tmp; otherwise the cluster is in it.
function readlinkOrSelf(file) {
  try { return readlinkSync(file); } catch { return existsSync(file) ? file : null; }
}
