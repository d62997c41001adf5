// What an operator on call sees: the pool's status page during a slow request, the slow log, the
// request deadline (the master ends a worker stuck past it), one access line per request with
// nginx's request id, journald priorities on every log line, netgraph-ws's health, and the
// allow-list in front of /status and the metrics; without the scoreboard (NETGRAPH_SCOREBOARD=off)
// neither is served, and the pool still serves and supervises its workers.
//
// Requests are made slow for real: a psql session holds the row lock a claim needs. The private
// pool runs without PostgreSQL's lock and statement timeouts, so only the request deadline ends
// such a wait.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import WebSocket from 'ws';
import { runDir, startStackWs, stopStackWs, waitFor } from '../support/stack.mjs';
import { CLAIM, issueVouchers, newUser, portfolio, randomWallet } from '../support/api.mjs';
import { holdLock, psql } from '../support/postgres.mjs';
import { getFrom, sparePort, startPrivatePool } from '../support/private-pool.mjs';

const REQUEST_TIMEOUT_MS = 5000;
const SLOW_REQUEST_MS = 300;
let pool;

before(async () => {
  pool = await startPrivatePool('observability', {
    port: sparePort(7),
    env: {
      NETGRAPH_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
      NETGRAPH_SLOW_REQUEST_MS: String(SLOW_REQUEST_MS),
      NETGRAPH_DB_LOCK_TIMEOUT_MS: '0',
      NETGRAPH_DB_STATEMENT_TIMEOUT_MS: '0',
      NETGRAPH_DB_IDLE_IN_TRANSACTION_TIMEOUT_MS: '0',
    },
  });
});

after(async () => { await pool?.stop(); });

async function post(query, { token, variables } = {}) {
  const response = await fetch(`${pool.baseUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  const text = await response.text();
  return { status: response.status, requestId: response.headers.get('x-request-id'), text };
}

async function status() {
  const response = await fetch(`${pool.baseUrl}/status`);
  assert.equal(response.status, 200);
  return { text: await response.clone().text(), body: await response.json() };
}

// The JSON of the pool log's lines that start with `marker` ("access", "slow request").
function logged(marker) {
  return pool.log().split('\n')
    .map((line) => line.match(new RegExp(`^<\\d>\\w+ netgraph-fcgi\\[\\d+\\]: ${marker} (\\{.*\\})$`)))
    .filter(Boolean).map((match) => JSON.parse(match[1]));
}

// A voucher and a user ready to claim it, and the lock that holds the claim up.
async function blockedClaim() {
  const user = newUser('slow-claim');
  await portfolio(user.token);  // the user's row exists before the voucher's is locked
  const [code] = issueVouchers(1);
  const lock = await holdLock(`SELECT id FROM vouchers WHERE code = '${code.replaceAll('-', '')}' FOR UPDATE`);
  const claim = post(CLAIM, { token: user.token, variables: { code, wallet: randomWallet() } });
  return { user, code, lock, claim };
}

test('the status page shows a slow request as it runs, and the slow log says where its time went', async () => {
  const { user, code, lock, claim } = await blockedClaim();
  let busy;
  try {
    await waitFor(async () => {
      busy = (await status()).body.workers.find((w) => w.operation_name === 'Claim' && w.elapsed_ms >= 1000);
      return busy;
    }, { timeoutMs: 20000, intervalMs: 100, what: 'the status page to show the blocked claim' });
    const page = await status();
    assert.equal(busy.state, 'busy');
    assert.equal(busy.operation_type, 'mutation');
    assert.equal(busy.root_fields, 'claimVoucher');
    assert.equal(busy.path, '/graphql');
    assert.match(busy.started, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    assert.ok(Number.isInteger(busy.pid) && busy.pid > 0);
    assert.equal(page.body.total_workers, 2);
    assert.ok(page.body.busy_workers >= 1);
    // Never the variables or the token.
    assert.ok(!page.text.includes(code.replaceAll('-', '')) && !page.text.includes(code));
    assert.ok(!page.text.includes(user.token));
  } finally {
    await lock.release();
  }
  const { status: httpStatus, requestId, text } = await claim;
  assert.equal(httpStatus, 200);
  assert.equal(JSON.parse(text).data.claimVoucher.success, true);
  assert.equal(busy.request_id, requestId);

  const [slow] = logged('slow request').filter((line) => line.request_id === requestId);
  assert.ok(slow, 'the slow claim is in the slow log');
  assert.equal(slow.operation_name, 'Claim');
  assert.deepEqual(slow.root_fields, ['claimVoucher']);
  assert.ok(slow.duration_ms >= 1000, `duration ${slow.duration_ms}`);
  assert.ok(slow.database_ms >= 900, `database ${slow.database_ms}`);
  assert.equal(typeof slow.prepare_ms, 'number');
  const resolver = slow.resolvers.find((r) => r.field === 'claimVoucher');
  assert.ok(resolver && resolver.database_ms >= 900, JSON.stringify(slow.resolvers));
  // A fast request is not a slow one.
  const fast = await post('{ __typename }');
  await waitFor(() => logged('access').some((line) => line.request_id === fast.requestId), { what: 'the fast access line' });
  assert.equal(logged('slow request').filter((line) => line.request_id === fast.requestId).length, 0);
});

test('a request stuck past NETGRAPH_REQUEST_TIMEOUT_MS ends with 502/504, its worker is replaced and logged', async () => {
  const { code, lock, claim } = await blockedClaim();
  const started = Date.now();
  let outcome;
  try {
    outcome = await claim;
  } finally {
    await lock.release();
  }
  assert.ok([502, 504].includes(outcome.status), `status ${outcome.status}: ${outcome.text}`);
  assert.match(JSON.parse(outcome.text).errors[0].message, /unavailable/);
  assert.ok(Date.now() - started >= REQUEST_TIMEOUT_MS - 100);
  assert.match(pool.log(), /<3>error netgraph-fcgi\[\d+\]: request timeout: killing worker pid \d+ after \d+ ms on mutation "Claim" \(root fields: claimVoucher, path \/graphql, request id [0-9a-f]+\)/);
  // Nothing of the claim was written, and the pool serves on with a fresh worker.
  assert.equal(psql(`SELECT status FROM vouchers WHERE code = '${code.replaceAll('-', '')}'`), 'AVAILABLE');
  await waitFor(async () => (await status()).body.total_workers === 2, { what: 'the replacement worker' });
  assert.equal((await post('{ __typename }')).status, 200);
  const metrics = await (await fetch(`${pool.baseUrl}/metrics`)).text();
  assert.match(metrics, /^netgraph_pool_child_restarts_total\{cause="deadline"\} 1$/m);
});

test('each request has one JSON access line with the request id nginx logged and returned', async () => {
  const user = newUser('access-log');
  const { status: httpStatus, requestId } = await post('query Mine { getUserPortfolio { success } }', { token: user.token });
  assert.equal(httpStatus, 200);
  assert.match(requestId, /^[0-9a-f]{32}$/);
  await waitFor(() => readFileSync(pool.nginxAccessLog, 'utf8').includes(`request_id=${requestId}`), { what: "nginx's access line" });
  await waitFor(() => logged('access').some((line) => line.request_id === requestId), { what: 'the access line' });
  const lines = logged('access').filter((line) => line.request_id === requestId);
  assert.equal(lines.length, 1);
  const [line] = lines;
  assert.equal(line.method, 'POST');
  assert.equal(line.path, '/graphql');
  assert.equal(line.operation_type, 'query');
  assert.equal(line.operation_name, 'Mine');
  assert.deepEqual(line.root_fields, ['getUserPortfolio']);
  assert.equal(line.status, 200);
  assert.deepEqual(line.error_codes, []);
  assert.ok(line.duration_ms > 0 && line.bytes > 0);
  assert.match(line.time, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  assert.equal(line.caller, createHash('sha256').update(user.did).digest('hex').slice(0, 12));
  assert.ok(!pool.log().includes(user.token) && !pool.log().includes(user.did));

  // A GraphQL error's code is on its line.
  const failed = await post('{ noSuchField }');
  await waitFor(() => logged('access').some((l) => l.request_id === failed.requestId), { what: 'the error access line' });
  const errorLine = logged('access').find((l) => l.request_id === failed.requestId);
  assert.equal(errorLine.operation_type, 'none');
  assert.equal(errorLine.error_codes.length, JSON.parse(failed.text).errors.filter((e) => e.extensions?.code).length);

  // netgraph-ws logs the upgrade under the id nginx gave it.
  const socket = new WebSocket(`${pool.baseUrl.replace('http', 'ws')}/graphql`, 'graphql-transport-ws');
  await new Promise((resolve, reject) => { socket.on('open', resolve); socket.on('error', reject); });
  socket.close(1000);
  let upgradeId;
  await waitFor(() => {
    const match = readFileSync(pool.nginxAccessLog, 'utf8').match(/"GET \/graphql HTTP\/1\.1" 101 .* request_id=([0-9a-f]{32})/);
    upgradeId = match?.[1];
    return upgradeId;
  }, { what: "nginx's line for the upgrade" });
  const wsLog = path.join(runDir, 'logs', 'ws.log');
  await waitFor(() => readFileSync(wsLog, 'utf8').includes(`"request_id":"${upgradeId}"`), { what: "netgraph-ws's access line" });
  const wsLine = readFileSync(wsLog, 'utf8').split('\n').find((l) => l.includes(`"request_id":"${upgradeId}"`));
  assert.match(wsLine, /^<6>info netgraph-ws\[\d+\]: access \{.*"protocol":"graphql-transport-ws".*\}$/);
});

test('every log line of both daemons starts with its journald priority', async () => {
  const wsLog = readFileSync(path.join(runDir, 'logs', 'ws.log'), 'utf8');
  for (const [name, text] of [['pool', pool.log()], ['netgraph-ws', wsLog]]) {
    const lines = text.split('\n').filter((line) => line !== '');
    assert.ok(lines.length > 0, name);
    for (const line of lines) assert.match(line, /^<[3467]>(debug|info|warn|error) netgraph-(fcgi|ws)\[\d+\]: /, `${name}: ${line}`);
  }
  assert.match(pool.log(), /^<4>warn /m, 'the slow log is a warning');
  assert.match(pool.log(), /^<6>info /m);
});

test('/ws/health fails while netgraph-ws is stopped; the pool\'s /health says so and stays 200', async () => {
  const healthOf = async () => {
    const response = await fetch(`${pool.baseUrl}/health`);
    return { status: response.status, body: await response.json() };
  };
  assert.equal((await fetch(`${pool.baseUrl}/ws/health`)).status, 200);
  assert.equal((await healthOf()).body.ws.reachable, true);
  try {
    assert.ok(await stopStackWs(), 'the stack runs netgraph-ws');
    const wsHealth = await fetch(`${pool.baseUrl}/ws/health`);
    assert.ok(wsHealth.status >= 500, `status ${wsHealth.status}`);
    const health = await healthOf();
    assert.equal(health.status, 200);
    assert.equal(health.body.status, 'ok');
    assert.equal(health.body.ws.reachable, false);
  } finally {
    // netgraph-ws listens again before it has reached Redis: /ws/health says so until it has.
    await startStackWs({ url: pool.baseUrl });
  }
  const body = await (await fetch(`${pool.baseUrl}/ws/health`)).json();
  assert.equal(body.status, 'ok');
  assert.equal(body.redis.connected, true);
  assert.equal((await healthOf()).body.ws.reachable, true);
});

test('nginx serves /status and the metrics to allowed addresses only', async () => {
  for (const endpoint of ['/status', '/metrics', '/ws/metrics']) {
    assert.equal((await getFrom('127.0.0.1', `${pool.baseUrl}${endpoint}`)).status, 200, endpoint);
    const refused = await getFrom('127.0.0.2', `${pool.baseUrl}${endpoint}`);
    assert.equal(refused.status, 403, endpoint);
    assert.ok(!refused.body.includes('netgraph_'), endpoint);
  }
  // Health checks stay public.
  assert.equal((await getFrom('127.0.0.2', `${pool.baseUrl}/ws/health`)).status, 200);
  assert.equal((await getFrom('127.0.0.2', `${pool.baseUrl}/health`)).status, 200);
});

test('NETGRAPH_ACCESS_LOG=off writes no access lines; requests still get their id', async () => {
  const quiet = await startPrivatePool('quiet', { port: sparePort(8), env: { NETGRAPH_ACCESS_LOG: 'off' } });
  try {
    const response = await fetch(`${quiet.baseUrl}/graphql`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query":"{ __typename }"}',
    });
    assert.equal(response.status, 200);
    const requestId = response.headers.get('x-request-id');
    assert.match(requestId, /^[0-9a-f]{32}$/);
    await waitFor(() => readFileSync(quiet.nginxAccessLog, 'utf8').includes(requestId), { what: "nginx's line" });
    assert.doesNotMatch(quiet.log(), / access \{/);
  } finally {
    await quiet.stop();
  }
});

test('NETGRAPH_SCOREBOARD=off: /status and /metrics answer 404, GraphQL is served and a dead worker is replaced', async () => {
  const bare = await startPrivatePool('no-scoreboard', { port: sparePort(9), env: { NETGRAPH_SCOREBOARD: 'off' } });
  const typename = async () => {
    const response = await fetch(`${bare.baseUrl}/graphql`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query":"{ __typename }"}',
    });
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), { data: { __typename: 'Query' } });
  };
  const workersStarted = () => [...bare.log().matchAll(/worker started as pid (\d+)/g)].map((m) => Number(m[1]));
  try {
    for (const endpoint of ['/status', '/metrics']) {
      const response = await fetch(`${bare.baseUrl}${endpoint}`);
      assert.equal(response.status, 404, endpoint);
      assert.doesNotMatch(await response.text(), /netgraph_|workers/, endpoint);
    }
    assert.match(bare.log(), /<4>warn netgraph-fcgi\[\d+\]: NETGRAPH_SCOREBOARD=off: \/status and \/metrics answer 404/);
    await typename();
    // The master supervises its children without a scoreboard: a killed worker is replaced.
    await waitFor(() => workersStarted().length === 2, { timeoutMs: 30000, what: 'both workers' });
    const [victim] = workersStarted();
    process.kill(victim, 'SIGKILL');
    await waitFor(() => workersStarted().length === 3, { timeoutMs: 30000, what: 'the replacement worker' });
    assert.match(bare.log(), new RegExp(`worker pid ${victim} was killed by signal .*; replacing it`));
    for (let i = 0; i < 4; i++) await typename();
    // The outbox relay runs without a slot to write its figures to.
    assert.match(bare.log(), /relay started as pid \d+/);
    assert.doesNotMatch(bare.log(), /relay pid \d+ .*replacing it/);
  } finally {
    await bare.stop();
  }
});
