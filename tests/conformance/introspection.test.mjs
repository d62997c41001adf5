// Introspection round trip against graphql-js 16 (the npm `graphql` package this repository pins):
// the engine answers graphql-js's full introspection query (every option on: descriptions,
// specifiedByUrl, directiveIsRepeatable, schemaDescription, inputValueDeprecation, oneOf), and
// graphql-js must rebuild from that answer exactly the schema it builds from
// core/api/schema.graphql: printSchema(buildClientSchema(data)) === printSchema(buildSchema(sdl)),
// so every type, field, argument, default value, description, deprecation, @specifiedBy and @oneOf
// comes back as written.
//
// Environment: with NETGRAPH_BASE_URL set, the query goes over HTTP to the running stack
// (NETGRAPH_BASE_URL/graphql, which must have introspection on); otherwise to
// `netgraphctl graphql introspect` of NETGRAPH_BUILD_DIR (default: <repo>/build).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';

import { buildClientSchema, buildSchema, getIntrospectionQuery, printSchema } from 'graphql';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../..');
const buildDir = process.env.NETGRAPH_BUILD_DIR ?? path.join(repo, 'build');

const query = getIntrospectionQuery({
  descriptions: true,
  specifiedByUrl: true,
  directiveIsRepeatable: true,
  schemaDescription: true,
  inputValueDeprecation: true,
  oneOf: true,
});

async function introspect() {
  const baseUrl = process.env.NETGRAPH_BASE_URL;
  if (baseUrl) {
    const response = await fetch(`${baseUrl}/graphql`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/graphql-response+json',
      },
      body: JSON.stringify({ query, operationName: 'IntrospectionQuery' }),
    });
    assert.equal(response.status, 200, 'introspection over HTTP');
    return response.json();
  }
  const run = spawnSync(path.join(buildDir, 'bin', 'netgraphctl'), ['graphql', 'introspect', '-'], {
    input: query,
    encoding: 'utf8',
  });
  assert.equal(run.status, 0, `netgraphctl graphql introspect failed: ${run.stderr}${run.stdout}`);
  return JSON.parse(run.stdout);
}

test('graphql-js rebuilds the service schema from the engine\'s introspection', async () => {
  const result = await introspect();
  assert.equal(result.errors, undefined, JSON.stringify(result.errors));
  const sdl = readFileSync(path.join(repo, 'core/api/schema.graphql'), 'utf8');
  const expected = printSchema(buildSchema(sdl));
  const rebuilt = printSchema(buildClientSchema(result.data));
  assert.equal(rebuilt, expected);
  // The rebuilt schema carries what the SDL says, not just the same shape.
  assert.match(rebuilt, /scalar DateTime @specifiedBy\(url: "https:\/\/scalars.graphql.org\/andimarek\/date-time"\)/);
  assert.match(rebuilt, /networkGraph\(limit: Int = 100\): NetworkGraph!/);
});
