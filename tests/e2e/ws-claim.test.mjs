// The real trigger: a voucher claimed over HTTP commits a graph change, the outbox relay publishes
// it on netgraph:graph, and every WebSocket subscriber (the npm graphql-ws client, through nginx)
// receives it as networkUpdated within a second, numbered, with the fields it selected.
import { test } from 'node:test';
import { performance } from 'node:perf_hooks';
import assert from 'node:assert/strict';
import { claim, issueVouchers, newUser, randomWallet, RFC3339_UTC } from '../support/api.mjs';
import { graphqlWsClient, subscribe } from '../support/websocket.mjs';

const query = `subscription {
  networkUpdated {
    nodes { id type labels }
    links { source target type }
    metadata { nodeCount linkCount lastUpdated }
  }
}`;

const smallQuery = 'subscription { networkUpdated { nodes { id } metadata { nodeCount } } }';

// The first result after the first `after` ones that lists an Investor node: a claim's update (it
// lists the investor, the wallet and the round). Warm-up updates have Wallet nodes only.
function claimUpdate(state, after) {
  return state.until((s) => s.results.slice(after).find(
    (r) => r.data?.networkUpdated?.nodes?.some((n) => n.type === 'Investor')), 'the claim\'s update', 20000);
}

test('a voucher claimed over HTTP reaches subscribers within 1 s, each with its own selection', async (t) => {
  const first = graphqlWsClient();
  const second = graphqlWsClient();
  const third = graphqlWsClient();
  try {
    const a = subscribe(first, { query });
    const b = subscribe(second, { query });
    const c = subscribe(third, { query: smallQuery });
    await a.warmUp();
    await b.warmUp();
    await c.warmUp();
    const seenA = a.results.length;
    const seenB = b.results.length;
    const seenC = c.results.length;

    const [code] = issueVouchers(5);
    const started = performance.now();
    assert.equal((await claim(newUser('ws-claim').token, code, randomWallet())).success, true);
    const [fromA, fromB] = await Promise.all([claimUpdate(a, seenA), claimUpdate(b, seenB)]);
    // The small selection has no node types: its update is the one listing the same node ids.
    const ids = JSON.stringify(fromA.data.networkUpdated.nodes.map((n) => n.id));
    const fromC = await c.until((s) => s.results.slice(seenC).find(
      (r) => JSON.stringify(r.data?.networkUpdated?.nodes?.map((n) => n.id)) === ids), 'the small update', 20000);
    const elapsed = performance.now() - started;
    t.diagnostic(`claim to receipt: ${elapsed.toFixed(1)} ms`);
    assert.ok(elapsed < 1000, `the update arrived ${elapsed.toFixed(0)} ms after the claim was sent`);

    assert.equal(fromA.errors, undefined);
    const update = fromA.data.networkUpdated;
    assert.deepEqual(Object.keys(update), ['nodes', 'links', 'metadata']);
    for (const node of update.nodes) assert.deepEqual(Object.keys(node), ['id', 'type', 'labels']);
    for (const link of update.links) assert.deepEqual(Object.keys(link), ['source', 'target', 'type']);
    assert.deepEqual(Object.keys(update.metadata), ['nodeCount', 'linkCount', 'lastUpdated']);
    assert.deepEqual(update.nodes.map((n) => n.type).sort(), ['Investor', 'Round', 'Wallet']);
    assert.deepEqual(update.links.map((l) => l.type).sort(), ['INVESTED_IN', 'OWNS']);
    assert.equal(update.metadata.nodeCount, 3);
    assert.match(update.metadata.lastUpdated, RFC3339_UTC);
    // The relay numbers its messages; the ws process passes the number on.
    assert.equal(typeof fromA.extensions.publisherSequence, 'number');
    assert.equal(typeof fromA.extensions.sequence, 'number');
    // Both subscribers of the same document got the same update (one execution, shared).
    assert.deepEqual(fromB, fromA);
    // The other selection set gets only its own fields, of the same update.
    assert.deepEqual(fromC.data, {
      networkUpdated: {
        nodes: update.nodes.map(({ id }) => ({ id })),
        metadata: { nodeCount: update.metadata.nodeCount },
      },
    });
  } finally {
    await first.dispose();
    await second.dispose();
    await third.dispose();
  }
});
