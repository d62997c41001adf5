// The public queries through nginx: networkGraph (and its limit), investmentData, graphdbStatus,
// and the rule that the public graph never shows an email or a DID.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { graphql } from '../support/stack.mjs';
import { claim, issueVouchers, newUser, randomWallet, RFC3339_UTC } from '../support/api.mjs';

const GRAPH = `query Graph($limit: Int) {
  networkGraph(limit: $limit) {
    nodes { id type labels } links { source target type } metadata { nodeCount linkCount lastUpdated }
  }
}`;

function assertConsistent(graph) {
  assert.equal(graph.metadata.nodeCount, graph.nodes.length);
  assert.equal(graph.metadata.linkCount, graph.links.length);
  const ids = new Set(graph.nodes.map((n) => n.id));
  assert.equal(ids.size, graph.nodes.length, 'node ids are unique');
  for (const link of graph.links) {
    assert.ok(ids.has(link.source) && ids.has(link.target), `both ends of ${JSON.stringify(link)} are returned`);
  }
}

test('graphdbStatus reports the PostgreSQL server', async () => {
  const { body } = await graphql('{ graphdbStatus { connected version } }');
  assert.deepEqual(Object.keys(body.data.graphdbStatus), ['connected', 'version']);
  assert.equal(body.data.graphdbStatus.connected, true);
  assert.match(body.data.graphdbStatus.version, /^\d+\.\d+/);
});

test('networkGraph without a limit returns up to 100 nodes, newest first, with the links among them', async () => {
  const { status, body } = await graphql(GRAPH);
  assert.equal(status, 200);
  assert.equal(body.errors, undefined);
  const graph = body.data.networkGraph;
  assert.ok(graph.nodes.length >= 1 && graph.nodes.length <= 100);
  assertConsistent(graph);
  assert.match(graph.metadata.lastUpdated, RFC3339_UTC);
});

test('networkGraph(limit: 1) returns one node: the most recently changed', async () => {
  const user = newUser('graph');
  const [code] = issueVouchers(1);
  assert.equal((await claim(user.token, code, randomWallet())).success, true);
  const { body } = await graphql(GRAPH, { variables: { limit: 1 } });
  const graph = body.data.networkGraph;
  assert.equal(graph.nodes.length, 1);
  assert.ok(['Investor', 'Wallet'].includes(graph.nodes[0].type), 'the claim just changed it');
  assert.deepEqual(graph.links, []);
  assertConsistent(graph);
  // lastUpdated is the time of the last change, not "now".
  const before = await graphql(GRAPH, { variables: { limit: 1 } });
  await new Promise((resolve) => setTimeout(resolve, 50));
  const after = await graphql(GRAPH, { variables: { limit: 1 } });
  assert.equal(after.body.data.networkGraph.metadata.lastUpdated, before.body.data.networkGraph.metadata.lastUpdated);
});

test('networkGraph(limit: 1000) is allowed and returns the whole small graph', async () => {
  const { body } = await graphql(GRAPH, { variables: { limit: 1000 } });
  assert.equal(body.errors, undefined);
  const graph = body.data.networkGraph;
  assertConsistent(graph);
  const types = new Set(graph.nodes.map((n) => n.type));
  for (const type of ['Token', 'Round', 'Investor', 'Wallet']) assert.ok(types.has(type), `a ${type} node`);
  assert.ok(graph.links.some((l) => l.type === 'INVESTED_IN'));
});

for (const limit of [0, 1001, -1, -100]) {
  test(`networkGraph(limit: ${limit}) is a GraphQL error on path ["networkGraph"]`, async () => {
    for (const request of [
      graphql(GRAPH, { variables: { limit } }),
      graphql(`{ networkGraph(limit: ${limit}) { nodes { id } } }`),
    ]) {
      const { status, body } = await request;
      assert.equal(status, 200);
      assert.equal(body.data, null);
      assert.equal(body.errors.length, 1);
      const [error] = body.errors;
      assert.deepEqual(error.path, ['networkGraph']);
      assert.equal(error.extensions.code, 'BAD_USER_INPUT');
      assert.match(error.message, /between 1 and 1000/);
    }
  });
}

test('investmentData shows the token and its open round', async () => {
  const { body } = await graphql(`{ investmentData { tokenName tokenSymbol currentRound roundRaised
    roundTarget investorCount currentPrice marketCap } }`);
  const data = body.data.investmentData;
  assert.equal(data.tokenName, 'Netgraph Token');
  assert.equal(data.tokenSymbol, 'NGT');
  assert.equal(data.currentRound, 'Seed');
  assert.equal(data.roundTarget, 500000);
  assert.equal(data.currentPrice, 0.05);
  assert.ok(data.investorCount >= 1, 'the demo investor');
  assert.ok(data.roundRaised >= 125, 'the demo investor claimed 2500 NGT at 0.05');
  assert.ok(data.marketCap >= 0);

  // A claim raises roundRaised by amount x price and adds an investor.
  const user = newUser('investor');
  const [code] = issueVouchers(40);
  assert.equal((await claim(user.token, code, randomWallet())).success, true);
  const after = (await graphql('{ investmentData { roundRaised investorCount } }')).body.data.investmentData;
  assert.ok(Math.abs(after.roundRaised - data.roundRaised - 2) < 1e-9, `${after.roundRaised} = ${data.roundRaised} + 2`);
  assert.equal(after.investorCount, data.investorCount + 1);
});

test('the public graph holds no email and no DID, after seeding and after claims', async () => {
  const email = `secret-${Date.now()}@example.com`;
  const user = newUser('private', { email });
  const [code] = issueVouchers(3);
  assert.equal((await claim(user.token, code, randomWallet())).success, true);
  const { body } = await graphql(GRAPH, { variables: { limit: 1000 } });
  const text = JSON.stringify(body.data.networkGraph);
  assert.ok(!text.includes('@'), 'no email');
  assert.ok(!text.includes('did:'), 'no DID');
  assert.ok(!text.includes(email) && !text.includes(user.did));
  assert.ok(!text.includes('investor@example.com') && !text.includes('demo-investor'));
});

test('a subscription sent over HTTP is a request error that points to WebSocket', async () => {
  const { status, body } = await graphql('subscription { networkUpdated { metadata { nodeCount } } }');
  assert.equal(status, 400);
  assert.deepEqual(body, {
    errors: [{
      message: 'Subscriptions are not supported over HTTP; subscribe over WebSocket at /graphql.',
      locations: [{ line: 1, column: 1 }],
    }],
  });
});
