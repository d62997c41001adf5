// netgraph from Apollo Client 4: queries and mutations over HTTP through automatic persisted queries
// (the SHA-256 of the document first, its text only when the server asks for it; a query by hash is
// a short GET URL that caches can hold), the subscription over WebSocket (graphql-ws), both behind
// one split link. GraphQLWsLink always sends the text, with the hash beside it, which the server
// checks (docs/api.md, "Persisted documents"). It reads the graph and the investment
// round, subscribes to networkUpdated, claims a voucher and waits for the update that claim caused.
// Exits 0 when every step did what the API documents (docs/api.md), 1 otherwise.
//
//   NETGRAPH_URL       the GraphQL endpoint (default http://127.0.0.1:8080/graphql, `scripts/stack up`)
//   NETGRAPH_TOKEN     a bearer token (the stack prints the demo investor's)
//   NETGRAPH_VOUCHER   a voucher code to claim (the stack prints the demo vouchers)
//   NETGRAPH_WALLET    the wallet to claim it to (default: a new one; a claim to a wallet the graph
//                      already shows changes no node, so no update follows)
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
  sent.push({ method: init.method, url: new URL(String(input)), body: init.body ? JSON.parse(init.body) : null });
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
const transports = ApolloLink.split(({ query }) => isSubscriptionOperation(query), new GraphQLWsLink(wsClient), http);
const client = new ApolloClient({
  cache: new InMemoryCache(),
  link: ApolloLink.from([
    auth,
    new PersistedQueryLink({ sha256, useGETForHashedQueries: true }),
    transports,
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
sent.length = 0;
const { data: investment } = await client.query({ query: INVESTMENT, fetchPolicy: 'network-only' });
// The hash alone first; the text only when the server had not seen it (PERSISTED_QUERY_NOT_FOUND).
const registered = sent.length === 2 && sent[1].method === 'POST' && typeof sent[1].body.query === 'string';
check(sent.length === 1 || registered, `persisted queries: ${sent.length} requests`);
console.log(`persisted queries: ${registered ? 'the server asked for the text once' : 'the server knew the hash'}`);
console.log(`investmentData: ${investment.investmentData.tokenName} (${investment.investmentData.tokenSymbol}), `
  + `round ${investment.investmentData.currentRound}, price ${investment.investmentData.currentPrice}`);

// Asked again, the hash alone is enough: a short GET URL.
sent.length = 0;
const { data: again } = await client.query({ query: INVESTMENT, fetchPolicy: 'network-only' });
check(again.investmentData.tokenSymbol === investment.investmentData.tokenSymbol, 'the same answer by hash');
check(sent.length === 1, `a persisted query needs one request, made ${sent.length}`);
const [request] = sent;
check(request.method === 'GET' && !request.url.searchParams.has('query'), 'a GET without the document text');
const extensions = JSON.parse(request.url.searchParams.get('extensions') ?? '{}');
check(/^[0-9a-f]{64}$/.test(extensions.persistedQuery?.sha256Hash), 'the request carried the hash');
console.log(`persisted queries: the hash alone was answered (GET ${request.url.pathname}, ${request.url.search.length} characters of query string)`);

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
