// The real trigger: a voucher claimed over HTTP commits a graph change, the outbox relay publishes
// it on netgraph:graph, and every WebSocket subscriber receives it as networkUpdated, numbered.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { claim, issueVouchers, newUser, randomWallet, RFC3339_UTC } from '../support/api.mjs';
import { graphqlWsClient, subscribe } from './ws-support.mjs';

const query = `subscription {
  networkUpdated {
    nodes { id type labels }
    links { source target type }
    metadata { nodeCount linkCount lastUpdated }
  }
}`;

// The first result after the first `after` ones that lists an Investor node: a claim's update (it
// lists the investor, the wallet and the round). Warm-up updates have Wallet nodes only.
function claimUpdate(state, after) {
  return state.until((s) => s.results.slice(after).find(
    (r) => r.data?.networkUpdated?.nodes?.some((n) => n.type === 'Investor')), 'the claim\'s update', 20000);
}

test('a voucher claimed over HTTP reaches subscribers as networkUpdated', async () => {
  const first = graphqlWsClient();
  const second = graphqlWsClient();
  try {
    const a = subscribe(first, { query });
    const b = subscribe(second, { query });
    await a.warmUp();
    await b.warmUp();
    const seenA = a.results.length;
    const seenB = b.results.length;

    const [code] = issueVouchers(5);
    assert.equal((await claim(newUser('ws-claim').token, code, randomWallet())).success, true);
    const fromA = await claimUpdate(a, seenA);
    const fromB = await claimUpdate(b, seenB);

    assert.equal(fromA.errors, undefined);
    const update = fromA.data.networkUpdated;
    assert.deepEqual(update.nodes.map((n) => n.type).sort(), ['Investor', 'Round', 'Wallet']);
    assert.deepEqual(update.links.map((l) => l.type).sort(), ['INVESTED_IN', 'OWNS']);
    assert.equal(update.metadata.nodeCount, 3);
    assert.match(update.metadata.lastUpdated, RFC3339_UTC);
    // The relay numbers its messages; the ws process passes the number on.
    assert.equal(typeof fromA.extensions.publisherSequence, 'number');
    assert.equal(typeof fromA.extensions.sequence, 'number');
    // Both subscribers got the same update (one execution, shared).
    assert.deepEqual(fromB, fromA);
  } finally {
    await first.dispose();
    await second.dispose();
  }
});
