// netgraph from Apollo Client 4: queries and mutations over HTTP through automatic persisted queries
// (the SHA-256 of the document first, its text only when the server asks for it), the subscription
// over WebSocket (graphql-ws), both behind one split link. It reads the graph and the investment
// round, subscribes to networkUpdated, claims a voucher and waits for the update that claim caused.
// Exits 0 when every step did what the API documents (docs/api.md), 1 otherwise.
//
//   NETGRAPH_URL       the GraphQL endpoint (default http://127.0.0.1:8080/graphql, `scripts/stack up`)
//   NETGRAPH_TOKEN     a bearer token (the stack prints the demo investor's)
//   NETGRAPH_VOUCHER   a voucher code to claim (the stack prints the demo vouchers)
//   NETGRAPH_WALLET    the wallet to claim it to (default: a new one; a claim to a wallet the graph
//                      already shows changes no node, so no update follows)
//   NETGRAPH_PERSISTED_QUERIES=off  leaves the persisted-query link out
import { createHash, randomBytes } from 'node:crypto';
import { ApolloClient, ApolloLink, HttpLink, InMemoryCache, gql } from '@apollo/client';
import { SetContextLink } from '@apollo/client/link/context';
import { PersistedQueryLink } from '@apollo/client/link/persisted-queries';
import { GraphQLWsLink } from '@apollo/client/link/subscriptions';
import { isSubscriptionOperation } from '@apollo/client/utilities';
import bs58 from 'bs58';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';

const url = process.env.NETGRAPH_URL ?? 'http://127.0.0.1:8080/graphql';
const wsUrl = url.replace(/^http/, 'ws');
const token = required('NETGRAPH_TOKEN');
const voucher = required('NETGRAPH_VOUCHER');
const wallet = process.env.NETGRAPH_WALLET ?? bs58.encode(randomBytes(32));
const persistedQueries = process.env.NETGRAPH_PERSISTED_QUERIES !== 'off';

function required(name) {
  const value = process.env[name];
  if (!value) fail(`${name} is not set (see the top of index.mjs)`);
  return value;
}

function fail(message) {
  console.error(`apollo example: FAILED: ${message}`);
  process.exit(1);
}

function check(condition, message) {
  if (!condition) fail(message);
}

// Every HTTP request the client makes, to show what persisted queries send.
const sent = [];
async function recordingFetch(input, init) {
  sent.push(JSON.parse(init.body));
  return fetch(input, init);
}

// The token goes in the connection_init payload: netgraph-ws checks it there (docs/api.md,
// "WebSocket"); the split link sends only subscriptions over this socket.
const wsClient = createClient({
  url: wsUrl,
  webSocketImpl: WebSocket,
  connectionParams: { Authorization: `Bearer ${token}` },
});
const auth = new SetContextLink((previous) => ({
  headers: { ...previous.headers, authorization: `Bearer ${token}` },
}));
const http = new HttpLink({ uri: url, fetch: recordingFetch });
const sha256 = (text) => createHash('sha256').update(text).digest('hex');
const httpChain = persistedQueries ? ApolloLink.from([new PersistedQueryLink({ sha256 }), http]) : http;
const client = new ApolloClient({
  cache: new InMemoryCache(),
  link: ApolloLink.from([
    auth,
    ApolloLink.split(({ query }) => isSubscriptionOperation(query), new GraphQLWsLink(wsClient), httpChain),
  ]),
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

// Reads: queries throw on errors (Apollo Client 4's default errorPolicy).
const { data: graph } = await client.query({ query: GRAPH, variables: { limit: 20 }, fetchPolicy: 'network-only' });
check(graph.networkGraph.metadata.nodeCount === graph.networkGraph.nodes.length, 'nodeCount counts the nodes');
console.log(`networkGraph: ${graph.networkGraph.nodes.length} nodes, ${graph.networkGraph.links.length} links`);
const { data: investment } = await client.query({ query: INVESTMENT, fetchPolicy: 'network-only' });
console.log(`investmentData: ${investment.investmentData.tokenName} (${investment.investmentData.tokenSymbol}), `
  + `round ${investment.investmentData.currentRound}, price ${investment.investmentData.currentPrice}`);

if (persistedQueries) {
  // The first request of a document carried only its hash; the server asked for the text
  // (PERSISTED_QUERY_NOT_FOUND) unless another client had sent it already. Asked again, the
  // hash alone is enough.
  sent.length = 0;
  await client.query({ query: INVESTMENT, fetchPolicy: 'network-only' });
  check(sent.length === 1, `a persisted query needs one request, made ${sent.length}`);
  check(sent[0].query === undefined, 'the request left the document text out');
  check(/^[0-9a-f]{64}$/.test(sent[0].extensions?.persistedQuery?.sha256Hash), 'the request carried the hash');
  console.log('persisted queries: the hash alone was answered');
}

// Subscribe, then read the graph over the same socket: netgraph-ws handles a connection's messages
// in order, so once that answer is in, the subscription is in place, and the answer is the state
// the updates apply to (docs/api.md, "Resynchronising").
const updates = [];
let onUpdate = () => {};
const subscription = client.subscribe({ query: UPDATES }).subscribe({
  next: ({ data, error }) => {
    if (error) fail(`networkUpdated: ${error.message}`);
    updates.push(data.networkUpdated);
    onUpdate();
  },
  error: (error) => fail(`networkUpdated: ${error.message}`),
});
const snapshot = await wsClient.iterate({ query: 'query Snapshot { networkGraph(limit: 1) { metadata { lastUpdated } } }' }).next();
check(!snapshot.value.errors, `snapshot: ${JSON.stringify(snapshot.value.errors)}`);

const { data: claimed } = await client.mutate({ mutation: CLAIM, variables: { code: voucher, wallet } });
const result = claimed.claimVoucher;
check(result.success, `claimVoucher refused: ${result.error} (${result.message})`);
console.log(`claimVoucher: ${result.voucher.code}, ${result.voucher.amount} tokens, ${result.voucher.status}`);

// The claim's update holds the investor and the wallet (opaque ids) and the link between them; the
// newest Wallet of the graph is the one it added.
const { data: after } = await client.query({ query: GRAPH, variables: { limit: 3 }, fetchPolicy: 'network-only' });
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
console.log('apollo example: OK');
process.exit(0);
