// HTTP caching of public answers (docs/api.md, "Caching"): a tokenless GET that the read cache
// serves whole carries a strong ETag made from the answer, and If-None-Match naming it is 304 from
// memory, on every worker, without PostgreSQL; a claim changes the tag on every worker at once, an
// answer it did not change keeps its tag, and a tag minted by another pool (another host) is
// answered the same; per-user answers, errors and POSTs stay no-store without a tag. nginx
// compresses the API's JSON, and its cache of public answers (nginx/netgraph-cache.conf) keeps what
// NETGRAPH_PUBLIC_MAX_AGE allows, never a request with credentials, and revalidates with the tag.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import path from 'node:path';
import { graphqlUrl, repo, runDir, waitFor } from '../support/stack.mjs';
import { fastcgiRequest } from '../support/fastcgi.mjs';
import { databaseRelay } from '../support/database_relay.mjs';
import { onEveryWorker as everyWorker, startPool } from '../support/pool.mjs';
import { sparePort, startPrivatePool } from '../support/private-pool.mjs';
import { CLAIM, issueVouchers, newUser, randomWallet } from '../support/api.mjs';

const INVESTMENT = '{ investmentData { tokenName roundRaised investorCount marketCap } }';
// What a claim does not change.
const TOKEN_NAME = '{ investmentData { tokenName tokenSymbol } }';
const GRAPH = '{ networkGraph(limit: 100) { nodes { id type labels } links { source target type } } }';
// Over nginx's gzip_min_length (1024 bytes) even with the demo data alone.
const LARGE = `{ ${['a', 'b', 'c', 'd'].map((alias) => `${alias}: networkGraph(limit: 100) { nodes { id type labels } }`).join(' ')} }`;
const STRONG_TAG = /^"[gj]-[0-9a-f]{32}"$/;

const urlOf = (query, base = graphqlUrl) => `${base}?query=${encodeURIComponent(query)}`;

// A GET of `query` straight to a pool over FastCGI; `hold` delays the end of the request.
function poolGet(socket, query, { ifNoneMatch, token, accept = 'application/json', hold } = {}) {
  return fastcgiRequest(socket, {
    method: 'GET',
    query: `query=${encodeURIComponent(query)}`,
    headers: {
      accept,
      ...(ifNoneMatch && { 'if-none-match': ifNoneMatch }),
      ...(token && { authorization: `Bearer ${token}` }),
    },
    hold,
  });
}

// `count` GETs, one on each worker of a pool of `count` (tests/support/pool.mjs).
const onEveryWorker = (socket, count, query, options = {}) =>
  everyWorker(socket, count, query, { ...options, send: poolGet });

async function claimThrough(socket) {
  const [code] = issueVouchers(3);
  const response = await fastcgiRequest(socket, {
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      authorization: `Bearer ${newUser('http-cache').token}`,
    },
    body: JSON.stringify({ query: CLAIM, variables: { code, wallet: randomWallet() } }),
  });
  assert.equal(response.status, 200, response.body);
  assert.equal(JSON.parse(response.body).data.claimVoucher.success, true, response.body);
}

test('a claim changes the tag on every worker at once; an unchanged answer keeps it; tags are equal across pools', async (t) => {
  const pool = await startPool(t, 'http-cache');
  const before = await onEveryWorker(pool.socket, 2, INVESTMENT);
  for (const response of before) {
    assert.equal(response.status, 200, response.body);
    assert.match(response.headers.etag, STRONG_TAG);
    assert.equal(response.headers['cache-control'], 'no-cache');
  }
  assert.equal(before[1].headers.etag, before[0].headers.etag, 'equal data, equal tags on both workers');
  assert.equal(before[1].body, before[0].body);
  const oldTag = before[0].headers.etag;
  const unchangedTag = (await poolGet(pool.socket, TOKEN_NAME)).headers.etag;

  for (const response of await onEveryWorker(pool.socket, 2, INVESTMENT, { ifNoneMatch: oldTag })) {
    assert.equal(response.status, 304);
    assert.equal(response.body, '');
    assert.equal(response.headers.etag, oldTag);
    assert.equal(response.headers['content-length'], undefined);
  }

  await claimThrough(pool.socket);
  // The claim's response is back: the next request with the old tag gets the new data, whichever
  // worker takes it.
  const after = await onEveryWorker(pool.socket, 2, INVESTMENT, { ifNoneMatch: oldTag });
  for (const response of after) {
    assert.equal(response.status, 200, 'a 304 here would be stale');
    assert.notEqual(response.body, before[0].body);
    assert.notEqual(response.headers.etag, oldTag);
  }
  assert.equal(after[1].headers.etag, after[0].headers.etag);
  assert.equal(after[1].body, after[0].body);
  for (const response of await onEveryWorker(pool.socket, 2, TOKEN_NAME, { ifNoneMatch: unchangedTag })) {
    assert.equal(response.status, 304, 'the claim did not change this answer: it keeps its tag');
  }

  // The stack's own pool stands for another host: once it has the same data, it names it with the
  // same tag, and a tag it minted is answered 304 here.
  const newTag = after[0].headers.etag;
  const elsewhere = await waitFor(async () => {
    const response = await fetch(urlOf(INVESTMENT), { headers: { accept: 'application/json' } });
    const body = await response.text();
    return body === after[0].body && response;
  }, { what: 'the stack to see the claim' });
  assert.equal(elsewhere.headers.get('etag'), newTag);
  assert.equal((await poolGet(pool.socket, INVESTMENT, { ifNoneMatch: newTag })).status, 304);
});

test('a 304 comes from memory: PostgreSQL out of reach, both workers still answer it', async (t) => {
  const relay = await databaseRelay();
  t.after(() => relay.close());
  const pool = await startPool(t, 'http-cache-no-db', { DATABASE_URL: relay.url, PGCONNECT_TIMEOUT: '2' });
  const warm = await onEveryWorker(pool.socket, 2, GRAPH);
  for (const response of warm) assert.equal(response.status, 200, response.body);
  const tag = warm[0].headers.etag;
  await relay.close();
  for (const response of await onEveryWorker(pool.socket, 2, GRAPH, { ifNoneMatch: `"other", W/${tag}` })) {
    assert.equal(response.status, 304);
  }
});

test('ETag and 304 through nginx: per media type, weak and listed tags, never for a token, an error or a POST', async () => {
  const get = (query, headers = {}) => fetch(urlOf(query), { headers: { accept: 'application/json', ...headers } });
  const first = await get(INVESTMENT);
  assert.equal(first.status, 200);
  const tag = first.headers.get('etag');
  assert.match(tag, /^"j-[0-9a-f]{32}"$/);
  assert.equal(first.headers.get('cache-control'), 'no-cache');
  assert.match(first.headers.get('vary'), /Accept/);
  const graphqlJson = await get(INVESTMENT, { accept: 'application/graphql-response+json' });
  assert.match(graphqlJson.headers.get('etag'), /^"g-[0-9a-f]{32}"$/, 'another representation, another tag');
  assert.equal(graphqlJson.headers.get('etag').slice(3), tag.slice(3));
  assert.equal((await get(INVESTMENT, { accept: 'application/graphql-response+json', 'if-none-match': tag })).status, 200);

  for (const ifNoneMatch of [tag, `W/${tag}`, `"x", ${tag}`, '*']) {
    const response = await get(INVESTMENT, { 'if-none-match': ifNoneMatch });
    assert.equal(response.status, 304, ifNoneMatch);
    assert.equal(await response.text(), '');
    assert.equal(response.headers.get('etag'), tag);
  }
  for (const ifNoneMatch of ['"x"', tag.slice(1, -1), `${tag} junk`]) {
    assert.equal((await get(INVESTMENT, { 'if-none-match': ifNoneMatch })).status, 200, ifNoneMatch);
  }

  const withToken = await get(INVESTMENT, { authorization: `Bearer ${newUser('etag').token}`, 'if-none-match': tag });
  assert.equal(withToken.status, 200);
  assert.equal(withToken.headers.get('etag'), null);
  assert.equal(withToken.headers.get('cache-control'), 'no-store');

  const error = await get('{ networkGraph(limit: 0) { nodes { id } } }');
  assert.match(await error.text(), /"errors"/);
  assert.equal(error.headers.get('etag'), null);
  assert.equal(error.headers.get('cache-control'), 'no-store');
  const requestError = await get('{ nope }', { 'if-none-match': '*' });
  assert.equal(requestError.headers.get('etag'), null);

  const post = await fetch(graphqlUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', 'if-none-match': tag },
    body: JSON.stringify({ query: INVESTMENT }),
  });
  assert.equal(post.status, 200);
  assert.equal(post.headers.get('etag'), null);
  assert.equal(post.headers.get('cache-control'), 'no-store');
});

// The raw response of a GET through nginx (fetch would decompress it).
function rawGet(url, headers) {
  return new Promise((resolve, reject) => {
    http.get(url, { headers }, (response) => {
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode, headers: response.headers, body: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
}

test('nginx gzips the API JSON for clients that accept it; the weakened tag still revalidates', async () => {
  const plain = await rawGet(urlOf(LARGE), { accept: 'application/json' });
  assert.equal(plain.status, 200);
  assert.equal(plain.headers['content-encoding'], undefined);
  assert.ok(plain.body.length > 1024, `${plain.body.length} bytes`);
  for (const accept of ['application/json', 'application/graphql-response+json']) {
    const zipped = await rawGet(urlOf(LARGE), { accept, 'accept-encoding': 'gzip' });
    assert.equal(zipped.status, 200);
    assert.equal(zipped.headers['content-encoding'], 'gzip', accept);
    assert.match(zipped.headers.vary, /Accept-Encoding/);
    assert.ok(zipped.body.length < plain.body.length / 2, `${zipped.body.length} of ${plain.body.length} bytes`);
    assert.equal(gunzipSync(zipped.body).toString(), plain.body.toString());
    const weak = zipped.headers.etag;
    assert.match(weak, /^W\/"[gj]-[0-9a-f]{32}"$/);
    const again = await rawGet(urlOf(LARGE), { accept, 'accept-encoding': 'gzip', 'if-none-match': weak });
    assert.equal(again.status, 304);
  }
  // A small answer is not worth compressing.
  const small = await rawGet(urlOf('{ __typename }'), { 'accept-encoding': 'gzip' });
  assert.equal(small.headers['content-encoding'], undefined);
});

test("nginx's cache of public answers (nginx/netgraph-cache.conf): keeps public GETs for max-age, never a request with credentials, revalidates with the tag", async (t) => {
  const cacheDir = path.join(runDir, 'pool-http-cache-nginx', 'cache');
  const snippet = readFileSync(path.join(repo, 'nginx', 'netgraph-cache.conf'), 'utf8')
    .replace('/var/cache/nginx/netgraph', cacheDir);
  const pool = await startPrivatePool('http-cache-nginx', {
    port: sparePort(7),
    env: { NETGRAPH_PUBLIC_MAX_AGE: '1' },
    nginxConf: (conf) => conf
      .replace(/(include \S+netgraph-http\.conf;)/, `$1\n${snippet}`)
      .replace('set $netgraph_cache "";', 'set $netgraph_cache netgraph_cache;'),
  });
  t.after(() => pool.stop());
  const get = (query, headers = {}) => fetch(urlOf(query, `${pool.baseUrl}/graphql`),
    { headers: { accept: 'application/json', ...headers } });
  const requestId = (response) => response.headers.get('x-request-id');

  const first = await get(INVESTMENT);
  assert.equal(first.status, 200);
  assert.equal(first.headers.get('cache-control'), 'public, max-age=1');
  const body = await first.text();
  const hit = await get(INVESTMENT);
  assert.equal(requestId(hit), requestId(first), 'served from nginx\'s cache');
  assert.equal(await hit.text(), body);
  assert.equal((await get(INVESTMENT, { 'if-none-match': first.headers.get('etag') })).status, 304);
  // Another media type is another answer, kept apart.
  const other = await get(INVESTMENT, { accept: 'application/graphql-response+json' });
  assert.notEqual(requestId(other), requestId(first));
  assert.match(other.headers.get('content-type'), /graphql-response/);

  // Credentials: never answered from the cache, never stored.
  for (const headers of [{ authorization: `Bearer ${newUser('nginx-cache').token}` }, { cookie: 'session=1' }]) {
    const a = await get(INVESTMENT, headers);
    const b = await get(INVESTMENT, headers);
    assert.notEqual(requestId(a), requestId(first), JSON.stringify(headers));
    assert.notEqual(requestId(b), requestId(a), JSON.stringify(headers));
  }
  const withToken = await get(TOKEN_NAME, { authorization: `Bearer ${newUser('nginx-cache').token}` });
  assert.equal(withToken.headers.get('cache-control'), 'no-store');
  assert.notEqual(requestId(await get(TOKEN_NAME)), requestId(withToken));
  // POSTs are never kept.
  const post = () => fetch(`${pool.baseUrl}/graphql`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: INVESTMENT }),
  });
  assert.notEqual(requestId(await post()), requestId(await post()));

  // Once max-age is over nginx asks the pool again with the kept tag: unchanged, the pool answers
  // 304 (its access line says so) and nginx serves what it kept.
  const notModified = () => pool.log().split('\n').filter((line) => line.includes('"status":304')).length;
  const notModifiedBefore = notModified();
  await new Promise((resolve) => setTimeout(resolve, 2100));
  const revalidated = await get(INVESTMENT);
  assert.equal(await revalidated.text(), body);
  await waitFor(() => notModified() > notModifiedBefore, { what: "the pool's 304 to nginx's revalidation" });

  // A change: after max-age the new answer, never the kept one.
  await claimThrough(path.join(pool.dir, 'fcgi.sock'));
  await new Promise((resolve) => setTimeout(resolve, 2100));
  const changed = await get(INVESTMENT);
  assert.notEqual(await changed.text(), body);
});
