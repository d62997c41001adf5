// W3C Trace Context (daemon/trace_context.h): a traceparent sent with a request is joined (its
// trace id in the pool's access and slow lines and netgraph-ws's upgrade line, and in the
// traceresponse header with the request's own span), an absent or malformed one is replaced by a
// new trace. netgraph-ws answers its 101 with traceresponse too, and its operation and close lines
// carry the connection's trace (ws/access_log.h). And what browsers may read: the pool exposes
// X-Request-Id, Retry-After, traceresponse and ETag to an allowed origin, and nginx's own 429
// carries the CORS headers for it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import WebSocket from 'ws';
import { graphqlUrl, runDir, waitFor, wsUrl } from '../support/stack.mjs';
import { sparePort, startPrivatePool } from '../support/private-pool.mjs';
import { holdLock } from '../support/postgres.mjs';
import { CLAIM, issueVouchers, newUser, portfolio, randomWallet } from '../support/api.mjs';

const TRACERESPONSE = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;
const allowedOrigin = process.env.NETGRAPH_CORS_ORIGINS.split(',')[0];
const refusedOrigin = 'http://refused.example';

const newTraceparent = () => `00-${randomBytes(16).toString('hex')}-${randomBytes(8).toString('hex')}-01`;

// The JSON of the lines of `log` (a pool's or netgraph-ws's) that start with `marker`.
function logged(log, marker) {
  return log.split('\n')
    .map((line) => line.match(new RegExp(`^<\\d>\\w+ netgraph-(?:fcgi|ws)\\[\\d+\\]: ${marker} (\\{.*\\})$`)))
    .filter(Boolean).map((match) => JSON.parse(match[1]));
}
const stackLog = (name) => readFileSync(path.join(runDir, 'logs', name), 'utf8');

async function accessLineOf(response) {
  const requestId = response.headers.get('x-request-id');
  return waitFor(() => logged(stackLog('fcgi.log'), 'access').find((line) => line.request_id === requestId),
    { what: `the access line of ${requestId}` });
}

test('a traceparent is joined: its trace id in the access line and in traceresponse, with a span of the request', async () => {
  const traceparent = newTraceparent();
  const [, traceId, parentId] = traceparent.split('-');
  const response = await fetch(`${graphqlUrl}?query=${encodeURIComponent('{ __typename }')}`, { headers: { traceparent } });
  assert.equal(response.status, 200);
  const [, answeredTrace, span, flags] = TRACERESPONSE.exec(response.headers.get('traceresponse'));
  assert.equal(answeredTrace, traceId);
  assert.notEqual(span, parentId);
  assert.equal(flags, '01');
  const line = await accessLineOf(response);
  assert.equal(line.trace_id, traceId);
  assert.equal(line.span_id, span);
  assert.equal(line.parent_span_id, parentId);
});

test('an absent or malformed traceparent starts a new trace', async () => {
  const valid = newTraceparent();
  const traceIds = new Set();
  for (const traceparent of [undefined, 'junk', valid.toUpperCase(), `00-${'0'.repeat(32)}-${valid.slice(36)}`, `${valid}-more`]) {
    const response = await fetch(graphqlUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(traceparent && { traceparent }) },
      body: JSON.stringify({ query: '{ __typename }' }),
    });
    const [, traceId, span, flags] = TRACERESPONSE.exec(response.headers.get('traceresponse'));
    assert.notEqual(traceId, '0'.repeat(32));
    assert.notEqual(traceId, valid.split('-')[1], traceparent);
    assert.equal(flags, '00');
    traceIds.add(traceId);
    const line = await accessLineOf(response);
    assert.equal(line.trace_id, traceId);
    assert.equal(line.span_id, span);
    assert.equal(line.parent_span_id, undefined);
  }
  assert.equal(traceIds.size, 5, 'a new trace each time');
});

test("netgraph-ws's upgrade line joins the client's trace", async () => {
  const traceparent = newTraceparent();
  const traceId = traceparent.split('-')[1];
  const socket = new WebSocket(wsUrl, 'graphql-transport-ws', { headers: { traceparent } });
  await new Promise((resolve, reject) => { socket.on('open', resolve); socket.on('error', reject); });
  socket.close(1000);
  const line = await waitFor(() => logged(stackLog('ws.log'), 'access').find((l) => l.trace_id === traceId),
    { what: "netgraph-ws's access line with the trace id" });
  assert.equal(line.parent_span_id, traceparent.split('-')[2]);
  assert.match(line.span_id, /^[0-9a-f]{16}$/);
  assert.match(line.request_id, /^[0-9a-f]{32}$/);
});

// A graphql-transport-ws connection through nginx, opened with `headers`: the socket, the 101
// answer's headers, and the messages as they arrive (`next()` waits for the next one).
async function openTransportWs(headers) {
  const socket = new WebSocket(wsUrl, 'graphql-transport-ws', { headers });
  const messages = [];
  const waiting = [];
  socket.on('message', (data) => {
    const message = JSON.parse(String(data));
    if (waiting.length > 0) waiting.shift()(message); else messages.push(message);
  });
  const closed = new Promise((resolve) => socket.on('close', (code) => resolve(code)));
  const upgrade = await new Promise((resolve, reject) => {
    socket.on('upgrade', (response) => resolve(response.headers));
    socket.on('error', reject);
  });
  await new Promise((resolve) => (socket.readyState === WebSocket.OPEN ? resolve() : socket.on('open', resolve)));
  const next = () => (messages.length > 0 ? Promise.resolve(messages.shift()) : new Promise((resolve) => waiting.push(resolve)));
  return { socket, upgrade, next, closed, send: (message) => socket.send(JSON.stringify(message)) };
}

// The trace id, span id and flags of a traceresponse header, which must be there.
function traceresponseOf(value) {
  assert.match(value ?? '(none)', TRACERESPONSE, 'a traceresponse header');
  return TRACERESPONSE.exec(value).slice(1);
}

// netgraph-ws's lines of `marker` for the connection of `requestId`, once `count` are there.
const wsLines = (marker, requestId, count, what) => waitFor(() => {
  const lines = logged(stackLog('ws.log'), marker).filter((line) => line.request_id === requestId);
  return lines.length >= count && lines;
}, { what });

test('netgraph-ws answers the upgrade with traceresponse: the connection\'s span in the client\'s trace, or a new trace', async () => {
  const traceparent = newTraceparent();
  const [, traceId, parentId] = traceparent.split('-');
  const joined = await openTransportWs({ traceparent });
  const [answeredTrace, span, flags] = traceresponseOf(joined.upgrade.traceresponse);
  assert.equal(answeredTrace, traceId);
  assert.notEqual(span, parentId);
  assert.equal(flags, '01');
  joined.socket.close(1000);
  const line = await waitFor(() => logged(stackLog('ws.log'), 'access').find((l) => l.trace_id === traceId),
    { what: "netgraph-ws's access line with the trace id" });
  assert.equal(line.span_id, span, 'the upgrade line names the span traceresponse names');

  for (const malformed of [undefined, traceparent.toUpperCase()]) {
    const started = await openTransportWs(malformed ? { traceparent: malformed } : {});
    const [newTrace, newSpan, newFlags] = traceresponseOf(started.upgrade.traceresponse);
    assert.notEqual(newTrace, traceId);
    assert.equal(newFlags, '00');
    started.socket.close(1000);
    const upgradeLine = await waitFor(() => logged(stackLog('ws.log'), 'access').find((l) => l.trace_id === newTrace),
      { what: 'the access line of the new trace' });
    assert.equal(upgradeLine.span_id, newSpan);
    assert.equal(upgradeLine.parent_span_id, undefined);
  }
});

test("netgraph-ws's operation and close lines carry the connection's trace, each operation with a span of its own", async () => {
  const traceparent = newTraceparent();
  const [, traceId, parentId] = traceparent.split('-');
  const ws = await openTransportWs({ traceparent });
  ws.send({ type: 'connection_init' });
  assert.equal((await ws.next()).type, 'connection_ack');
  // A document that does not validate: a request error.
  ws.send({ type: 'subscribe', id: 'invalid', payload: { query: '{ noSuchField }' } });
  assert.equal((await ws.next()).type, 'error');
  // A query (run on a database thread: its line comes with its result).
  ws.send({ type: 'subscribe', id: 'query', payload: { query: 'query Typename { __typename }', operationName: 'Typename' } });
  assert.equal((await ws.next()).type, 'next');
  assert.equal((await ws.next()).type, 'complete');
  // A subscription, running until the client closes.
  ws.send({ type: 'subscribe', id: 'live', payload: { query: 'subscription { networkUpdated { nodes { id } } }' } });
  const { request_id: requestId, span_id: connectionSpan } = await waitFor(
    () => logged(stackLog('ws.log'), 'access').find((l) => l.trace_id === traceId), { what: 'the access line of the connection' });
  const operations = await wsLines('operation', requestId, 3, 'the three operation lines');
  ws.socket.close(1000, 'done');
  assert.equal(await ws.closed, 1000);

  const byId = Object.fromEntries(operations.map((line) => [line.id, line]));
  assert.deepEqual(Object.keys(byId).sort(), ['invalid', 'live', 'query']);
  for (const line of operations) {
    assert.equal(line.trace_id, traceId, line.id);
    assert.equal(line.parent_span_id, connectionSpan, `${line.id}: a child of the connection's span`);
    assert.match(line.span_id, /^[0-9a-f]{16}$/);
    assert.notEqual(line.span_id, connectionSpan);
  }
  assert.equal(new Set(operations.map((line) => line.span_id)).size, 3, 'a span each');
  assert.equal(byId.invalid.outcome, 'error');
  assert.equal(byId.query.outcome, 'result');
  assert.equal(byId.query.operation_name, 'Typename');
  assert.equal(typeof byId.query.duration_ms, 'number');
  assert.equal(byId.live.outcome, 'subscribed');

  const [close] = await wsLines('close', requestId, 1, 'the close line');
  assert.equal(close.trace_id, traceId);
  assert.equal(close.span_id, connectionSpan);
  assert.equal(close.parent_span_id, parentId);
  assert.equal(close.closed_by, 'client');
  assert.equal(close.code, 1000);
  assert.equal(typeof close.duration_ms, 'number');
});

test('a connection netgraph-ws closes has a close line with its code and reason, under its trace', async () => {
  const traceparent = newTraceparent();
  const traceId = traceparent.split('-')[1];
  const ws = await openTransportWs({ traceparent });
  // subscribe before connection_init: graphql-transport-ws closes with 4401.
  ws.send({ type: 'subscribe', id: 'early', payload: { query: '{ __typename }' } });
  assert.equal(await ws.closed, 4401);
  const close = await waitFor(() => logged(stackLog('ws.log'), 'close').find((l) => l.trace_id === traceId),
    { what: 'the close line of the trace' });
  assert.equal(close.closed_by, 'server');
  assert.equal(close.code, 4401);
  assert.equal(close.reason, 'Unauthorized');
  const upgrade = logged(stackLog('ws.log'), 'access').find((l) => l.trace_id === traceId);
  assert.equal(close.span_id, upgrade.span_id);
  assert.equal(close.request_id, upgrade.request_id);
});

test('the slow-request line carries the trace too', async (t) => {
  const pool = await startPrivatePool('tracing-slow', { port: sparePort(8), env: { NETGRAPH_SLOW_REQUEST_MS: '100' } });
  t.after(() => pool.stop());
  const user = newUser('trace-slow');
  await portfolio(user.token);
  const [code] = issueVouchers(1);
  const lock = await holdLock(`SELECT id FROM vouchers WHERE code = '${code.replaceAll('-', '')}' FOR UPDATE`);
  const traceparent = newTraceparent();
  const claim = fetch(`${pool.baseUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${user.token}`, traceparent },
    body: JSON.stringify({ query: CLAIM, variables: { code, wallet: randomWallet() } }),
  });
  try {
    await waitFor(async () => (await (await fetch(`${pool.baseUrl}/status`)).json())
      .workers.some((w) => w.operation_name === 'Claim' && w.elapsed_ms >= 200), { what: 'the claim to wait on the lock' });
  } finally {
    await lock.release();
  }
  const response = await claim;
  assert.equal(response.status, 200);
  const requestId = response.headers.get('x-request-id');
  const [, traceId, span] = TRACERESPONSE.exec(response.headers.get('traceresponse'));
  assert.equal(traceId, traceparent.split('-')[1]);
  const slow = await waitFor(() => logged(pool.log(), 'slow request').find((line) => line.request_id === requestId),
    { what: 'the slow line' });
  assert.equal(slow.trace_id, traceId);
  assert.equal(slow.span_id, span);
});

test('browsers on an allowed origin may read X-Request-Id, Retry-After, traceresponse and ETag, on nginx\'s 413 too', async () => {
  const response = await fetch(`${graphqlUrl}?query=${encodeURIComponent('{ __typename }')}`, { headers: { origin: allowedOrigin } });
  assert.equal(response.headers.get('access-control-allow-origin'), allowedOrigin);
  assert.equal(response.headers.get('access-control-expose-headers'), 'X-Request-Id, Retry-After, traceresponse, ETag');
  const refused = await fetch(graphqlUrl, { method: 'POST', headers: { origin: refusedOrigin, 'content-type': 'application/json' }, body: '{"query":"{ __typename }"}' });
  assert.equal(refused.headers.get('access-control-expose-headers'), null);

  // nginx's own 413 (a body over client_max_body_size) carries them too, for the allowed origin.
  const tooLarge = (origin) => fetch(graphqlUrl, {
    method: 'POST', headers: { origin, 'content-type': 'application/json' }, body: 'x'.repeat(2 * 1024 * 1024),
  });
  const large = await tooLarge(allowedOrigin);
  assert.equal(large.status, 413);
  assert.deepEqual(await large.json(), { errors: [{ message: 'Request body too large' }] });
  assert.equal(large.headers.get('access-control-allow-origin'), allowedOrigin);
  assert.match(large.headers.get('access-control-expose-headers'), /X-Request-Id/);
  assert.match(large.headers.get('x-request-id'), /^[0-9a-f]{32}$/);
  assert.equal((await tooLarge(refusedOrigin)).headers.get('access-control-allow-origin'), null);
});

test("nginx's own 429 carries the CORS headers for an allowed origin, and only for it", async (t) => {
  const pool = await startPrivatePool('tracing-limited', {
    port: sparePort(9),
    // One request a minute, one more at once: the third within the minute at the latest is 429.
    nginxConf: (conf) => conf.replace('rate=5000r/s', 'rate=1r/m').replace('burst=5000', 'burst=1'),
  });
  t.after(() => pool.stop());
  const get = (origin) => fetch(`${pool.baseUrl}/graphql?query=${encodeURIComponent('{ __typename }')}`,
    { headers: origin ? { origin } : {} });
  // (Waiting for the pool's /health may have spent the allowance already.)
  let limited;
  for (let i = 0; i < 3 && limited?.status !== 429; i += 1) limited = await get(allowedOrigin);
  assert.equal(limited.status, 429);
  assert.deepEqual(await limited.json(), { errors: [{ message: 'Too many requests' }] });
  assert.equal(limited.headers.get('access-control-allow-origin'), allowedOrigin);
  assert.match(limited.headers.get('access-control-expose-headers'), /Retry-After/);
  assert.equal(limited.headers.get('retry-after'), '1');
  assert.match(limited.headers.get('x-request-id'), /^[0-9a-f]{32}$/);
  assert.match(limited.headers.get('vary'), /Origin/);
  for (const origin of [refusedOrigin, undefined]) {
    const other = await get(origin);
    assert.equal(other.status, 429);
    assert.equal(other.headers.get('access-control-allow-origin'), null, String(origin));
    assert.equal(other.headers.get('access-control-expose-headers'), null, String(origin));
  }
  // The origin is compared whole: a listed origin as a prefix of another is not it.
  assert.equal((await get(`${allowedOrigin}0`)).headers.get('access-control-allow-origin'), null);
});
