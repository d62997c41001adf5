// Attacks on the pool's FastCGI socket by peers that are not nginx (anything that can open the
// socket: group www-data, so any other web application on the host): connections that never send,
// requests that never end, management records whose answers are never read, answers never read,
// more connections than the workers hold. None may stall a worker or keep nginx's requests
// waiting (fcgi/pool/worker.h; docs/security.md, "The FastCGI socket"). Also: neither daemon listens
// where other hosts reach it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readlinkSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import {
  baseUrl, childrenOf, readPid, repo, runDir, waitFor,
} from '../support/stack.mjs';
import {
  encodeRequest, fastcgiConnection, fastcgiRequest, nameValue, record,
} from '../support/fastcgi.mjs';
import { startPool } from '../support/pool.mjs';
import { holdLock } from '../support/postgres.mjs';
import {
  CLAIM, issueVouchers, newUser, portfolio, randomWallet,
} from '../support/api.mjs';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const binary = (name) => path.join(process.env.NETGRAPH_BUILD_DIR ?? path.join(repo, 'build'), 'bin', name);

const GET_VALUES = 9;
const BEGIN_REQUEST = 1;
const PARAMS = 4;
const TYPENAME = { headers: { 'content-type': 'application/json', accept: 'application/json' },
  body: JSON.stringify({ query: '{ __typename }' }) };

// What each kind of hostile peer does on a connection once it is open. The ones named ...NotRead
// never read what the pool sends (and notice its close when their writes fail); the others read,
// but the pool sends them nothing.
const behaviours = {
  // Opens and never sends.
  silent: () => {},
  // Asks for the pool's values again and again (a megabyte of GET_VALUES): the answers fill the
  // socket the peer does not read.
  managementNotRead: (socket) => {
    const asked = nameValue('FCGI_MAX_CONNS', '');
    const one = record(GET_VALUES, asked, 0);
    socket.write(Buffer.concat(Array.from({ length: Math.ceil((1 << 20) / one.length) }, () => one)));
  },
  // Sends requests back to back on a kept connection (FCGI_KEEP_CONN): their answers fill the
  // socket the peer does not read.
  answersNotRead: (socket) => {
    const { head, stdin } = encodeRequest(TYPENAME, true);
    const one = Buffer.concat([head, stdin]);
    socket.write(Buffer.concat(Array.from({ length: 4000 }, () => one)));
  },
  // Begins a request and sends half of a parameters record: a request that never ends.
  requestNeverEnds: (socket) => {
    const begin = Buffer.from([0, 1, 1, 0, 0, 0, 0, 0]);
    const params = record(PARAMS, Buffer.alloc(1000, 1));
    socket.write(Buffer.concat([record(BEGIN_REQUEST, begin), params.subarray(0, 500)]));
  },
  // Many connections, every other one silent, the others a request that never ends.
  manyConnections: (socket, index) => {
    if (index % 2 === 1) behaviours.requestNeverEnds(socket);
  },
};

// A hostile peer: keeps `count` connections to `socketPath` open, each doing `kind` once open; a
// connection the pool closes is replaced after 50 ms. Counts the connections the pool closed.
function hostilePeer(socketPath, kind, count) {
  const peer = { kind, closedByPool: 0, sockets: new Set(), stopped: false };
  const connect = (index) => {
    if (peer.stopped) return;
    const socket = net.createConnection(socketPath);
    let connected = false;
    peer.sockets.add(socket);
    socket.on('connect', () => {
      connected = true;
      if (kind.endsWith('NotRead')) socket.pause();
      behaviours[kind](socket, index);
    });
    socket.on('error', () => {});  // the pool's close (EPIPE, ECONNRESET), or a full backlog
    socket.on('close', () => {
      peer.sockets.delete(socket);
      if (peer.stopped) return;
      if (connected) peer.closedByPool += 1;
      setTimeout(() => connect(index), 50);
    });
  };
  for (let i = 0; i < count; i += 1) connect(i);
  peer.stop = () => {
    peer.stopped = true;
    for (const socket of peer.sockets) socket.destroy();
  };
  return peer;
}

test('workers + 2 hostile FastCGI peers on the pool\'s socket: /health through nginx keeps answering, no worker is stalled or killed', async () => {
  const master = readPid('fcgi.pid');
  const children = childrenOf(master);
  const workers = children.length - 1;  // and the outbox relay
  assert.ok(workers >= 1, 'the stack runs a pool');
  const socketPath = path.join(runDir, 'fcgi.sock');
  // One peer that opens and never sends, one that opens more connections than all the workers
  // hold, and one per worker of the kinds that once stalled a worker each: management answers or
  // answers not read.
  const stalling = ['managementNotRead', 'answersNotRead'];
  const peers = [
    hostilePeer(socketPath, 'silent', 1),
    hostilePeer(socketPath, 'manyConnections', workers * 256 + 64),
    ...Array.from({ length: workers }, (_, i) => hostilePeer(socketPath, stalling[i % 2], 1)),
  ];
  assert.equal(peers.length, workers + 2);
  const healthChecks = [];
  try {
    // Longer than the I/O timeout (10 s), so that answers not taken are dropped meanwhile.
    const end = Date.now() + 14000;
    while (Date.now() < end) {
      const started = performance.now();
      let status;
      try {
        status = (await fetch(`${baseUrl}/health`, { signal: AbortSignal.timeout(5000) })).status;
      } catch (error) {
        status = error.name;
      }
      healthChecks.push({ status, ms: Math.round(performance.now() - started) });
      await sleep(200);
    }
  } finally {
    for (const peer of peers) peer.stop();
  }
  const failed = healthChecks.filter(({ status, ms }) => status !== 200 || ms > 3000);
  assert.deepEqual(failed, [], `of ${healthChecks.length} health checks through nginx`);
  for (const peer of peers.filter(({ kind }) => stalling.includes(kind))) {
    assert.ok(peer.closedByPool >= 1, `the pool closed the connection of the peer of kind ${peer.kind}`);
  }
  assert.deepEqual(childrenOf(master).sort(), children.sort(), 'no worker was killed or replaced');
  assert.equal((await fetch(`${baseUrl}/health`)).status, 200);
});

// Resolves to how long the pool kept a connection that did what hostile peers of `kind` do, or,
// for a function, that did it: then from the first bytes it received.
function timeUntilClosed(socketPath, kind) {
  return new Promise((resolve, reject) => {
    let started = performance.now();
    const socket = net.createConnection(socketPath, () => {
      if (typeof kind === 'function') {
        kind(socket);
        return;
      }
      if (kind.endsWith('NotRead')) socket.pause();
      behaviours[kind](socket);
    });
    if (typeof kind === 'function') socket.once('data', () => { started = performance.now(); });
    socket.on('error', () => {});
    socket.on('close', () => resolve(performance.now() - started));
    setTimeout(() => {
      socket.destroy();
      reject(new Error('the pool kept the connection for 20 s'));
    }, 20000).unref();
  });
}

test('the pool closes what a peer leaves hanging: no whole request within the I/O timeout, answers not taken, an idle connection after the idle timeout', async (t) => {
  const pool = await startPool(t, 'peer-timeouts', {
    NETGRAPH_FCGI_IO_TIMEOUT_MS: '1000', NETGRAPH_FCGI_IDLE_TIMEOUT_MS: '3000',
  }, { workers: 1 });
  const inUse = await fastcgiConnection(pool.socket);
  t.after(() => inUse.close());
  const hanging = Promise.all([
    ...['silent', 'requestNeverEnds', 'answersNotRead', 'managementNotRead']
      .map((kind) => timeUntilClosed(pool.socket, kind)),
    // One request answered, then nothing more.
    timeUntilClosed(pool.socket, (socket) => {
      const { head, stdin } = encodeRequest(TYPENAME, true);
      socket.write(Buffer.concat([head, stdin]));
    }),
  ]);
  // Meanwhile the only worker answers, and a connection in use every second outlives the idle
  // timeout. (A new connection may wait for the 2 s a worker leaves new connections to others
  // while one of its requests is on its way: fcgi/pool/worker.cc, kArrivalGrace.)
  const waited = [];
  for (let i = 0; i < 5; i += 1) {
    let started = performance.now();
    assert.equal((await inUse.request(TYPENAME)).status, 200, `request ${i} on a connection in use`);
    waited.push(performance.now() - started);
    started = performance.now();
    assert.equal((await fastcgiRequest(pool.socket, TYPENAME)).status, 200);
    waited.push(performance.now() - started);
    await sleep(1000);
  }
  assert.ok(Math.max(...waited) < 3000, `requests waited ${waited.map((ms) => ms.toFixed(0))} ms`);
  const [silent, unfinished, notRead, managementNotRead, idle] = await hanging;
  for (const [what, ms] of [['silent', silent], ['unfinished request', unfinished],
    ['answers not read', notRead]]) {
    assert.ok(ms >= 900 && ms < 5000, `${what}: closed after ${ms.toFixed(0)} ms (I/O timeout 1000 ms)`);
  }
  assert.ok(managementNotRead < 5000, `management answers not read: closed after ${managementNotRead} ms`);
  assert.ok(idle >= 2900 && idle < 8000, `idle: closed ${idle.toFixed(0)} ms after its answer (idle timeout 3000 ms)`);
});

test('a request that never ends holds up no reload: the worker being replaced gives it the I/O timeout', async (t) => {
  const pool = await startPool(t, 'peer-reload', { NETGRAPH_FCGI_IO_TIMEOUT_MS: '1000' }, { workers: 1 });
  const [before] = pool.workers();
  const unfinished = timeUntilClosed(pool.socket, 'requestNeverEnds');
  await sleep(300);
  process.kill(pool.pid, 'SIGHUP');
  await waitFor(() => {
    const now = pool.workers();
    return now.length === 1 && now[0] !== before;
  }, { timeoutMs: 10000, what: 'the reloaded worker, with the old one gone' });
  assert.ok(await unfinished < 5000);
  assert.equal((await fastcgiRequest(pool.socket, TYPENAME)).status, 200);
});

// The sockets a process holds (its descriptor table, which its watcher shares).
function socketsOf(pid) {
  return readdirSync(`/proc/${pid}/fd`).filter((fd) => {
    try { return readlinkSync(`/proc/${pid}/fd/${fd}`).startsWith('socket:'); } catch { return false; }
  }).length;
}

test('a worker holds at most 256 connections, those other workers hand it included', async (t) => {
  const pool = await startPool(t, 'connection-limit', {
    NETGRAPH_DB_LOCK_TIMEOUT_MS: '0', NETGRAPH_DB_STATEMENT_TIMEOUT_MS: '0',
  });
  const opened = [];
  t.after(() => { for (const connection of opened) connection.close(); });
  const openKept = async (count) => {
    const batch = [];
    for (let i = 0; i < count; i += 16) {
      batch.push(...await Promise.all(Array.from({ length: Math.min(16, count - i) }, async () => {
        const connection = await fastcgiConnection(pool.socket);
        opened.push(connection);
        assert.equal((await connection.request(TYPENAME)).status, 200);
        return connection;
      })));
    }
    return batch;
  };
  const user = newUser('limit');
  await portfolio(user.token);
  const [firstCode, secondCode] = issueVouchers(1, { count: 2 });
  const claimOn = (connection, code) => connection.request({
    headers: { ...TYPENAME.headers, authorization: `Bearer ${user.token}` },
    body: JSON.stringify({ query: CLAIM, variables: { code, wallet: randomWallet() } }),
  });
  const lockOn = (code) => holdLock(`SELECT id FROM vouchers WHERE code = '${code.replaceAll('-', '')}' FOR UPDATE`);

  // One worker waits on a row lock in a claim: the other accepts 256 connections.
  let lock = await lockOn(firstCode);
  const firstClaim = claimOn(await fastcgiConnection(pool.socket).then((c) => { opened.push(c); return c; }), firstCode);
  await sleep(300);
  const full = await openKept(256);
  await lock.release();
  assert.equal((await firstClaim).status, 200);
  // The first worker holds a few (the full one accepts no more) ...
  await openKept(20);
  // ... when the full one turns to a claim that waits: it hands its idle connections over.
  lock = await lockOn(secondCode);
  const secondClaim = claimOn(full[0], secondCode);
  try {
    await sleep(500);
    const counts = pool.workers().map((pid) => ({ pid, sockets: socketsOf(pid) }));
    // Besides connections: the listening socket, the hand-off queue's pair, PostgreSQL, Redis.
    for (const { pid, sockets } of counts) {
      assert.ok(sockets <= 256 + 8, `worker ${pid} holds ${sockets} sockets`);
    }
    assert.ok(counts.every(({ sockets }) => sockets > 21 + 8), `the hand-off happened: ${JSON.stringify(counts)}`);
  } finally {
    await lock.release();
  }
  assert.equal((await secondClaim).status, 200);
  // Every connection is still served, by whichever worker holds it now.
  for (const connection of full.slice(1, 40)) assert.equal((await connection.request(TYPENAME)).status, 200);
});

test('neither daemon starts, nor passes --check-config, listening where other hosts reach it (exit 78)', () => {
  const cases = [
    ['netgraph-fcgi', 'NETGRAPH_FCGI_LISTEN', '0.0.0.0:0'],
    ['netgraph-fcgi', 'NETGRAPH_FCGI_LISTEN', '[::]:0'],
    ['netgraph-ws', 'NETGRAPH_WS_LISTEN', '0.0.0.0:0'],
  ];
  for (const [daemon, variable, address] of cases) {
    for (const args of [['--check-config'], []]) {
      const run = spawnSync(binary(daemon), args, {
        env: { ...process.env, [variable]: address, NETGRAPH_WORKERS: '1' },
        encoding: 'utf8', timeout: 20000,
      });
      assert.equal(run.status, 78, `${daemon} ${args.join(' ')} with ${variable}=${address}: ${run.stderr}`);
      assert.ok(run.stderr.includes(`${variable}=${address} is reachable from other hosts`), run.stderr);
    }
  }
  // A loopback address is fine.
  for (const [daemon, variable] of [['netgraph-fcgi', 'NETGRAPH_FCGI_LISTEN'], ['netgraph-ws', 'NETGRAPH_WS_LISTEN']]) {
    const run = spawnSync(binary(daemon), ['--check-config'], {
      env: { ...process.env, [variable]: '127.0.0.1:0' }, encoding: 'utf8', timeout: 20000,
    });
    assert.equal(run.status, 0, `${daemon} --check-config with ${variable}=127.0.0.1:0: ${run.stderr}`);
  }
});
