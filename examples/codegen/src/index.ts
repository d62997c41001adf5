// netgraph with types generated from its schema: graphql-codegen's client preset reads the SDL the
// service publishes (codegen.yml) and writes src/gql/, whose graphql() gives each document below its
// result and variable types; tsc then checks this file against them. It reads the graph and the
// investment round, subscribes to networkUpdated, claims a voucher and waits for the update that
// claim caused. Exits 0 when every step did what the API documents (docs/api.md), 1 otherwise.
//
//   NETGRAPH_URL         the GraphQL endpoint (default http://127.0.0.1:8080/graphql, `scripts/stack up`)
//   NETGRAPH_SCHEMA_URL  where codegen reads the SDL (default http://127.0.0.1:8080/graphql/schema.graphql)
//   NETGRAPH_TOKEN       a bearer token (the stack prints the demo investor's)
//   NETGRAPH_VOUCHER     a voucher code to claim (the stack prints the demo vouchers)
//   NETGRAPH_WALLET      the wallet to claim it to (default: a new one; a claim to a wallet the graph
//                        already shows changes no node, so no update follows)
import { randomBytes } from 'node:crypto';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import bs58 from 'bs58';
import { print, type FormattedExecutionResult } from 'graphql';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { graphql } from './gql/index.js';
import type { UpdatesSubscription } from './gql/graphql.js';

const url = process.env.NETGRAPH_URL ?? 'http://127.0.0.1:8080/graphql';
const token = required('NETGRAPH_TOKEN');
const voucher = required('NETGRAPH_VOUCHER');
const wallet = process.env.NETGRAPH_WALLET ?? bs58.encode(randomBytes(32));

function required(name: string): string {
  const value = process.env[name];
  if (!value) fail(`${name} is not set (see the top of src/index.ts)`);
  return value;
}

function fail(message: string): never {
  console.error(`codegen example: FAILED: ${message}`);
  process.exit(1);
}

function check(condition: unknown, message: string): asserts condition {
  if (!condition) fail(message);
}

const GRAPH = graphql(`
  query Graph($limit: Int) {
    networkGraph(limit: $limit) {
      nodes { id type labels }
      links { source target type }
      metadata { nodeCount linkCount lastUpdated }
    }
  }
`);
const INVESTMENT = graphql(`
  query Investment {
    investmentData { tokenName tokenSymbol currentRound roundRaised roundTarget currentPrice }
  }
`);
const UPDATES = graphql(`
  subscription Updates {
    networkUpdated {
      nodes { id type labels }
      links { source target type }
    }
  }
`);
const CLAIM = graphql(`
  mutation Claim($code: String!, $wallet: String!) {
    claimVoucher(voucherCode: $code, walletAddress: $wallet) {
      success error message
      voucher { code amount status walletAddress claimedAt }
    }
  }
`);

// One typed request over HTTP: the document's types flow to the answer.
async function request<Result, Variables>(
  document: TypedDocumentNode<Result, Variables>,
  variables?: Variables,
): Promise<Result> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/graphql-response+json',
      authorization: `Bearer ${token}`,
    },
    body: JSON.stringify({ query: print(document), variables }),
  });
  const body = (await response.json()) as FormattedExecutionResult<Result>;
  if (body.errors) fail(body.errors.map((e) => `${e.extensions?.code}: ${e.message}`).join('; '));
  check(response.ok && body.data, `HTTP ${response.status}`);
  return body.data;
}

const deadline = setTimeout(() => fail('no result within 60 s'), 60000);

const graph = await request(GRAPH, { limit: 20 });
check(graph.networkGraph.metadata.nodeCount === graph.networkGraph.nodes.length, 'nodeCount counts the nodes');
console.log(`networkGraph: ${graph.networkGraph.nodes.length} nodes, ${graph.networkGraph.links.length} links`);
const { investmentData } = await request(INVESTMENT);
console.log(`investmentData: ${investmentData.tokenName} (${investmentData.tokenSymbol}), `
  + `round ${investmentData.currentRound ?? 'none'}, price ${investmentData.currentPrice}`);

// The token goes in the connection_init payload: netgraph-ws checks it there (docs/api.md,
// "WebSocket"). Subscribe, then read the graph over the same socket: netgraph-ws handles a
// connection's messages in order, so once that answer is in, the subscription is in place, and the
// answer is the state the updates apply to (docs/api.md, "Resynchronising").
const ws = createClient({
  url: url.replace(/^http/, 'ws'),
  webSocketImpl: WebSocket,
  connectionParams: { Authorization: `Bearer ${token}` },
});
const updates: UpdatesSubscription['networkUpdated'][] = [];
let onUpdate = () => {};
const unsubscribe = ws.subscribe<UpdatesSubscription>({ query: print(UPDATES) }, {
  next: (result) => {
    if (result.errors || !result.data) fail(`networkUpdated: ${JSON.stringify(result.errors)}`);
    updates.push(result.data.networkUpdated);
    onUpdate();
  },
  error: (error) => fail(`networkUpdated: ${error instanceof Error ? error.message : JSON.stringify(error)}`),
  complete: () => {},
});
const snapshot = await ws.iterate({ query: 'query Snapshot { networkGraph(limit: 1) { metadata { lastUpdated } } }' }).next();
check(!snapshot.done && !snapshot.value.errors, `snapshot: ${JSON.stringify(snapshot.value)}`);

const { claimVoucher: result } = await request(CLAIM, { code: voucher, wallet });
check(result.success && result.voucher, `claimVoucher refused: ${result.error} (${result.message})`);
console.log(`claimVoucher: ${result.voucher.code}, ${result.voucher.amount} tokens, ${result.voucher.status}`);

// The claim's update holds the investor and the wallet (opaque ids) and the link between them; the
// newest Wallet of the graph is the one it added.
const after = await request(GRAPH, { limit: 3 });
const newWallet = after.networkGraph.nodes.find((node) => node.type === 'Wallet');
check(newWallet, 'the graph shows the claimed wallet');
await new Promise<void>((resolve) => {
  onUpdate = () => { if (updates.some((u) => u.nodes.some((n) => n.id === newWallet.id))) resolve(); };
  onUpdate();
});
console.log(`networkUpdated: the claim's update arrived (wallet ${newWallet.id})`);

clearTimeout(deadline);
unsubscribe();
await ws.dispose();
console.log('codegen example: OK');
process.exit(0);
