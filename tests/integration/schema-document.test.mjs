// The schema's SDL at GET /graphql/schema.graphql (fcgi/http/routes.h): through nginx, with
// introspection off, and not at all with NETGRAPH_PUBLISH_SCHEMA=off.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { baseUrl, repo } from '../support/stack.mjs';
import { startPool } from '../support/pool.mjs';
import { fastcgiGraphql, fastcgiRequest } from '../support/fastcgi.mjs';

const schemaUrl = `${baseUrl}/graphql/schema.graphql`;
const source = readFileSync(path.join(repo, 'core/api/schema.graphql'), 'utf8');

// A pool of one worker with `settings` over the stack's (tests/support/pool.mjs); its socket.
const poolSocket = async (t, name, settings) => (await startPool(t, name, settings, { workers: 1 })).socket;

test('GET /graphql/schema.graphql through nginx answers the schema\'s source, HEAD its headers, other methods 405', async () => {
  const response = await fetch(schemaUrl);
  assert.equal(response.status, 200);
  assert.equal(response.headers.get('content-type'), 'text/plain; charset=utf-8');
  assert.ok(response.headers.get('x-request-id'), 'the request id, as for /graphql');
  assert.equal(await response.text(), source);

  const head = await fetch(schemaUrl, { method: 'HEAD' });
  assert.equal(head.status, 200);
  assert.equal(await head.text(), '');

  const post = await fetch(schemaUrl, { method: 'POST', body: '{}' });
  assert.equal(post.status, 405);
  assert.equal(post.headers.get('allow'), 'GET, HEAD');
});

test('with NETGRAPH_INTROSPECTION=false the SDL is still served; NETGRAPH_PUBLISH_SCHEMA=off answers 404', { timeout: 90000 }, async (t) => {
  const closed = await poolSocket(t, 'no-introspection', { NETGRAPH_INTROSPECTION: 'false' });
  const introspection = await fastcgiGraphql(closed, '{ __schema { queryType { name } } }');
  assert.equal(introspection.body.errors[0].message, 'Cannot query field "__schema" on type "Query".', 'introspection is off');
  const served = await fastcgiRequest(closed, { method: 'GET', path: '/graphql/schema.graphql' });
  assert.equal(served.status, 200);
  assert.equal(served.body, source);

  const unpublished = await poolSocket(t, 'unpublished-schema', { NETGRAPH_PUBLISH_SCHEMA: 'off' });
  const refused = await fastcgiRequest(unpublished, { method: 'GET', path: '/graphql/schema.graphql' });
  assert.equal(refused.status, 404);
  assert.deepEqual(JSON.parse(refused.body), { errors: [{ message: 'Not found: this service does not publish its schema here' }] });
});
