// nginx keeps its connections to the pool alive (fastcgi_keep_conn, upstream keepalive): a worker
// waits on every connection it holds, and hands the idle ones to the other workers when it is busy
// or stops (fcgi/pool/connection_handoff.h), so an idle kept-alive connection never holds up a request
// and none is closed under nginx; a broken FastCGI stream costs only its own connection.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import path from 'node:path';
import {
  childrenOf, graphql, graphqlUrl, isAlive, readPid, runDir, waitFor,
} from '../support/stack.mjs';
import { fastcgiConnection, fastcgiGraphql } from '../support/fastcgi.mjs';
import { startPool } from '../support/pool.mjs';
import { holdLock } from '../support/postgres.mjs';
import {
  CLAIM, issueVouchers, newUser, portfolio, randomWallet,
} from '../support/api.mjs';

const socketPath = path.join(runDir, 'fcgi.sock');
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// The pool's workers (the master's children but the outbox relay).
const poolChildren = () => childrenOf(readPid('fcgi.pid'));

test('more keep-alive clients than workers, idling between requests: none fails, none waits a second', async () => {
  const workers = poolChildren().length - 1;
  assert.ok(workers >= 1, 'the stack runs a pool');
  const clients = Math.max(16, 8 * workers);
  const rounds = 12;
  const failures = [];
  const durations = [];
  // Each client sends a request, then idles long enough for nginx to park the connection it used to
  // the pool, so at any time most of nginx's connections to the pool are idle.
  const client = async (index) => {
    for (let round = 0; round < rounds; round += 1) {
      const started = performance.now();
      try {
        const response = await fetch(graphqlUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify({ query: `{ __typename c${index}: __typename }` }),
          signal: AbortSignal.timeout(20000),
        });
        const body = await response.json();
        if (response.status !== 200 || body.data?.__typename !== 'Query')
          failures.push(`client ${index} round ${round}: ${response.status} ${JSON.stringify(body)}`);
      } catch (error) {
        failures.push(`client ${index} round ${round}: ${error.message}`);
      }
      durations.push(performance.now() - started);
      await sleep(50 + ((index * 37 + round * 11) % 150));
    }
  };
  await Promise.all(Array.from({ length: clients }, (_, index) => client(index)));
  assert.deepEqual(failures, []);
  assert.equal(durations.length, clients * rounds);
  const slowest = Math.max(...durations);
  assert.ok(slowest < 1000, `the slowest of ${durations.length} requests took ${slowest.toFixed(0)} ms`);
});

const TYPENAME = { headers: { 'content-type': 'application/json', accept: 'application/json' },
  body: JSON.stringify({ query: '{ __typename }' }) };

// One kept connection held by each of the pool's `workers` workers: each worker takes one new
// connection at a time while its request is on the way, so requests whose bodies are held until
// all are accepted land on as many workers, which keep the connections after answering.
async function keptOnEveryWorker(socket, workers) {
  const connections = await Promise.all(Array.from({ length: workers }, () => fastcgiConnection(socket)));
  let release;
  const hold = new Promise((resolve) => { release = resolve; });
  const answers = connections.map((connection) => connection.request({ ...TYPENAME, hold }));
  await sleep(300);
  release();
  for (const answer of await Promise.all(answers)) assert.equal(answer.status, 200, answer.body);
  return connections;
}

// Resolves to how long `request` took, or rejects after `limitMs`.
async function within(limitMs, request) {
  const started = performance.now();
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${limitMs} ms`)), limitMs);
  });
  try {
    const response = await Promise.race([request, late]);
    assert.equal(response.status, 200, response.body);
    return performance.now() - started;
  } finally {
    clearTimeout(timer);
  }
}

test('a kept connection held by a worker that turns to a slow request is answered by another worker at once', async (t) => {
  const pool = await startPool(t, 'handoff-slow', {
    NETGRAPH_DB_LOCK_TIMEOUT_MS: '0', NETGRAPH_DB_STATEMENT_TIMEOUT_MS: '0',
  });
  // Each of the two workers holds one connection of each pair.
  const first = await keptOnEveryWorker(pool.socket, 2);
  const second = await keptOnEveryWorker(pool.socket, 2);
  t.after(() => { for (const connection of [...first, ...second]) connection.close(); });

  // The worker holding first[0] runs a claim that waits on a row lock.
  const user = newUser('handoff');
  await portfolio(user.token);
  const [code] = issueVouchers(1);
  const lock = await holdLock(`SELECT id FROM vouchers WHERE code = '${code.replaceAll('-', '')}' FOR UPDATE`);
  let claimed = false;
  const claim = first[0].request({
    headers: { ...TYPENAME.headers, authorization: `Bearer ${user.token}` },
    body: JSON.stringify({ query: CLAIM, variables: { code, wallet: randomWallet() } }),
  }).then((response) => { claimed = true; return response; });
  try {
    await sleep(300);
    // One of second[] is held by the busy worker: without the hand-off it waits for the claim.
    const took = await Promise.all([first[1], second[0], second[1]]
      .map((connection) => within(2000, connection.request(TYPENAME))));
    assert.ok(!claimed, 'the claim still waits on the lock');
    assert.ok(Math.max(...took) < 1000, `answers took ${took.map((ms) => ms.toFixed(0))} ms`);
  } finally {
    await lock.release();
  }
  const response = await claim;
  assert.equal(response.status, 200);
  assert.equal(JSON.parse(response.body).data.claimVoucher.success, true, response.body);
});

test('workers that stop hand their idle kept connections to the others: nginx\'s connections stay open through a worker\'s end and a reload', async (t) => {
  const pool = await startPool(t, 'handoff-stop');
  const connections = [
    ...await keptOnEveryWorker(pool.socket, 2),
    ...await keptOnEveryWorker(pool.socket, 2),
  ];
  t.after(() => { for (const connection of connections) connection.close(); });
  const { workers } = pool;
  const everyConnectionAnswers = async () => {
    for (const connection of connections) assert.equal((await connection.request(TYPENAME)).status, 200);
  };

  // A worker ends (as max requests or the request deadline end one); the master replaces it.
  const [ending, staying] = workers();
  process.kill(ending, 'SIGTERM');
  await waitFor(() => !isAlive(ending) && workers().length === 2 && workers().includes(staying),
    { what: 'a replacement worker' });
  await everyConnectionAnswers();

  // A reload replaces every worker.
  const before = workers();
  process.kill(pool.pid, 'SIGHUP');
  await waitFor(() => workers().length === 2 && workers().every((pid) => !before.includes(pid)),
    { what: 'the reloaded workers' });
  await everyConnectionAnswers();
});

test('a worker whose watcher dies stops and is replaced, its kept connections handed on', async (t) => {
  const pool = await startPool(t, 'handoff-watcher');
  const connections = await keptOnEveryWorker(pool.socket, 2);
  t.after(() => { for (const connection of connections) connection.close(); });
  const [worker] = pool.workers();
  const [watcher] = childrenOf(worker);
  assert.ok(watcher, 'each worker has its watcher');
  process.kill(watcher, 'SIGKILL');
  await waitFor(() => !isAlive(worker) && pool.workers().length === 2, { what: 'a replacement worker' });
  for (const worker of pool.workers()) assert.equal(childrenOf(worker).length, 1, 'with its watcher');
  for (const connection of connections) assert.equal((await connection.request(TYPENAME)).status, 200);
});

// Sends `bytes` on a new connection to the pool; resolves when the pool closes it, to what it sent
// back first.
function sendRaw(bytes) {
  return new Promise((resolve, reject) => {
    const socket = net.createConnection(socketPath, () => socket.write(bytes));
    const received = [];
    socket.on('data', (data) => received.push(data));
    socket.on('error', (error) => (error.code === 'ECONNRESET' || error.code === 'EPIPE'
      ? resolve(Buffer.concat(received)) : reject(error)));
    socket.on('close', () => resolve(Buffer.concat(received)));
    socket.setTimeout(20000, () => reject(new Error('the pool did not close the connection')));
  });
}

function header(type, id, length, { version = 1, padding = 0 } = {}) {
  const bytes = Buffer.alloc(8);
  bytes.writeUInt8(version, 0);
  bytes.writeUInt8(type, 1);
  bytes.writeUInt16BE(id, 2);
  bytes.writeUInt16BE(length, 4);
  bytes.writeUInt8(padding, 6);
  return bytes;
}
const beginRequest = (id) => Buffer.concat([header(1, id, 8), Buffer.from([0, 1, 1, 0, 0, 0, 0, 0])]);

test('a malformed FastCGI stream sent to the pool is closed and harms no other request', async () => {
  const before = poolChildren();
  const malformed = [
    // Not FastCGI at all.
    Buffer.from('GET / HTTP/1.1\r\nHost: x\r\n\r\n'),
    // A name-value pair whose length runs past the end of the parameters.
    Buffer.concat([beginRequest(1), header(4, 1, 2), Buffer.from([0x7f, 0x01]), header(4, 1, 0)]),
    // A body before the parameters ended.
    Buffer.concat([beginRequest(1), header(5, 1, 3), Buffer.from('abc')]),
    // Parameters without end, far beyond any request's (64 KiB records of 0x01 lengths).
    Buffer.concat([beginRequest(1), ...Array.from({ length: 40 }, () => Buffer.concat([
      header(4, 1, 65535, { padding: 1 }), Buffer.alloc(65536, 1)]))]),
    // A record type only a web server receives.
    Buffer.concat([beginRequest(1), header(6, 1, 0)]),
  ];
  // Well-formed requests straight to the pool and through nginx, while the broken streams arrive.
  const good = async () => {
    for (let round = 0; round < 10; round += 1) {
      const direct = await fastcgiGraphql(socketPath, '{ __typename }');
      assert.deepEqual(direct, { status: 200, body: { data: { __typename: 'Query' } } });
      const { status, body } = await graphql('{ __typename }');
      assert.equal(status, 200);
      assert.deepEqual(body, { data: { __typename: 'Query' } });
    }
  };
  const results = await Promise.all([good(), ...malformed.map((bytes) => sendRaw(bytes))]);
  for (const answer of results.slice(1)) {
    // Nothing but what FastCGI allows comes back: at most records, never a response to the garbage.
    assert.ok(!answer.toString('latin1').includes('Status: 200'), 'no answer to a broken stream');
  }
  const after = poolChildren();
  assert.deepEqual(after.sort(), before.sort(), 'no worker crashed or was replaced');
  for (const pid of after) assert.ok(isAlive(pid));
});

test('the pool answers FCGI_GET_VALUES: it does not multiplex connections', async () => {
  const name = Buffer.from('FCGI_MPXS_CONNS');
  const pair = Buffer.concat([Buffer.from([name.length, 0]), name]);
  const answer = await new Promise((resolve, reject) => {
    const socket = net.createConnection(socketPath, () => {
      socket.write(Buffer.concat([header(9, 0, pair.length), pair]));
    });
    let received = Buffer.alloc(0);
    socket.on('data', (data) => {
      received = Buffer.concat([received, data]);
      if (received.length >= 8 && received.length >= 8 + received.readUInt16BE(4)) {
        socket.destroy();
        resolve(received);
      }
    });
    socket.on('error', reject);
    socket.setTimeout(20000, () => reject(new Error('no answer to GET_VALUES')));
  });
  assert.equal(answer.readUInt8(1), 10, 'a GET_VALUES_RESULT record');
  const content = answer.subarray(8, 8 + answer.readUInt16BE(4));
  assert.deepEqual(content, Buffer.concat([Buffer.from([name.length, 1]), name, Buffer.from('0')]));
});
