// Prometheus metrics of both daemons, read the way an operator reads them: Debian's Prometheus
// server, started here on loopback with a 1 s scrape interval, scrapes /metrics (the pool) and
// /ws/metrics (netgraph-ws) through nginx while the test drives known traffic; the counters, read
// back through Prometheus's HTTP API, moved by exactly that traffic. promtool finds nothing to
// complain about in either output.
//
// The pool is a private one (tests/support/private-pool.mjs), so its counters start at zero and
// only this test moves them; netgraph-ws is the stack's, so its figures are compared with what
// they were before.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import WebSocket from 'ws';
import { waitFor } from '../support/stack.mjs';
import { CLAIM, issueVouchers, newUser, randomWallet } from '../support/api.mjs';
import { tokenFor, now } from '../support/jwt.mjs';
import { sparePort, startPrivatePool } from '../support/private-pool.mjs';

let pool;
let prometheus;
let prometheusUrl;

before(async () => {
  pool = await startPrivatePool('metrics', { port: sparePort(5) });
  const dir = path.join(pool.dir, 'prometheus');
  mkdirSync(path.join(dir, 'data'), { recursive: true });
  const target = new URL(pool.baseUrl).host;
  writeFileSync(path.join(dir, 'prometheus.yml'), `global:
  scrape_interval: 1s
  scrape_timeout: 1s
  evaluation_interval: 1s
scrape_configs:
  - job_name: netgraph-fcgi
    metrics_path: /metrics
    static_configs: [{ targets: ['${target}'] }]
  - job_name: netgraph-ws
    metrics_path: /ws/metrics
    static_configs: [{ targets: ['${target}'] }]
`);
  const listen = `127.0.0.1:${sparePort(6)}`;
  prometheusUrl = `http://${listen}`;
  prometheus = spawn('prometheus', [
    `--config.file=${path.join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${path.join(dir, 'data')}`,
    `--web.listen-address=${listen}`,
  ], { stdio: 'ignore' });
  // Both targets up: every later query sees scrapes of both.
  await waitFor(async () => (await query('sum(up)')) === 2, { timeoutMs: 60000, what: 'Prometheus to scrape both targets' });
});

after(async () => {
  if (prometheus && prometheus.exitCode === null) {
    const exited = new Promise((resolve) => prometheus.on('exit', resolve));
    prometheus.kill('SIGTERM');
    await exited;
  }
  await pool?.stop();
});

// The value of a PromQL expression with one result (null when it has none yet).
async function query(expression) {
  const response = await fetch(`${prometheusUrl}/api/v1/query?query=${encodeURIComponent(expression)}`).catch(() => null);
  if (!response?.ok) return null;
  const { data } = await response.json();
  return data.result.length === 1 ? Number(data.result[0].value[1]) : null;
}

// Waits until Prometheus reports `expected` for `expression` (it scrapes every second).
async function expectValue(expression, expected) {
  let last;
  try {
    await waitFor(async () => (last = await query(expression)) === expected, { timeoutMs: 30000, intervalMs: 250, what: expression });
  } catch {
    assert.fail(`${expression}: Prometheus says ${last}, expected ${expected}`);
  }
}

async function post(query, { token, variables, operationName } = {}) {
  const response = await fetch(`${pool.baseUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query, variables, operationName }),
  });
  return { status: response.status, body: await response.json() };
}

// A graphql-transport-ws subscriber of networkUpdated through the private nginx; counts updates.
async function subscriber() {
  const socket = new WebSocket(`${pool.baseUrl.replace('http', 'ws')}/graphql`, 'graphql-transport-ws');
  const state = { socket, updates: 0 };
  await new Promise((resolve, reject) => {
    socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init' })));
    socket.on('message', (data) => {
      const message = JSON.parse(data.toString());
      if (message.type === 'connection_ack') {
        socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: 'subscription { networkUpdated { nodes { id } } }' } }));
        resolve();
      }
      if (message.type === 'next') state.updates += 1;
    });
    socket.on('error', reject);
  });
  return state;
}

test('Prometheus sees the pool and netgraph-ws counters move by exactly the traffic driven', async () => {
  const subscribersBefore = await query('netgraph_ws_subscribers');
  const connectionsBefore = await query('netgraph_ws_connections_total{protocol="graphql-transport-ws"}') ?? 0;
  assert.notEqual(subscribersBefore, null, 'netgraph-ws reports its subscribers');

  const clients = [];
  for (let i = 0; i < 5; i += 1) clients.push(await subscriber());
  await expectValue('netgraph_ws_subscribers', subscribersBefore + 5);
  await expectValue('netgraph_ws_connections_total{protocol="graphql-transport-ws"}', connectionsBefore + 5);
  const deliveriesBefore = await query('netgraph_ws_deliveries_total');

  // 37 queries.
  for (let i = 0; i < 37; i += 1) {
    const { status, body } = await post('query Ping { graphdbStatus { connected } }');
    assert.equal(status, 200);
    assert.equal(body.data.graphdbStatus.connected, true);
  }
  // 3 claims, of which 1 refused (the voucher is already claimed).
  const [first, second] = issueVouchers(1, { count: 2 });
  const owner = newUser('metrics-owner');
  const claims = [[owner, first], [owner, second], [owner, first]];
  const results = [];
  for (const [user, code] of claims) {
    const { body } = await post(CLAIM, { token: user.token, variables: { code, wallet: randomWallet() } });
    results.push(body.data.claimVoucher);
  }
  assert.deepEqual(results.map((r) => r.success), [true, true, false]);
  assert.equal(results[2].error, 'Voucher already claimed');
  // One expired token (the public query still runs) and one invalid document.
  const expired = tokenFor('did:test:metrics-expired', { iat: now() - 7200, exp: now() - 3600 });
  assert.equal((await post('{ __typename }', { token: expired })).status, 200);
  assert.ok((await post('{ noSuchField }')).body.errors);

  const requests = (labels) => `sum(netgraph_graphql_requests_total{${labels}})`;
  await expectValue(requests('operation_type="query",root_field="graphdbStatus",outcome="ok",status="200"'), 37);
  await expectValue(requests('operation_type="mutation",root_field="claimVoucher",outcome="ok"'), 2);
  await expectValue(requests('operation_type="mutation",root_field="claimVoucher",outcome="failure",code="Voucher already claimed"'), 1);
  await expectValue(requests('operation_type="query",root_field="__typename",outcome="ok"'), 1);
  await expectValue(requests('outcome="graphql_error"'), 1);
  await expectValue(requests(''), 42);
  await expectValue('netgraph_graphql_request_duration_seconds_count{operation_type="query"}', 38);
  await expectValue('netgraph_graphql_request_duration_seconds_count{operation_type="mutation"}', 3);
  await expectValue('netgraph_jwt_refusals_total{reason="expired"}', 1);
  await expectValue('sum(netgraph_jwt_refusals_total)', 1);
  // The 37 identical queries were prepared at most once per worker.
  assert.ok(await query('netgraph_document_cache_hits_total') >= 35);
  await expectValue('sum(netgraph_pool_workers)', 2);
  await expectValue('netgraph_pool_listen_queue', 0);
  await expectValue('sum(netgraph_pool_child_restarts_total)', 0);
  await expectValue('count(netgraph_build_info == 1)', 2);

  // Each of the two claims that went through reached every subscriber once.
  await waitFor(() => clients.every((c) => c.updates === 2), { timeoutMs: 30000, what: 'the updates of both claims' });
  await expectValue('netgraph_ws_deliveries_total', deliveriesBefore + 2 * (subscribersBefore + 5));
  for (const { socket } of clients) socket.close(1000);
  await expectValue('netgraph_ws_subscribers', subscribersBefore);
});

test('promtool check metrics finds nothing in either output', async () => {
  for (const endpoint of ['/metrics', '/ws/metrics']) {
    const response = await fetch(`${pool.baseUrl}${endpoint}`);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type'), /^text\/plain; version=0\.0\.4/);
    const text = await response.text();
    const check = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
    assert.equal(check.status, 0, `${endpoint}: ${check.stdout}${check.stderr}`);
    assert.equal(`${check.stdout}${check.stderr}`.trim(), '', endpoint);
  }
});
