// Bad requests through nginx: each gets its status, a JSON body with a clear message, and the pool
// keeps every worker (nothing crashes, nothing is lost).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import {
  baseUrl, childrenOf, graphqlUrl, readPid, runDir,
} from '../support/stack.mjs';
import { fastcgiRequest } from '../support/fastcgi.mjs';

const GRAPHQL_RESPONSE = 'application/graphql-response+json';
const master = readPid('fcgi.pid');
const workersBefore = childrenOf(master).sort();

// Uncompressed: nginx gzips answers over 1 KB for clients that accept it (fetch does), and a
// compressed answer is sent in chunks, whatever the pool said.
async function post(body, { contentType = 'application/json', accept = GRAPHQL_RESPONSE } = {}) {
  const response = await fetch(graphqlUrl, {
    method: 'POST',
    headers: { 'content-type': contentType, accept, 'accept-encoding': 'identity' },
    body,
  });
  return { response, text: await response.text() };
}

// The single error message of a refused request, after checking that the body is JSON.
function onlyMessage({ response, text }) {
  assert.match(response.headers.get('content-type'), /^application\/(graphql-response\+)?json/);
  const body = JSON.parse(text);
  assert.equal(body.data, undefined, 'a refused request has no data');
  assert.equal(body.errors.length, 1, text);
  return body.errors[0].message;
}

const cases = [
  ['truncated JSON', '{"query":', 'Unparsable JSON body'],
  ['JSON that is not an object', '[]', 'JSON body must be an object'],
  ['no query', '{"variables":{}}', 'Missing query'],
  ['a query that is not a string', '{"query":1}', 'The "query" parameter must be a string'],
  ['variables that are not an object', '{"query":"{__typename}","variables":"x"}',
    'The "variables" parameter must be a JSON object'],
  ['an operationName that is not a string', '{"query":"{__typename}","operationName":[]}',
    'The "operationName" parameter must be a string'],
  ['a body nested too deeply', `${'['.repeat(10000)}${']'.repeat(10000)}`, 'JSON body nests too deeply'],
  ['invalid UTF-8 in the body', Buffer.from([...Buffer.from('{"query":"{ __typename }'), 0xff, 0x22, 0x7d]),
    'Unparsable JSON body'],
];
for (const [what, body, message] of cases) {
  test(`malformed request, ${what}: 400 "${message}"`, async () => {
    const result = await post(body);
    assert.equal(result.response.status, 400);
    assert.equal(onlyMessage(result), message);
  });
}

test('a body that is not JSON is 415, and so is a missing Content-Type', async () => {
  const plain = await post('{"query":"{__typename}"}', { contentType: 'text/plain' });
  assert.equal(plain.response.status, 415);
  assert.equal(onlyMessage(plain), 'Unsupported Content-Type: send application/json');
  const charset = await post('{"query":"{__typename}"}', { contentType: 'application/json; charset=latin1' });
  assert.equal(charset.response.status, 415);
  assert.equal(onlyMessage(charset), 'Unsupported charset: send UTF-8');
});

test('an Accept header the service cannot satisfy is 406', async () => {
  const result = await post('{"query":"{__typename}"}', { accept: 'text/html' });
  assert.equal(result.response.status, 406);
  assert.equal(onlyMessage(result), 'Accept application/graphql-response+json or application/json');
});

// Issue 22, finding 9: the media type (or a 406) follows Accept, so a cache between client and
// service must keep answers per Accept value.
test('every answer to GET and POST /graphql says Vary: Accept, refusals included', async () => {
  const get = (query, accept) => fetch(`${graphqlUrl}?query=${encodeURIComponent(query)}`, { headers: { accept } });
  const answers = [
    await get('{ __typename }', 'application/json'),
    await get('{ __typename }', GRAPHQL_RESPONSE),
    await get('{ __typename', GRAPHQL_RESPONSE),
    await get('mutation { __typename }', 'application/json'),
    (await post(JSON.stringify({ query: '{ __typename }' }))).response,
    (await post(JSON.stringify({ query: '{ __typename }' }), { accept: 'application/json' })).response,
    (await post('{ not json')).response,
    (await post('{"query":"{__typename}"}', { accept: 'text/csv' })).response,
  ];
  assert.deepEqual(answers.map((response) => response.status), [200, 200, 400, 405, 200, 200, 400, 406]);
  for (const response of answers) {
    const vary = (response.headers.get('vary') ?? '').split(',').map((name) => name.trim().toLowerCase());
    assert.ok(vary.includes('accept'), `${response.status}: Vary ${response.headers.get('vary')}`);
  }
});

test('a mutation over GET is 405 with Allow: POST; PUT is 405 with Allow: GET, POST, OPTIONS', async () => {
  const get = await fetch(`${graphqlUrl}?query=${encodeURIComponent('mutation { __typename }')}`);
  assert.equal(get.status, 405);
  assert.equal(get.headers.get('allow'), 'POST');
  assert.equal(onlyMessage({ response: get, text: await get.text() }), 'Cannot perform mutations over GET');
  const put = await fetch(graphqlUrl, { method: 'PUT', body: 'x' });
  assert.equal(put.status, 405);
  assert.equal(put.headers.get('allow'), 'GET, POST, OPTIONS');
  assert.equal(onlyMessage({ response: put, text: await put.text() }), 'GraphQL requests use GET (queries) or POST');
});

test('the pool\'s own refusals outside /graphql have the same error shape', async () => {
  const socket = path.join(runDir, 'fcgi.sock');
  const unknown = await fastcgiRequest(socket, { method: 'GET', path: '/nope' });
  assert.equal(unknown.status, 404);
  assert.deepEqual(JSON.parse(unknown.body), { errors: [{ message: 'Not found: the GraphQL endpoint is /graphql' }] });
  const health = await fastcgiRequest(socket, { method: 'POST', path: '/health' });
  assert.equal(health.status, 405);
  assert.equal(health.headers.allow, 'GET, HEAD');
  assert.deepEqual(JSON.parse(health.body), { errors: [{ message: 'Use GET or HEAD' }] });
});

test('GET with variables that are not JSON is 400', async () => {
  const response = await fetch(`${graphqlUrl}?query=${encodeURIComponent('{ __typename }')}&variables=%7B`);
  assert.equal(response.status, 400);
  assert.equal(onlyMessage({ response, text: await response.text() }), 'The "variables" parameter is not valid JSON');
});

test('a body over nginx\'s limit is 413 in JSON from nginx; over the pool\'s own limit, 413 from the pool', async () => {
  const huge = JSON.stringify({ query: `{ __typename }${' '.repeat(2 * 1024 * 1024)}` });
  const viaNginx = await post(huge);
  assert.equal(viaNginx.response.status, 413);
  assert.equal(onlyMessage(viaNginx), 'Request body too large');

  // nginx and the pool share the 1 MiB limit, so the pool's own check is reached directly.
  const direct = await fastcgiRequest(path.join(runDir, 'fcgi.sock'), {
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: `{ __typename }${' '.repeat(1024 * 1024)}` }),
  });
  assert.equal(direct.status, 413);
  assert.equal(JSON.parse(direct.body).errors[0].message, 'Request body exceeds 1048576 bytes');
});

const graphqlCases = [
  ['a syntax error', '{ networkGraph(limit: 5 { nodes { id } } }',
    'Syntax Error: Expected Name, found "{".', [{ line: 1, column: 25 }]],
  ['a validation error', '{ nope }', 'Cannot query field "nope" on type "Query".', [{ line: 1, column: 3 }]],
  ['too many aliases', `{ networkGraph { nodes { ${Array.from({ length: 31 }, (_, i) => `a${i}: id`).join(' ')} } } }`,
    'Query has 31 aliases, which exceeds the maximum of 30.', [{ line: 1, column: 1 }]],
  ['too many tokens', `{ ${'x '.repeat(10001)}}`,
    'Syntax Error: Document contains more than 10000 tokens. Parsing aborted.', [{ line: 1, column: 20001 }]],
  ['a document over the size limit', `{ __typename }${' '.repeat(102400)}`,
    'Document exceeds the maximum size of 102400 bytes (max_document_bytes).', undefined],
  ['introspection nested too deeply', '{ __schema { types { fields { type { fields { type { fields { name } } } } } } } }',
    'Maximum introspection depth exceeded', [{ line: 1, column: 3 }]],
  ['brackets nested too deeply', `${'{'.repeat(5000)}${'}'.repeat(5000)}`,
    'Syntax Error: Expected Name, found "{".', [{ line: 1, column: 2 }]],
];
for (const [what, query, message, locations] of graphqlCases) {
  test(`${what}: a GraphQL error with its location, 400 as graphql-response+json, 200 as json`, async () => {
    const strict = await post(JSON.stringify({ query }));
    assert.equal(strict.response.status, 400);
    assert.match(strict.response.headers.get('content-type'), /^application\/graphql-response\+json/);
    assert.deepEqual(JSON.parse(strict.text), { errors: [{ message, ...(locations && { locations }) }] });
    const legacy = await post(JSON.stringify({ query }), { accept: 'application/json' });
    assert.equal(legacy.response.status, 200);
    assert.deepEqual(JSON.parse(legacy.text), { errors: [{ message, ...(locations && { locations }) }] });
  });
}

test('variables of the wrong type are refused with graphql-js\'s coercion messages', async () => {
  const query = 'query($l: Int) { networkGraph(limit: $l) { metadata { nodeCount } } }';
  const expectations = [
    ['abc', 'Variable "$l" got invalid value "abc"; Int cannot represent non-integer value: "abc"'],
    [2147483648, 'Variable "$l" got invalid value 2147483648; Int cannot represent non 32-bit signed integer value: 2147483648'],
    [1.5, 'Variable "$l" got invalid value 1.5; Int cannot represent non-integer value: 1.5'],
    [[1], 'Variable "$l" got invalid value [1]; Int cannot represent non-integer value: [1]'],
  ];
  for (const [value, message] of expectations) {
    const result = await post(JSON.stringify({ query, variables: { l: value } }));
    assert.equal(result.response.status, 400, JSON.stringify(value));
    assert.deepEqual(JSON.parse(result.text), { errors: [{ message, locations: [{ line: 1, column: 7 }] }] });
  }
  const missing = await post(JSON.stringify({
    query: 'mutation($c: String!, $w: String!) { claimVoucher(voucherCode: $c, walletAddress: $w) { success } }',
    variables: { c: 'X' },
  }));
  assert.equal(missing.response.status, 400);
  assert.equal(onlyMessage(missing), 'Variable "$w" of required type "String!" was not provided.');
});

test('operation selection errors: unknown name, several operations without a name', async () => {
  const unknown = await post(JSON.stringify({ query: '{ __typename }', operationName: 'X' }));
  assert.equal(unknown.response.status, 400);
  assert.equal(onlyMessage(unknown), 'Unknown operation named "X".');
  const several = await post(JSON.stringify({ query: 'query A { __typename } query B { __typename }' }));
  assert.equal(several.response.status, 400);
  assert.equal(onlyMessage(several), 'Must provide operation name if query contains multiple operations.');
});

test('after every bad request the same workers serve, healthy', async () => {
  assert.deepEqual(childrenOf(master).sort(), workersBefore, 'no worker crashed or was replaced');
  const health = await fetch(`${baseUrl}/health`);
  assert.equal(health.status, 200);
  const ok = await post(JSON.stringify({ query: '{ __typename }' }));
  assert.deepEqual(JSON.parse(ok.text), { data: { __typename: 'Query' } });
});

test('answers carry their Content-Length through nginx (not a chunked body), refusals too; a preflight has none', async () => {
  const answers = [
    await post(JSON.stringify({ query: '{ networkGraph(limit: 100) { nodes { id labels } } }' })),
    await post('{ not json'),
    await post(JSON.stringify({ query: '{ __typename' })),
  ];
  for (const { response, text } of answers) {
    assert.equal(response.headers.get('transfer-encoding'), null, `${response.status} is chunked`);
    assert.equal(response.headers.get('content-length'), String(Buffer.byteLength(text)));
  }
  const preflight = await fetch(graphqlUrl, {
    method: 'OPTIONS',
    headers: { origin: 'http://127.0.0.1:1', 'access-control-request-method': 'POST' },
  });
  assert.ok(!preflight.headers.get('content-length') || preflight.headers.get('content-length') === '0',
    `a ${preflight.status} with Content-Length ${preflight.headers.get('content-length')}`);
});
