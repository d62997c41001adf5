// netgraph from urql (@urql/core): queries and a claim over HTTP (fetchExchange), the subscription
// over WebSocket through the subscription exchange and graphql-ws. It reads the graph and the
// investment round, subscribes to networkUpdated, claims a voucher and waits for the update that
// claim caused. Exits 0 when every step did what the API documents (docs/api.md), 1 otherwise.
//
//   NETGRAPH_URL       the GraphQL endpoint (default http://127.0.0.1:8080/graphql, `scripts/stack up`)
//   NETGRAPH_TOKEN     a bearer token (the stack prints the demo investor's)
//   NETGRAPH_VOUCHER   a voucher code to claim (the stack prints the demo vouchers)
//   NETGRAPH_WALLET    the wallet to claim it to (default: a new one; a claim to a wallet the graph
//                      already shows changes no node, so no update follows)
import { randomBytes } from 'node:crypto';
import { Client, cacheExchange, fetchExchange, gql, subscriptionExchange } from '@urql/core';
import bs58 from 'bs58';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';

const url = process.env.NETGRAPH_URL ?? 'http://127.0.0.1:8080/graphql';
const token = required('NETGRAPH_TOKEN');
const voucher = required('NETGRAPH_VOUCHER');
const wallet = process.env.NETGRAPH_WALLET ?? bs58.encode(randomBytes(32));

function required(name) {
  const value = process.env[name];
  if (!value) fail(`${name} is not set (see the top of index.mjs)`);
  return value;
}

function fail(message) {
  console.error(`urql example: FAILED: ${message}`);
  process.exit(1);
}

function check(condition, message) {
  if (!condition) fail(message);
}

// urql reports GraphQL and network errors in `error` rather than throwing.
function dataOf(result, what) {
  if (result.error) fail(`${what}: ${result.error.message}`);
  return result.data;
}

// The token goes in the connection_init payload: netgraph-ws checks it there (docs/api.md,
// "WebSocket").
const wsClient = createClient({
  url: url.replace(/^http/, 'ws'),
  webSocketImpl: WebSocket,
  connectionParams: { Authorization: `Bearer ${token}` },
});
const client = new Client({
  url,
  fetchOptions: () => ({ headers: { authorization: `Bearer ${token}` } }),
  exchanges: [
    cacheExchange,
    subscriptionExchange({
      forwardSubscription(request) {
        const input = { ...request, query: request.query || '' };
        return { subscribe: (sink) => ({ unsubscribe: wsClient.subscribe(input, sink) }) };
      },
    }),
    fetchExchange,
  ],
});

const GRAPH = gql`
  query Graph($limit: Int) {
    networkGraph(limit: $limit) {
      nodes { id type labels }
      links { source target type }
      metadata { nodeCount linkCount lastUpdated }
    }
  }
`;
const INVESTMENT = gql`
  query Investment {
    investmentData { tokenName tokenSymbol currentRound roundRaised roundTarget currentPrice }
  }
`;
const UPDATES = gql`
  subscription Updates {
    networkUpdated {
      nodes { id type labels }
      links { source target type }
    }
  }
`;
const CLAIM = gql`
  mutation Claim($code: String!, $wallet: String!) {
    claimVoucher(voucherCode: $code, walletAddress: $wallet) {
      success error message
      voucher { code amount status walletAddress claimedAt }
    }
  }
`;

const deadline = setTimeout(() => fail('no result within 60 s'), 60000);
const fresh = { requestPolicy: 'network-only' };

const graph = dataOf(await client.query(GRAPH, { limit: 20 }, fresh).toPromise(), 'networkGraph');
check(graph.networkGraph.metadata.nodeCount === graph.networkGraph.nodes.length, 'nodeCount counts the nodes');
console.log(`networkGraph: ${graph.networkGraph.nodes.length} nodes, ${graph.networkGraph.links.length} links`);
const investment = dataOf(await client.query(INVESTMENT, {}, fresh).toPromise(), 'investmentData');
console.log(`investmentData: ${investment.investmentData.tokenName} (${investment.investmentData.tokenSymbol}), `
  + `round ${investment.investmentData.currentRound}, price ${investment.investmentData.currentPrice}`);

// Subscribe, then read the graph over the same socket: netgraph-ws handles a connection's messages
// in order, so once that answer is in, the subscription is in place, and the answer is the state
// the updates apply to (docs/api.md, "Resynchronising").
const updates = [];
let onUpdate = () => {};
const subscription = client.subscription(UPDATES, {}).subscribe((result) => {
  updates.push(dataOf(result, 'networkUpdated').networkUpdated);
  onUpdate();
});
const snapshot = await wsClient.iterate({ query: 'query Snapshot { networkGraph(limit: 1) { metadata { lastUpdated } } }' }).next();
check(!snapshot.value.errors, `snapshot: ${JSON.stringify(snapshot.value.errors)}`);

const claimed = dataOf(await client.mutation(CLAIM, { code: voucher, wallet }).toPromise(), 'claimVoucher');
const result = claimed.claimVoucher;
check(result.success, `claimVoucher refused: ${result.error} (${result.message})`);
console.log(`claimVoucher: ${result.voucher.code}, ${result.voucher.amount} tokens, ${result.voucher.status}`);

// The claim's update holds the investor and the wallet (opaque ids) and the link between them; the
// newest Wallet of the graph is the one it added.
const after = dataOf(await client.query(GRAPH, { limit: 3 }, fresh).toPromise(), 'networkGraph');
const newWallet = after.networkGraph.nodes.find((node) => node.type === 'Wallet');
check(newWallet, 'the graph shows the claimed wallet');
await new Promise((resolve) => {
  onUpdate = () => { if (updates.some((u) => u.nodes.some((n) => n.id === newWallet.id))) resolve(); };
  onUpdate();
});
console.log(`networkUpdated: the claim's update arrived (wallet ${newWallet.id})`);

clearTimeout(deadline);
subscription.unsubscribe();
await wsClient.dispose();
console.log('urql example: OK');
process.exit(0);
