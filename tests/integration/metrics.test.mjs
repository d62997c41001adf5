// Prometheus metrics of both daemons, read the way an operator reads them: Debian's Prometheus
// server, started here on loopback with a 1 s scrape interval, scrapes /metrics (the pool) and
// /ws/metrics (netgraph-ws) through nginx while the test drives known traffic; the counters, read
// back through Prometheus's HTTP API, moved by exactly that traffic. promtool finds nothing to
// complain about in either output. A client cannot choose a label's value.
//
// The pool is a private one (tests/support/private-pool.mjs), so its counters start at zero and
// only this test moves them; netgraph-ws is the stack's, so its figures are compared with what
// they were before. The stack's pool runs an outbox relay too, and either relay may publish a
// given message: Prometheus also scrapes the stack's pool for the outbox figures alone, and those
// are summed over both.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import WebSocket from 'ws';
import { waitFor } from '../support/stack.mjs';
import { CLAIM, issueVouchers, newUser, randomWallet } from '../support/api.mjs';
import { tokenFor, now } from '../support/jwt.mjs';
import { holdLock, psql } from '../support/postgres.mjs';
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
  - job_name: netgraph-fcgi-stack
    metrics_path: /metrics
    static_configs: [{ targets: ['${new URL(process.env.NETGRAPH_BASE_URL).host}'] }]
    metric_relabel_configs: [{ source_labels: [__name__], regex: 'netgraph_outbox_.*', action: keep }]
`);
  const listen = `127.0.0.1:${sparePort(6)}`;
  prometheusUrl = `http://${listen}`;
  prometheus = spawn('prometheus', [
    `--config.file=${path.join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${path.join(dir, 'data')}`,
    `--web.listen-address=${listen}`,
  ], { stdio: 'ignore' });
  // Every target up: every later query sees scrapes of all.
  await waitFor(async () => (await query('sum(up)')) === 3, { timeoutMs: 60000, what: 'Prometheus to scrape every target' });
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
  // 5 public graph reads, each either a hit or a miss of its worker's read cache.
  for (let i = 0; i < 5; i += 1) {
    assert.ok((await post('{ networkGraph(limit: 3) { nodes { id } } }')).body.data.networkGraph);
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
  await expectValue(requests(''), 47);
  await expectValue('netgraph_graphql_request_duration_seconds_count{operation_type="query"}', 43);
  await expectValue('netgraph_graphql_request_duration_seconds_count{operation_type="mutation"}', 3);
  await expectValue('netgraph_jwt_refusals_total{reason="expired"}', 1);
  await expectValue('sum(netgraph_jwt_refusals_total)', 1);
  await expectValue('netgraph_read_cache_hits_total + netgraph_read_cache_misses_total', 5);
  assert.ok(await query('netgraph_read_cache_misses_total') >= 1);
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

// The outbox relay's advisory lock (core/store/outbox.cc): while a session holds it, no relay
// publishes, and the messages committed meanwhile wait in the outbox.
const RELAY_LOCK = 'SELECT pg_advisory_xact_lock(7305218764022)';

async function claimOne(label) {
  const [code] = issueVouchers(1);
  const { body } = await post(CLAIM, { token: newUser(label).token, variables: { code, wallet: randomWallet() } });
  assert.equal(body.data.claimVoucher.success, true, JSON.stringify(body));
}

test('the outbox backlog, the relay and netgraph-ws update lags and catch-up reads move by exactly the updates committed', { timeout: 180000 }, async () => {
  const subscribersBefore = await query('netgraph_ws_subscribers');
  const clients = [];
  for (let i = 0; i < 3; i += 1) clients.push(await subscriber());
  await expectValue('netgraph_ws_subscribers', subscribersBefore + 3);
  const subscribers = subscribersBefore + 3;

  // A quiet start: nothing unpublished, and every target scraped since.
  await waitFor(() => psql('SELECT count(*) FROM outbox WHERE published_at IS NULL') === '0', { timeoutMs: 30000, what: 'an empty backlog' });
  await expectValue('max(netgraph_outbox_backlog)', 0);
  const quiet = Date.now() / 1000;
  await waitFor(async () => (await query('min(timestamp(netgraph_outbox_published_total))')) > quiet
    && (await query('timestamp(netgraph_ws_deliveries_total)')) > quiet, { timeoutMs: 30000, what: 'fresh scrapes' });
  const published = await query('sum(netgraph_outbox_published_total)');
  const relayLags = await query('sum(netgraph_outbox_relay_lag_seconds_count)');
  const relayLagSum = await query('sum(netgraph_outbox_relay_lag_seconds_sum)');
  const deliveries = await query('netgraph_ws_deliveries_total');
  const wsLags = await query('netgraph_ws_update_lag_seconds_count');
  const catchUps = await query('netgraph_ws_catch_up_reads_total{outcome="ok"}');
  const caughtUp = await query('netgraph_ws_catch_up_updates_total');

  // 3 claims while no relay may publish: both relays count them waiting.
  const lock = await holdLock(RELAY_LOCK);
  let heldSeconds;
  try {
    for (let i = 0; i < 3; i += 1) await claimOne(`metrics-backlog-${i}`);
    const committed = Date.now();
    await expectValue('max(netgraph_outbox_backlog)', 3);
    await expectValue('min(netgraph_outbox_backlog)', 3);
    heldSeconds = (Date.now() - committed) / 1000;
  } finally {
    await lock.release();
  }
  await expectValue('max(netgraph_outbox_backlog)', 0);
  await expectValue('sum(netgraph_outbox_published_total)', published + 3);
  await expectValue('sum(netgraph_outbox_relay_lag_seconds_count)', relayLags + 3);
  // Each of the 3 waited at least as long as the lock was held after the last commit.
  const waited = await query('sum(netgraph_outbox_relay_lag_seconds_sum)') - relayLagSum;
  assert.ok(waited >= 3 * heldSeconds - 0.01, `relay lag ${waited} s for 3 messages held ${heldSeconds} s`);
  await waitFor(() => clients.every((c) => c.updates === 3), { timeoutMs: 30000, what: 'the 3 updates' });

  // A message lost on the way (published, as far as the relay knows, but never on Redis), then
  // one more claim: netgraph-ws reads the lost one from the outbox once.
  psql(`WITH next AS (UPDATE outbox_sequence SET last_id = last_id + 1 RETURNING *)
    INSERT INTO outbox (id, channel, payload, published_at)
    SELECT last_id, 'netgraph:graph', json_build_object(
      'sequence', last_id, 'epoch', next.epoch, 'appendedAt', epoch_us(clock_timestamp()),
      'nodes', json_build_array(json_build_object('id', 'metrics-lost', 'type', 'Wallet', 'labels', json_build_array())),
      'links', json_build_array(),
      'metadata', json_build_object('nodeCount', 1, 'linkCount', 0, 'lastUpdated', '2026-11-26T00:00:00.000Z')
    )::text, now() FROM next`);
  await claimOne('metrics-after-lost');
  await waitFor(() => clients.every((c) => c.updates === 5), { timeoutMs: 30000, what: 'the lost update and the next' });
  await expectValue('netgraph_ws_catch_up_reads_total{outcome="ok"}', catchUps + 1);
  await expectValue('netgraph_ws_catch_up_updates_total', caughtUp + 1);
  await expectValue('sum(netgraph_outbox_published_total)', published + 4);
  await expectValue('sum(netgraph_outbox_relay_lag_seconds_count)', relayLags + 4);
  // One lag observation per delivery: 5 updates to every subscriber.
  await expectValue('netgraph_ws_deliveries_total', deliveries + 5 * subscribers);
  await expectValue('netgraph_ws_update_lag_seconds_count', wsLags + 5 * subscribers);
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

// Issue 22, finding 5: a failure's `code` label is the refusal a resolver reported (a fixed
// vocabulary), never text read back from the answer, where aliases put what the client likes.
test('an alias that puts client-chosen text under `error` next to a refusal creates no metric series', async () => {
  const series = async () => (await (await fetch(`${pool.baseUrl}/metrics`)).text()).split('\n')
    .filter((line) => line.startsWith('netgraph_graphql_requests_total{'))
    .map((line) => line.slice(0, line.lastIndexOf(' ')));
  const before = new Set(await series());
  const user = newUser('metrics-alias');
  const wallets = Array.from({ length: 5 }, () => randomWallet());
  for (const wallet of wallets) {
    const { status, body } = await post(`mutation($wallet: String!) {
      a: walletChallenge(walletAddress: $wallet) { error: walletAddress }
      b: walletChallenge(walletAddress: "not a wallet") { success error }
    }`, { token: user.token, variables: { wallet } });
    assert.equal(status, 200);
    assert.equal(body.data.a.error, wallet, 'the client chose what `error` says');
    assert.deepEqual(body.data.b, { success: false, error: 'Invalid wallet address' });
  }
  const after = await series();
  for (const wallet of wallets) {
    assert.ok(!after.some((labels) => labels.includes(wallet)), `a series names ${wallet}`);
  }
  const added = after.filter((labels) => !before.has(labels));
  assert.ok(added.length <= 1, `new series:\n${added.join('\n')}`);
  assert.ok(after.some((labels) => labels.includes('root_field="walletChallenge",outcome="failure",code="Invalid wallet address"')),
    after.join('\n'));
});
