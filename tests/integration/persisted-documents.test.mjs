// Persisted documents against the real stack (core/api/persisted_documents.h, docs/api.md
// "Persisted documents"): Apollo's automatic persisted queries over POST, GET and both WebSocket
// subprotocols, with raw requests; the table every worker shares; and a trusted manifest
// (NETGRAPH_TRUSTED_DOCUMENTS) refusing every other document.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { graphqlUrl, runDir, waitFor } from '../support/stack.mjs';
import { psql } from '../support/postgres.mjs';
import { startPool } from '../support/pool.mjs';
import { fastcgiRequest } from '../support/fastcgi.mjs';
import { binDir, EX_CONFIG } from '../support/daemon.mjs';
import {
  mentionsAny, networkUpdatedQuery, publishUntilReceived, RawSocket, replaceStackWs,
} from '../support/websocket.mjs';

const sha256 = (text) => createHash('sha256').update(text).digest('hex');

// A document no other run has registered: its hash is new to every worker and to the table.
function freshDocument() {
  return `query Fresh_${randomUUID().replaceAll('-', '_')} { __typename }`;
}

function persisted(hash, version = 1) {
  return { persistedQuery: { version, sha256Hash: hash } };
}

async function post(body, accept = 'application/json') {
  const response = await fetch(graphqlUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

async function get(params, accept = 'application/json') {
  const url = new URL(graphqlUrl);
  for (const [name, value] of Object.entries(params)) {
    url.searchParams.set(name, typeof value === 'string' ? value : JSON.stringify(value));
  }
  const response = await fetch(url, { headers: { accept } });
  return { status: response.status, body: await response.json(), allow: response.headers.get('allow') };
}

function codes(body) {
  return (body.errors ?? []).map((error) => error.extensions?.code);
}

test('POST: a hash alone is not found, the hash with the text runs and registers, then the hash alone runs', async () => {
  const query = freshDocument();
  const hash = sha256(query);
  for (const accept of ['application/json', 'application/graphql-response+json']) {
    const missing = await post({ extensions: persisted(hash) }, accept);
    // Apollo Client's persisted query link retries with the text on this code (or this message).
    assert.deepEqual(codes(missing.body), ['PERSISTED_QUERY_NOT_FOUND'], JSON.stringify(missing.body));
    assert.equal(missing.body.errors[0].message, 'PersistedQueryNotFound');
    assert.equal(missing.body.data, undefined);
    assert.equal(missing.status, accept === 'application/json' ? 200 : 400);
  }
  assert.equal(psql(`SELECT count(*) FROM persisted_documents WHERE sha256_hash = '${hash}'`), '0');

  const registered = await post({ query, extensions: persisted(hash) });
  assert.equal(registered.status, 200);
  assert.deepEqual(registered.body, { data: { __typename: 'Query' } });
  assert.equal(psql(`SELECT document FROM persisted_documents WHERE sha256_hash = '${hash}'`), query);

  // Both workers, whichever answers: the stack runs two, and four requests over fresh connections.
  for (let i = 0; i < 4; i += 1) {
    const again = await post({ extensions: persisted(hash), operationName: query.split(' ')[1] });
    assert.deepEqual(again.body, { data: { __typename: 'Query' } });
  }
});

test('GET: the short URL with only the hash runs a registered query; mutations stay refused', async () => {
  const query = freshDocument();
  const hash = sha256(query);
  const missing = await get({ extensions: persisted(hash) });
  assert.deepEqual(codes(missing.body), ['PERSISTED_QUERY_NOT_FOUND']);

  const registered = await get({ query, extensions: persisted(hash) });
  assert.deepEqual(registered.body, { data: { __typename: 'Query' } });
  const short = await get({ extensions: persisted(hash), variables: {} });
  assert.equal(short.status, 200);
  assert.deepEqual(short.body, { data: { __typename: 'Query' } });

  // A mutation registered over POST (it runs there: this one is refused by its resolver, but the
  // document is valid) is still refused over GET by its hash.
  const mutation = `mutation M_${randomUUID().replaceAll('-', '_')} { claimVoucher(voucherCode: "x", walletAddress: "y") { success } }`;
  await post({ query: mutation, extensions: persisted(sha256(mutation)) });
  const refused = await get({ extensions: persisted(sha256(mutation)) });
  assert.equal(refused.status, 405);
  assert.equal(refused.allow, 'POST');
});

test('a hash that is not the text\'s, an unknown version or a malformed hash is a 400 and stores nothing', async () => {
  const query = freshDocument();
  const wrong = sha256(`${query} `);
  const mismatch = await post({ query, extensions: persisted(wrong) });
  assert.equal(mismatch.status, 400);
  assert.match(mismatch.body.errors[0].message, /not the SHA-256 of the query/);
  const overGet = await get({ query, extensions: persisted(wrong) });
  assert.equal(overGet.status, 400);

  const version = await post({ query, extensions: persisted(sha256(query), 2) });
  assert.equal(version.status, 400);
  assert.match(version.body.errors[0].message, /Unsupported persistedQuery version/);

  const malformed = await post({ extensions: persisted(sha256(query).toUpperCase()) });
  assert.equal(malformed.status, 400);
  assert.match(malformed.body.errors[0].message, /64 lower-case hex digits/);

  assert.equal(psql(`SELECT count(*) FROM persisted_documents WHERE sha256_hash IN ('${wrong}', '${sha256(query)}')`), '0');
});

test('a document that does not validate runs into its errors and is not stored', async () => {
  const query = `{ noSuchField_${randomUUID().replaceAll('-', '_')} }`;
  const hash = sha256(query);
  const answer = await post({ query, extensions: persisted(hash) });
  assert.equal(answer.body.data, undefined);
  assert.match(answer.body.errors[0].message, /Cannot query field/);
  assert.equal(psql(`SELECT count(*) FROM persisted_documents WHERE sha256_hash = '${hash}'`), '0');
  const stillMissing = await post({ extensions: persisted(hash) });
  assert.deepEqual(codes(stillMissing.body), ['PERSISTED_QUERY_NOT_FOUND']);
});

// A pool started now has never seen the hash: it finds the document in the table, then keeps it.
async function fastcgiPersisted(pool, body) {
  const response = await fastcgiRequest(pool.socket, {
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body),
  });
  return JSON.parse(response.body);
}

test('a document registered through the stack is found by another pool\'s worker, from then on from its memory', async (t) => {
  const query = freshDocument();
  const hash = sha256(query);
  await post({ query, extensions: persisted(hash) });
  const pool = await startPool(t, 'persisted-elsewhere', {}, { workers: 1 });
  assert.deepEqual(await fastcgiPersisted(pool, { extensions: persisted(hash) }),
    { data: { __typename: 'Query' } });
  // The row gone, the worker that looked it up once still runs it: no PostgreSQL round trip.
  psql(`DELETE FROM persisted_documents WHERE sha256_hash = '${hash}'`);
  assert.deepEqual(await fastcgiPersisted(pool, { extensions: persisted(hash) }),
    { data: { __typename: 'Query' } });
});

test('the table stops growing at NETGRAPH_PERSISTED_QUERIES_MAX_ROWS; documents past it still run', async (t) => {
  const rows = Number(psql('SELECT count(*) FROM persisted_documents'));
  const pool = await startPool(t, 'persisted-full', { NETGRAPH_PERSISTED_QUERIES_MAX_ROWS: String(rows) },
    { workers: 1 });
  const query = freshDocument();
  const hash = sha256(query);
  assert.deepEqual(await fastcgiPersisted(pool, { query, extensions: persisted(hash) }),
    { data: { __typename: 'Query' } });
  assert.equal(psql(`SELECT count(*) FROM persisted_documents WHERE sha256_hash = '${hash}'`), '0');
  assert.deepEqual(codes(await fastcgiPersisted(pool, { extensions: persisted(hash) })),
    ['PERSISTED_QUERY_NOT_FOUND']);
});

test('with a trusted manifest only its documents run, by hash or by text, and nothing is registered', async (t) => {
  const trusted = freshDocument();
  const manifest = path.join(runDir, `trusted-${randomUUID()}.json`);
  writeFileSync(manifest, JSON.stringify({ [sha256(trusted)]: trusted }));
  const pool = await startPool(t, 'persisted-trusted', { NETGRAPH_TRUSTED_DOCUMENTS: manifest }, { workers: 1 });

  assert.deepEqual(await fastcgiPersisted(pool, { extensions: persisted(sha256(trusted)) }),
    { data: { __typename: 'Query' } });
  assert.deepEqual(await fastcgiPersisted(pool, { query: trusted }), { data: { __typename: 'Query' } });

  const other = freshDocument();
  for (const body of [{ query: other }, { extensions: persisted(sha256(other)) },
    { query: other, extensions: persisted(sha256(other)) }, { query: '{ __typename }' }]) {
    const refused = await fastcgiPersisted(pool, body);
    assert.deepEqual(codes(refused), ['PERSISTED_QUERY_NOT_ALLOWED'], JSON.stringify(body));
    assert.equal(refused.data, undefined);
  }
  assert.equal(psql(`SELECT count(*) FROM persisted_documents WHERE sha256_hash = '${sha256(other)}'`), '0');
});

test('netgraph-fcgi reads the trusted manifest again on a reload (SIGHUP)', async (t) => {
  const first = freshDocument();
  const second = freshDocument();
  const manifest = path.join(runDir, `trusted-reload-${randomUUID()}.json`);
  writeFileSync(manifest, JSON.stringify({ [sha256(first)]: first }));
  const pool = await startPool(t, 'persisted-reload', { NETGRAPH_TRUSTED_DOCUMENTS: manifest }, { workers: 1 });
  assert.deepEqual(codes(await fastcgiPersisted(pool, { query: second })), ['PERSISTED_QUERY_NOT_ALLOWED']);

  writeFileSync(manifest, JSON.stringify({ [sha256(second)]: second }));
  process.kill(pool.pid, 'SIGHUP');
  // The reload replaces the worker with one forked from the configuration read again: from then on
  // the new manifest decides.
  await waitFor(async () => (await fastcgiPersisted(pool, { query: second })).data?.__typename === 'Query',
    { timeoutMs: 20000, intervalMs: 100, what: 'the reloaded manifest to let the second document run' });
  assert.deepEqual(codes(await fastcgiPersisted(pool, { query: first })), ['PERSISTED_QUERY_NOT_ALLOWED']);
});

// The two subprotocols: how an operation is started, and the message types of its outcome.
const PROTOCOLS = [
  { name: 'graphql-transport-ws', start: 'subscribe', result: 'next' },
  { name: 'graphql-ws', start: 'start', result: 'data' },
];

// Starts operation `id` with `payload` on `socket` and resolves to its one result's payload, once
// the operation completed.
async function runOverSocket(socket, protocol, id, payload) {
  socket.send({ id, type: protocol.start, payload });
  const result = await socket.next((m) => m.id === id && m.type !== 'complete');
  assert.equal(result.type, protocol.result, JSON.stringify(result));
  await socket.next((m) => m.id === id && m.type === 'complete');
  return result.payload;
}

for (const protocol of PROTOCOLS) {
  test(`WebSocket (${protocol.name}): the APQ round trip for a query and for a subscription`, async () => {
    const socket = new RawSocket(protocol.name);
    await socket.init({});
    try {
      const query = freshDocument();
      const hash = sha256(query);
      // A result with the error (not an error message, which would end the operation for the
      // client's link): Apollo Client's persisted query link then sends the text.
      const missing = await runOverSocket(socket, protocol, '1', { extensions: persisted(hash) });
      assert.deepEqual(codes(missing), ['PERSISTED_QUERY_NOT_FOUND'], JSON.stringify(missing));
      assert.deepEqual(await runOverSocket(socket, protocol, '2', { query, extensions: persisted(hash) }),
        { data: { __typename: 'Query' } });
      // Stored by a database thread, for every process and host.
      await waitFor(() => psql(`SELECT count(*) FROM persisted_documents WHERE sha256_hash = '${hash}'`) === '1',
        { what: 'the document in the table' });
      assert.deepEqual(await runOverSocket(socket, protocol, '3', { extensions: persisted(hash) }),
        { data: { __typename: 'Query' } });

      // A subscription: its hash alone is not found by a process that never saw its text, the
      // hash with the text starts it and registers it, and then the hash alone starts it.
      const subscription = `${networkUpdatedQuery} # ${randomUUID()}`;
      const subscriptionHash = sha256(subscription);
      const unknown = await runOverSocket(socket, protocol, '4', { extensions: persisted(subscriptionHash) });
      assert.deepEqual(codes(unknown), ['PERSISTED_QUERY_NOT_FOUND']);
      socket.send({ id: '5', type: protocol.start, payload: { query: subscription, extensions: persisted(subscriptionHash) } });
      await waitFor(() => psql(`SELECT count(*) FROM persisted_documents WHERE sha256_hash = '${subscriptionHash}'`) === '1',
        { what: 'the subscription in the table' });
      socket.send({ id: '6', type: protocol.start, payload: { extensions: persisted(subscriptionHash) } });
      const updates = await publishUntilReceived((markers) => {
        const received = ['5', '6'].map((id) => socket.messages.find((m) =>
          m.id === id && m.type === protocol.result && mentionsAny(m, markers)));
        return received.every(Boolean) && received;
      });
      for (const update of updates) assert.ok(update.payload.data.networkUpdated, JSON.stringify(update));
    } finally {
      await socket.close();
    }
  });
}

test('WebSocket: a query registered over HTTP runs by its hash alone, looked up off the event loop', async () => {
  const query = freshDocument();
  const hash = sha256(query);
  await post({ query, extensions: persisted(hash) });
  const socket = new RawSocket('graphql-transport-ws');
  await socket.init({});
  try {
    assert.deepEqual(await runOverSocket(socket, PROTOCOLS[0], '1', { extensions: persisted(hash), operationName: query.split(' ')[1] }),
      { data: { __typename: 'Query' } });
  } finally {
    await socket.close();
  }
});

test('WebSocket: a hash that is not the text\'s is refused as an invalid message (4400)', async () => {
  const socket = new RawSocket('graphql-transport-ws');
  await socket.init({});
  const query = freshDocument();
  socket.send({ id: '1', type: 'subscribe', payload: { query, extensions: persisted(sha256(`${query} `)) } });
  const closed = await socket.closedWithin();
  assert.equal(closed.code, 4400);
  assert.match(closed.reason, /Invalid message received/);
});

test('WebSocket with a trusted manifest: listed documents run by hash or text, any other is refused', async (t) => {
  const trusted = freshDocument();
  const manifest = path.join(runDir, `trusted-ws-${randomUUID()}.json`);
  writeFileSync(manifest, JSON.stringify({ [sha256(trusted)]: trusted }));
  const ws = await replaceStackWs({ NETGRAPH_TRUSTED_DOCUMENTS: manifest }, { logName: 'ws-persisted.log' });
  t.after(ws.stop);
  for (const protocol of PROTOCOLS) {
    const socket = new RawSocket(protocol.name);
    await socket.init({});
    try {
      assert.deepEqual(await runOverSocket(socket, protocol, '1', { extensions: persisted(sha256(trusted)) }),
        { data: { __typename: 'Query' } });
      assert.deepEqual(await runOverSocket(socket, protocol, '2', { query: trusted }),
        { data: { __typename: 'Query' } });
      const other = freshDocument();
      for (const [id, payload] of [['3', { query: other }], ['4', { extensions: persisted(sha256(other)) }],
        ['5', { query: networkUpdatedQuery }]]) {
        const refused = await runOverSocket(socket, protocol, id, payload);
        assert.deepEqual(codes(refused), ['PERSISTED_QUERY_NOT_ALLOWED'], JSON.stringify(payload));
      }
    } finally {
      await socket.close();
    }
  }
});

test('--check-config names a trusted manifest that does not load, with the other problems, on both daemons', () => {
  const bad = path.join(runDir, `trusted-bad-${randomUUID()}.json`);
  // A key that is not its text's SHA-256 (a manifest written with hashAlgorithm 'sha1' looks so).
  writeFileSync(bad, JSON.stringify({ [sha256('{ a }')]: '{ b }' }));
  const good = path.join(runDir, `trusted-good-${randomUUID()}.json`);
  writeFileSync(good, JSON.stringify({ [sha256('{ a }')]: '{ a }' }));
  for (const binary of ['netgraph-fcgi', 'netgraph-ws']) {
    const check = (env) => spawnSync(path.join(binDir, binary), ['--check-config'],
      { encoding: 'utf8', env: { ...process.env, ...env }, timeout: 30000 });
    const refused = check({ NETGRAPH_TRUSTED_DOCUMENTS: bad, NETGRAPH_MAX_DEPTH: 'deep' });
    assert.equal(refused.status, EX_CONFIG, refused.stderr);
    assert.match(refused.stderr, /NETGRAPH_TRUSTED_DOCUMENTS \(.*trusted-bad.*\): the entry [0-9a-f]{64} is not the SHA-256 of its text/);
    assert.match(refused.stderr, /NETGRAPH_MAX_DEPTH must be an integer/);
    const missing = check({ NETGRAPH_TRUSTED_DOCUMENTS: path.join(runDir, 'no-such-manifest.json') });
    assert.equal(missing.status, EX_CONFIG, missing.stderr);
    assert.match(missing.stderr, /NETGRAPH_TRUSTED_DOCUMENTS: cannot read/);
    const accepted = check({ NETGRAPH_TRUSTED_DOCUMENTS: good });
    assert.equal(accepted.status, 0, `${binary}: ${accepted.stderr}`);
  }
});
