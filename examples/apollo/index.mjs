// netgraph from Apollo Client 4: queries and mutations over HTTP, the subscription over WebSocket
// (graphql-ws), both behind one split link and Apollo's automatic persisted queries: the SHA-256 of
// the document first, its text only when the server asks for it (a query by hash is a short GET URL
// that caches can hold). Over the socket too, with a small GraphQLWsLink subclass below: Apollo's own
// sends the text every time. It reads the graph and the investment round, subscribes to
// networkUpdated (twice, the second time by hash alone), reads a snapshot over the socket, claims a
// voucher and waits for the update that claim caused.
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

// The subscribe messages of operation `name` in `messages`.
function subscribes(name, messages = wire) {
  return messages.filter((m) => m.sent && m.type === 'subscribe' && m.payload.operationName === name);
}

// What the first try of operation `name` over the socket came to: the hash alone, and, when the
// server did not know it, the text once with the same hash. That text goes out some promise steps
// after the refusal arrives (graphql-ws's client ends the first try, the link retries, and the
// client awaits its connection before it sends), so an answer that came with the refusal or just
// after it may be handled first: the text is waited for, up to 5 s.
async function firstTry(name) {
  const [first] = subscribes(name);
  const hash = first?.payload.extensions?.persistedQuery?.sha256Hash;
  check(/^[0-9a-f]{64}$/.test(hash) && first.payload.query === undefined, `${name}: the first subscribe carried the hash alone`);
  const notFound = wire.some((m) => !m.sent && m.id === first.id && m.type === 'next'
    && m.payload.errors?.some((e) => e.extensions?.code === 'PERSISTED_QUERY_NOT_FOUND'));
  if (!notFound) return 'the server knew the hash';
  for (let waited = 0; subscribes(name).length < 2 && waited < 5000; waited += 10) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const [, retry] = subscribes(name);
  check(retry?.payload.query && retry.payload.extensions.persistedQuery.sha256Hash === hash, `${name}: the text sent after PERSISTED_QUERY_NOT_FOUND `
    + `(the socket's messages of it: ${JSON.stringify(wire.filter((m) => m.id === first.id || m.payload?.operationName === name))})`);
  return 'the hash alone, PERSISTED_QUERY_NOT_FOUND, then the text once';
}

// Every HTTP request the client makes, to show what persisted queries send.
const sent = [];
async function recordingFetch(input, init) {
  sent.push({ method: init.method, url: new URL(String(input)), body: init.body ? JSON.parse(init.body) : null });
  return fetch(input, init);
}

// Every message the socket sends and receives, to show what persisted queries send over it.
const wire = [];
class RecordingWebSocket extends WebSocket {
  constructor(...args) {
    super(...args);
    this.on('message', (data) => wire.push({ sent: false, ...JSON.parse(data) }));
  }

  send(data, ...rest) {
    wire.push({ sent: true, ...JSON.parse(data) });
    super.send(data, ...rest);
  }
}

// GraphQLWsLink, but honouring the persisted query link as HttpLink does: that link's first try
// asks for the hash alone (context `http.includeQuery: false`), its retry after
// PERSISTED_QUERY_NOT_FOUND for the text. graphql-ws's client wants a `query` string in every
// subscribe, so the first try's text is left empty here, and the client's jsonMessageReplacer
// (below) leaves an empty text out of the message.
class PersistedGraphQLWsLink extends GraphQLWsLink {
  request(operation) {
    if (operation.getContext().http?.includeQuery !== false) return super.request(operation);
    const { client } = this;
    const hashOnly = {
      subscribe(payload, sink) {
        // A result with errors (PERSISTED_QUERY_NOT_FOUND) is passed on once the server has ended
        // the operation: the persisted query link drops this try when it sees that result, and
        // graphql-ws's client (6.4.2) counts the `complete` the server then sends for a dropped
        // operation as a second end, which closes the socket under the other operations.
        let refused = null;
        return client.subscribe({ ...payload, query: '' }, {
          next: (result) => (result.errors ? (refused = result) : sink.next(result)),
          error: (error) => sink.error(error),
          complete: () => {
            if (refused) sink.next(refused);
            sink.complete();
          },
        });
      },
    };
    return super.request.call({ client: hashOnly }, operation);
  }
}

// The token goes in the connection_init payload: netgraph-ws checks it there (docs/api.md,
// "WebSocket"). netgraph-ws answers PERSISTED_QUERY_NOT_FOUND over the socket as a result with
// errors (`next`), which the persisted query link retries on, as it does for HTTP.
const wsClient = createClient({
  url: wsUrl,
  webSocketImpl: RecordingWebSocket,
  connectionParams: { Authorization: `Bearer ${token}` },
  jsonMessageReplacer(key, value) {
    return key === 'query' && value === '' && this.extensions?.persistedQuery ? undefined : value;
  },
});
const auth = new SetContextLink((previous) => ({
  headers: { ...previous.headers, authorization: `Bearer ${token}` },
}));
const http = new HttpLink({ uri: url, fetch: recordingFetch });
const sha256 = (text) => createHash('sha256').update(text).digest('hex');
// Subscriptions go over the socket, and so does any operation whose context says `overSocket`.
const overSocket = (operation) => isSubscriptionOperation(operation.query) || operation.getContext().overSocket === true;
const transports = ApolloLink.split(overSocket, new PersistedGraphQLWsLink(wsClient), http);
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
const SNAPSHOT = gql`
  query Snapshot {
    networkGraph(limit: 1) { metadata { lastUpdated } }
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
// in order, so once the second read is answered (it is sent after the first's answer, by which time
// the subscription's last subscribe had gone out), the subscription is in place, and the answer is
// the state the updates apply to (docs/api.md, "Resynchronising").
const updates = [[], []];
let onUpdate = () => {};
function subscribeToUpdates(received, context) {
  return client.subscribe({ query: UPDATES, context }).subscribe({
    next: ({ data, error }) => {
      if (error) fail(`networkUpdated: ${error.message}`);
      received.push(data.networkUpdated);
      onUpdate();
    },
    error: (error) => fail(`networkUpdated: ${error.message}`),
  });
}
const readSnapshot = () => client.query({ query: SNAPSHOT, fetchPolicy: 'network-only', context: { overSocket: true } });
const subscriptions = [subscribeToUpdates(updates[0])];
await readSnapshot();
console.log(`persisted queries over WebSocket: subscription Updates: ${await firstTry('Updates')}`);
console.log(`persisted queries over WebSocket: query Snapshot: ${await firstTry('Snapshot')}`);
// Now the server knows both documents: another subscriber to the same updates (Apollo would
// otherwise share the first one's) and the read again go as the hash alone.
const known = wire.length;
subscriptions.push(subscribeToUpdates(updates[1], { queryDeduplication: false }));
const { data: snapshot } = await readSnapshot();
check(snapshot.networkGraph.metadata, 'the snapshot by hash');
for (const name of ['Updates', 'Snapshot']) {
  const sent = subscribes(name, wire.slice(known));
  check(sent.length === 1 && sent[0].payload.query === undefined, `${name}: ${JSON.stringify(sent)} instead of the hash alone`);
}
console.log('persisted queries over WebSocket: the second subscription Updates and query Snapshot went as the hash alone');

const { data: claimed } = await client.mutate({ mutation: CLAIM, variables: { code: voucher, wallet } });
const result = claimed.claimVoucher;
check(result.success, `claimVoucher refused: ${result.error} (${result.message})`);
console.log(`claimVoucher: ${result.voucher.code}, ${result.voucher.amount} tokens, ${result.voucher.status}`);

// The claim's update holds the investor and the wallet (opaque ids) and the link between them; the
// newest Wallet of the graph is the one it added. Both subscriptions receive it.
const { data: after } = await client.query({ query: GRAPH, variables: { limit: 3 }, fetchPolicy: 'network-only' });
const newWallet = after.networkGraph.nodes.find((node) => node.type === 'Wallet');
check(newWallet, 'the graph shows the claimed wallet');
const hasWallet = (received) => received.some((u) => u.nodes.some((n) => n.id === newWallet.id));
await new Promise((resolve) => {
  onUpdate = () => { if (updates.every(hasWallet)) resolve(); };
  onUpdate();
});
console.log(`networkUpdated: the claim's update arrived (wallet ${newWallet.id}), on both subscriptions`);

clearTimeout(deadline);
for (const subscription of subscriptions) subscription.unsubscribe();
await wsClient.dispose();
console.log('apollo example: OK');
process.exit(0);
