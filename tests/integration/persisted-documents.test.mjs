// Persisted documents against the real stack (core/api/persisted_documents.h, docs/api.md
// "Persisted documents"): Apollo's automatic persisted queries over POST, GET and both WebSocket
// subprotocols, with raw requests; the table every worker shares; and a trusted manifest
// (NETGRAPH_TRUSTED_DOCUMENTS) refusing every other document.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { graphqlUrl, runDir } from '../support/stack.mjs';
import { psql } from '../support/postgres.mjs';
import { startPool } from '../support/pool.mjs';
import { fastcgiRequest } from '../support/fastcgi.mjs';

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
