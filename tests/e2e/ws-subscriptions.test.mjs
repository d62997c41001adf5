// Subscriptions over WebSocket through nginx with the graphql-ws client (graphql-transport-ws):
// updates published on Redis reach subscribers in the shape each one selected, stop on complete,
// and queries are answered on the same socket.
//
// The trigger is a PUBLISH on netgraph:graph, the message the FastCGI workers send after a graph
// change commits (docs/api.md, "networkUpdated").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  RawSocket, graphqlWsClient, mentionsAny, networkUpdate, networkUpdatedQuery, publish,
  publishUntilReceived, subscribe, uniqueMarker,
} from '../support/websocket.mjs';

test('a networkUpdated subscriber receives an update published to Redis', async () => {
  const client = graphqlWsClient();
  try {
    const state = subscribe(client, { query: networkUpdatedQuery });
    await state.warmUp();
    const marker = uniqueMarker();
    assert.ok(await publish(networkUpdate(marker)) >= 1);
    const result = await state.resultWith(marker);
    assert.equal(result.errors, undefined);
    const update = result.data.networkUpdated;
    assert.deepEqual(update.nodes, [{ id: marker, type: 'Wallet', labels: ['e2e'] }]);
    assert.deepEqual(update.links, [{ source: marker, target: 'round-1', type: 'CLAIMED_IN' }]);
    assert.equal(update.metadata.nodeCount, 1);
    assert.equal(update.metadata.linkCount, 1);
    assert.match(update.metadata.lastUpdated, /^\d{4}-\d\d-\d\dT/);
    assert.equal(typeof result.extensions.sequence, 'number');
  } finally {
    await client.dispose();
  }
});

// Messages published here carry no publisher "sequence": made-up numbers would look like gaps in
// the outbox relay's numbering to the ws process (its dedupe and gap rules are unit-tested).
test('consecutive updates carry consecutive sequence numbers', async () => {
  const client = graphqlWsClient();
  try {
    const state = subscribe(client, { query: 'subscription { networkUpdated { nodes { id } } }' });
    await state.warmUp();
    const first = uniqueMarker();
    const second = uniqueMarker();
    await publish(networkUpdate(first));
    await publish(networkUpdate(second));
    const a = await state.resultWith(first);
    const b = await state.resultWith(second);
    // Other publishers' updates may come in between; each one counts exactly one.
    const between = state.results.indexOf(b) - state.results.indexOf(a);
    assert.ok(between >= 1);
    assert.equal(b.extensions.sequence, a.extensions.sequence + between);
    assert.equal(a.extensions.publisherSequence, undefined);
  } finally {
    await client.dispose();
  }
});

test('two selection sets each get only the fields they selected', async () => {
  const client = graphqlWsClient();
  try {
    const ids = subscribe(client, { query: 'subscription { networkUpdated { nodes { id } } }' });
    const counts = subscribe(client, {
      query: 'subscription Counts { networkUpdated { metadata { nodeCount linkCount } } }',
      operationName: 'Counts',
    });
    await ids.warmUp();
    await publishUntilReceived(() => counts.results.length > 0);  // its results carry no marker
    const marker = uniqueMarker();
    await publish(networkUpdate(marker));
    const idResult = await ids.resultWith(marker);
    assert.deepEqual(idResult.data, { networkUpdated: { nodes: [{ id: marker }] } });
    // The counts shape does not contain the marker: take the result delivered with the same sequence.
    const countResult = await counts.until(
      (s) => s.results.find((r) => r.extensions.sequence === idResult.extensions.sequence),
      'the counts result of the same update');
    assert.deepEqual(countResult.data, { networkUpdated: { metadata: { nodeCount: 1, linkCount: 1 } } });
  } finally {
    await client.dispose();
  }
});

test('a client complete stops delivery while other subscriptions keep receiving', async () => {
  const client = graphqlWsClient();
  try {
    const stopped = subscribe(client, { query: 'subscription { networkUpdated { nodes { id } } }' });
    const kept = subscribe(client, { query: 'subscription { networkUpdated { nodes { id type } } }' });
    await stopped.warmUp();
    await kept.warmUp();
    stopped.unsubscribe();  // sends complete
    const before = stopped.results.length;
    const marker = uniqueMarker();
    await publish(networkUpdate(marker));
    await kept.resultWith(marker);
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(stopped.results.length, before);
  } finally {
    await client.dispose();
  }
});

test('a query over the socket gets one next and then complete', async () => {
  const socket = new RawSocket();
  try {
    await socket.init();
    socket.send({ id: 'q1', type: 'subscribe', payload: { query: '{ __typename }' } });
    const next = await socket.next((m) => m.id === 'q1');
    assert.deepEqual(next, { id: 'q1', type: 'next', payload: { data: { __typename: 'Query' } } });
    const complete = await socket.next((m) => m.id === 'q1');
    assert.deepEqual(complete, { id: 'q1', type: 'complete' });
  } finally {
    await socket.close();
  }
});

test('an invalid subscription gets an error message and the socket stays usable', async () => {
  const socket = new RawSocket();
  try {
    await socket.init();
    socket.send({ id: 'bad', type: 'subscribe', payload: { query: 'subscription { networkUpdated { nope } }' } });
    const error = await socket.next((m) => m.id === 'bad');
    assert.equal(error.type, 'error');
    assert.ok(Array.isArray(error.payload) && error.payload.length > 0);
    assert.match(error.payload[0].message, /nope/);
    socket.send({ id: 'syntax', type: 'subscribe', payload: { query: 'subscription {' } });
    const syntax = await socket.next((m) => m.id === 'syntax');
    assert.equal(syntax.type, 'error');
    assert.match(syntax.payload[0].message, /Syntax Error/i);
    // Still serving this connection: a valid subscription works.
    socket.send({ id: 'good', type: 'subscribe', payload: { query: 'subscription { networkUpdated { nodes { id } } }' } });
    const update = await publishUntilReceived((markers) =>
      socket.take((m) => m.type === 'next' && mentionsAny(m, markers)));
    assert.equal(update.id, 'good');
  } finally {
    await socket.close();
  }
});

test('the client library reports a validation error through its error callback', async () => {
  const client = graphqlWsClient();
  try {
    const state = subscribe(client, { query: 'subscription { networkUpdated { nodes { nope } } }' });
    const errors = await state.until((s) => s.errors[0], 'an error');
    assert.ok(Array.isArray(errors));
    assert.match(errors[0].message, /nope/);
  } finally {
    await client.dispose();
  }
});
