// netgraph from graphql-request (HTTP) and the graphql-ws client (WebSocket): it reads the graph and
// the investment round, subscribes to networkUpdated, claims a voucher and waits for the update that
// claim caused. Exits 0 when every step did what the API documents (docs/api.md), 1 otherwise.
//
//   NETGRAPH_URL       the GraphQL endpoint (default http://127.0.0.1:8080/graphql, `scripts/stack up`)
//   NETGRAPH_TOKEN     a bearer token (the stack prints the demo investor's)
//   NETGRAPH_VOUCHER   a voucher code to claim (the stack prints the demo vouchers)
//   NETGRAPH_WALLET    the wallet to claim it to (default: a new one; a claim to a wallet the graph
//                      already shows changes no node, so no update follows)
import { randomBytes } from 'node:crypto';
import bs58 from 'bs58';
import { ClientError, GraphQLClient, gql } from 'graphql-request';
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
  console.error(`graphql-request example: FAILED: ${message}`);
  process.exit(1);
}

function check(condition, message) {
  if (!condition) fail(message);
}

// graphql-request throws a ClientError for an answer with `errors`; its response holds them, with
// their extensions.code (docs/api.md, "Error codes").
process.on('unhandledRejection', (error) => {
  if (error instanceof ClientError) fail(error.response.errors?.map((e) => `${e.extensions?.code}: ${e.message}`).join('; ') ?? error.message);
  fail(error?.message ?? String(error));
});

const http = new GraphQLClient(url, { headers: { authorization: `Bearer ${token}` } });
// The token goes in the connection_init payload: netgraph-ws checks it there (docs/api.md,
// "WebSocket").
const ws = createClient({
  url: url.replace(/^http/, 'ws'),
  webSocketImpl: WebSocket,
  connectionParams: { Authorization: `Bearer ${token}` },
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
const UPDATES = `
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

const graph = await http.request(GRAPH, { limit: 20 });
check(graph.networkGraph.metadata.nodeCount === graph.networkGraph.nodes.length, 'nodeCount counts the nodes');
console.log(`networkGraph: ${graph.networkGraph.nodes.length} nodes, ${graph.networkGraph.links.length} links`);
const investment = await http.request(INVESTMENT);
console.log(`investmentData: ${investment.investmentData.tokenName} (${investment.investmentData.tokenSymbol}), `
  + `round ${investment.investmentData.currentRound}, price ${investment.investmentData.currentPrice}`);

// Subscribe, then read the graph over the same socket: netgraph-ws handles a connection's messages
// in order, so once that answer is in, the subscription is in place, and the answer is the state
// the updates apply to (docs/api.md, "Resynchronising").
const updates = [];
let onUpdate = () => {};
const unsubscribe = ws.subscribe({ query: UPDATES }, {
  next: (result) => {
    if (result.errors) fail(`networkUpdated: ${JSON.stringify(result.errors)}`);
    updates.push(result.data.networkUpdated);
    onUpdate();
  },
  error: (error) => fail(`networkUpdated: ${error?.message ?? JSON.stringify(error)}`),
  complete: () => {},
});
const snapshot = await ws.iterate({ query: 'query Snapshot { networkGraph(limit: 1) { metadata { lastUpdated } } }' }).next();
check(!snapshot.value.errors, `snapshot: ${JSON.stringify(snapshot.value.errors)}`);

const { claimVoucher: result } = await http.request(CLAIM, { code: voucher, wallet });
check(result.success, `claimVoucher refused: ${result.error} (${result.message})`);
console.log(`claimVoucher: ${result.voucher.code}, ${result.voucher.amount} tokens, ${result.voucher.status}`);

// The claim's update holds the investor and the wallet (opaque ids) and the link between them; the
// newest Wallet of the graph is the one it added.
const after = await http.request(GRAPH, { limit: 3 });
const newWallet = after.networkGraph.nodes.find((node) => node.type === 'Wallet');
check(newWallet, 'the graph shows the claimed wallet');
await new Promise((resolve) => {
  onUpdate = () => { if (updates.some((u) => u.nodes.some((n) => n.id === newWallet.id))) resolve(); };
  onUpdate();
});
console.log(`networkUpdated: the claim's update arrived (wallet ${newWallet.id})`);

clearTimeout(deadline);
unsubscribe();
await ws.dispose();
console.log('graphql-request example: OK');
process.exit(0);
