// What nginx adds to the service's answers and how it reaches netgraph-ws (issue 22, finding 9):
// no response may be framed by another site (X-Frame-Options, and frame-ancestors in the pages'
// policy), the pages' Content-Security-Policy also forbids <base>, form targets elsewhere and
// plugins, and /ws/health and /ws/metrics reach netgraph-ws under the path nginx matched, not the
// client's spelling of it (proxy_pass with an explicit URI).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { baseUrl, graphqlUrl, runDir } from '../support/stack.mjs';
import { sparePort, startPrivatePool } from '../support/private-pool.mjs';

function policy(response) {
  const header = response.headers.get('content-security-policy') ?? '';
  return new Map(header.split(';').map((d) => d.trim().split(/\s+/)).map(([k, ...v]) => [k, v.join(' ')]));
}

test('no answer may be framed; the pages forbid <base>, forms posting elsewhere and plugins', async () => {
  const answers = {
    'the graph page': await fetch(`${baseUrl}/`),
    GraphiQL: await fetch(graphqlUrl, { headers: { accept: 'text/html' } }),
    'a GraphQL answer': await fetch(graphqlUrl, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ __typename }' }),
    }),
    '/health': await fetch(`${baseUrl}/health`),
    'a 404': await fetch(`${baseUrl}/nowhere`),
  };
  for (const [what, response] of Object.entries(answers)) {
    assert.equal(response.headers.get('x-frame-options'), 'DENY', what);
    assert.equal(response.headers.get('x-content-type-options'), 'nosniff', what);
    await response.arrayBuffer();
  }
  for (const what of ['the graph page', 'GraphiQL']) {
    const directives = policy(answers[what]);
    assert.equal(directives.get('default-src'), "'self'", what);
    assert.equal(directives.get('frame-ancestors'), "'none'", what);
    assert.equal(directives.get('base-uri'), "'none'", what);
    assert.equal(directives.get('form-action'), "'self'", what);
    assert.equal(directives.get('object-src'), "'none'", what);
  }
});

// GET `rawPath` at `base`, sent exactly as written (fetch would normalize it first); the status.
function rawGet(base, rawPath) {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    http.get({ hostname, port, path: rawPath }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode));
    }).on('error', reject);
  });
}

test('/ws/health and /ws/metrics reach netgraph-ws under their own path, however the client spells it', { timeout: 60000 }, async (t) => {
  // Stands in for netgraph-ws behind a private nginx rendered from the stack's template.
  const socket = path.join(runDir, `ws-recorder-${process.pid}.sock`);
  rmSync(socket, { force: true });
  const seen = [];
  const recorder = http.createServer((request, response) => {
    seen.push(request.url);
    response.end('{}');
  });
  await new Promise((resolve) => recorder.listen(socket, resolve));
  t.after(() => new Promise((resolve) => recorder.close(resolve)));
  const pool = await startPrivatePool('ws-uri', { port: sparePort(10), wsSocket: socket });
  t.after(() => pool.stop());

  const spellings = {
    '/ws/%68ealth': '/ws/health',
    '/ws//health': '/ws/health',
    '/ws/./health': '/ws/health',
    '/ws/x/../health?probe=1': '/ws/health?probe=1',
    '/ws/%6detrics': '/ws/metrics',
  };
  for (const [spelled, expected] of Object.entries(spellings)) {
    seen.length = 0;
    assert.equal(await rawGet(pool.baseUrl, spelled), 200, spelled);
    assert.deepEqual(seen, [expected], `${spelled} reaches netgraph-ws as ${expected}`);
  }
});
