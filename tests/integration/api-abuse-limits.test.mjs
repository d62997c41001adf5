// What an anonymous client can make a FastCGI worker hold or do (issue 9): the document cache's
// memory bound (defect 3), the query cost limit (defect 4) and, with introspection off, no
// "Did you mean" hints (defect 8).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { childrenOf, graphql, readPid } from '../support/stack.mjs';
import { startPool } from '../support/pool.mjs';
import { fastcgiGraphql } from '../support/fastcgi.mjs';

const MiB = 1024 * 1024;
// docs/operations.md: NETGRAPH_DOCUMENT_CACHE_BYTES, per worker, and the allowance it gives for
// the allocator's overhead and fragmentation (a half more); without the bound, this flood takes a
// worker to some 300 MiB.
const CACHE_BOUND = 32 * MiB;
const WORKER_BOUND = CACHE_BOUND * 1.5;

function rssBytes(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)[1]) * 1024;
}

// The pool's children: its workers and the outbox relay (which holds no documents).
function poolChildren() {
  return childrenOf(readPid('fcgi.pid'));
}

async function inParallel(count, concurrency, task) {
  let next = 0;
  const results = [];
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < count) {
      const i = next++;
      results[i] = await task(i);
    }
  }));
  return results;
}

// A distinct ~13 KB document of some 4,300 fields; every fifth one is invalid (an unknown field).
function denseDocument(i) {
  const fields = ' id'.repeat(4300);
  const bad = i % 5 === 0 ? ' nope' : '';
  return `{ g${i}: networkGraph(limit: 1) { nodes {${fields}${bad} } } }`;
}

test('a flood of distinct dense documents leaves each worker under the cache bound', { timeout: 600000 }, async () => {
  const children = poolChildren();
  assert.ok(children.length > 0, 'the pool has workers');
  // Warm every worker up so the baseline includes what serving any request costs.
  await inParallel(40, 8, () => graphql('{ networkGraph(limit: 1) { nodes { id } } }'));
  const baseline = new Map(children.map((pid) => [pid, rssBytes(pid)]));

  const statuses = await inParallel(2100, 16, async (i) => {
    const { status, body } = await graphql(denseDocument(i));
    if (i % 5 === 0) {
      assert.match(body.errors[0].message, /^Cannot query field "nope" on type "Node"\./);
    } else {
      assert.equal(body.errors, undefined, JSON.stringify(body.errors));
    }
    return status;
  });
  assert.ok(statuses.every((s) => s === 200 || s === 400));

  for (const pid of poolChildren()) {
    assert.ok(baseline.has(pid), `worker ${pid} was not restarted by the flood`);
    const grown = rssBytes(pid) - baseline.get(pid);
    assert.ok(grown < WORKER_BOUND,
      `worker ${pid} grew by ${(grown / MiB).toFixed(1)} MiB, over the ${WORKER_BOUND / MiB} MiB allowed`);
  }
});

function aliasedGraphs(limit) {
  return Array.from({ length: 30 }, (_, i) => `g${i}: networkGraph(limit: ${limit}) { nodes { id } }`).join(' ');
}

test('30 aliased networkGraph(limit: 1000) exceed the cost budget: an error naming both, no data', async () => {
  const { body } = await graphql(`{ ${aliasedGraphs(1000)} }`);
  assert.equal(body.data, undefined);
  assert.equal(body.errors.length, 1);
  assert.equal(body.errors[0].message, 'Query cost 60030 exceeds the maximum cost of 20000.');
  assert.equal(body.errors[0].extensions.code, 'COST_LIMIT_EXCEEDED');
});

test('a cost given through variables is checked with their values before anything runs', async () => {
  const query = `query ($l: Int) { ${aliasedGraphs('$l')} }`;
  const { body } = await graphql(query, { variables: { l: 1000 } });
  assert.equal(body.data, undefined);
  assert.equal(body.errors[0].message, 'Query cost 60030 exceeds the maximum cost of 20000.');
  assert.equal(body.errors[0].extensions.code, 'COST_LIMIT_EXCEEDED');
  // The same document with small sizes runs.
  const small = await graphql(query, { variables: { l: 1 } });
  assert.equal(small.body.errors, undefined);
  assert.equal(small.body.data.g29.nodes.length, 1);
});

test('the whole graph at its largest stays within the default budget', async () => {
  const { body } = await graphql(`{ networkGraph(limit: 1000) {
    nodes { id type labels } links { source target type } metadata { nodeCount linkCount lastUpdated } } }`);
  assert.equal(body.errors, undefined);
  assert.ok(body.data.networkGraph.nodes.length > 0);
});

test('the cost charges what runs: overlapping fragments once, only the selected operation', async () => {
  // Apollo Client's shape: __typename everywhere, and a colocated fragment selecting part of the
  // query again. Merged as execution merges it: 16001; counted spread by spread it was 25001.
  const apollo = `query Graph { networkGraph(limit: 1000) {
      nodes { id type labels __typename } links { source target type __typename }
      metadata { nodeCount linkCount lastUpdated __typename } __typename ...GraphStats } }
    fragment GraphStats on NetworkGraph {
      metadata { nodeCount linkCount lastUpdated __typename } nodes { id __typename } __typename }
    query Heavy { ${aliasedGraphs(1000)} }`;
  const light = await graphql(apollo, { operationName: 'Graph' });
  assert.equal(light.body.errors, undefined, JSON.stringify(light.body.errors));
  assert.ok(light.body.data.networkGraph.nodes.length > 0);
  // The heavy operation beside it is refused when it is the one selected.
  const heavy = await graphql(apollo, { operationName: 'Heavy' });
  assert.equal(heavy.body.data, undefined);
  assert.equal(heavy.body.errors[0].message, 'Query cost 60030 exceeds the maximum cost of 20000.');
  assert.equal(heavy.body.errors[0].extensions.code, 'COST_LIMIT_EXCEEDED');
});

test('with NETGRAPH_INTROSPECTION=false errors give no "Did you mean" hints', { timeout: 60000 }, async (t) => {
  const { socket } = await startPool(t, 'no-introspection', { NETGRAPH_INTROSPECTION: 'false' }, { workers: 1 });

  for (const query of ['{ networkGrap { nodes { id } } }', '{ networkGraph(limt: 1) { nodes { id } } }']) {
    const hidden = await fastcgiGraphql(socket, query);
    assert.equal(hidden.body.errors.length, 1);
    assert.doesNotMatch(hidden.body.errors[0].message, /Did you mean/, query);
    // The stack's pool, introspection on, gives the hint for the same query.
    const shown = await graphql(query);
    assert.match(shown.body.errors[0].message, /Did you mean/, query);
    assert.ok(shown.body.errors[0].message.startsWith(hidden.body.errors[0].message));
  }
});
