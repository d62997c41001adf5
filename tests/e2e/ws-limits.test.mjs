// What one client may take of netgraph-ws (issue 9, defects 2 and 7): the memory its subscriptions'
// parsed documents hold, its connections (netgraph-ws and nginx's limit_conn), and how long an
// anonymous connection may sit idle; and that the client's address behind nginx is the one nginx saw.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { claim, issueVouchers, newUser, randomWallet } from '../support/api.mjs';
import { isAlive, readPid, waitFor } from '../support/stack.mjs';
import {
  graphqlWsClient, networkUpdatedQuery, RawSocket, replaceStackWs, subscribe,
} from '../support/websocket.mjs';

const MiB = 1024 * 1024;
// docs/operations.md: the subscriptions' documents keep netgraph-ws within 64 MiB of its idle size.
const documentedCeiling = 64 * MiB;

function residentBytes(pid) {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(match[1]) * 1024;
}

// A valid subscription an attacker makes large and distinct: thousands of selections (each a node
// of the parsed tree, many times its text) under an operation name of its own.
function floodDocument(connection, index) {
  const selections = Array(6000).fill('id').join(' ');
  return `subscription Flood_${connection}_${index} { networkUpdated { nodes { ${selections} } } }`;
}

// The first result after the first `after` that lists an Investor node: a claim's update.
function claimUpdate(state, after) {
  return state.until((s) => s.results.slice(after).find(
    (r) => r.data?.networkUpdated?.nodes?.some((n) => n.type === 'Investor')), 'the claim\'s update', 30000);
}

async function claimAndExpect(victim) {
  const seen = victim.results.length;
  const [code] = issueVouchers(5);
  assert.equal((await claim(newUser('ws-limits').token, code, randomWallet())).success, true);
  await claimUpdate(victim, seen);
}

test('distinct large subscriptions are refused within the memory bounds, and the memory comes back', { timeout: 240000 }, async (t) => {
  const pid = readPid('ws.pid');
  assert.ok(pid && isAlive(pid), 'the stack runs netgraph-ws');
  const victimClient = graphqlWsClient();
  const attackers = [];
  try {
    const victim = subscribe(victimClient, { query: networkUpdatedQuery });
    await victim.warmUp();
    const idle = residentBytes(pid);
    let peak = idle;
    const sampler = setInterval(() => { peak = Math.max(peak, residentBytes(pid)); }, 50);

    const refusals = [];
    let subscribed = 0;
    try {
      for (let c = 0; c < 10; c++) {
        const socket = new RawSocket();
        attackers.push(socket);
        await socket.init();
        for (let i = 0; i < 100; i++) {
          socket.send({ id: `f${i}`, type: 'subscribe', payload: { query: floodDocument(c, i) } });
        }
        // Messages are handled in order: the pong comes after every subscribe was answered or not.
        socket.send({ type: 'ping' });
        await socket.next((m) => m.type === 'pong', 120000);
        const errors = [];
        for (let m; (m = socket.take((x) => x.type === 'error'));) errors.push(m);
        refusals.push(...errors);
        subscribed += 100 - errors.length;
      }
      peak = Math.max(peak, residentBytes(pid));
    } finally {
      clearInterval(sampler);
    }
    t.diagnostic(`idle ${(idle / MiB).toFixed(1)} MiB, peak ${(peak / MiB).toFixed(1)} MiB, ` +
      `${subscribed} subscribed, ${refusals.length} refused`);

    assert.ok(refusals.length > 0, 'the flood was refused at some point');
    for (const refusal of refusals) {
      assert.match(refusal.payload[0].message, /^Subscription refused: .*NETGRAPH_WS_MAX_DOCUMENT/);
    }
    assert.ok(peak - idle < documentedCeiling,
      `netgraph-ws grew by ${((peak - idle) / MiB).toFixed(1)} MiB, over the documented 64 MiB`);
    assert.ok(attackers.every((s) => s.socket.readyState === s.socket.OPEN),
      'a refused subscription does not close the connection');

    // Another client's subscription still gets updates.
    await claimAndExpect(victim);

    await Promise.all(attackers.splice(0).map((s) => s.close()));
    await waitFor(() => residentBytes(pid) - idle < 16 * MiB,
      { timeoutMs: 30000, intervalMs: 200, what: 'netgraph-ws to give the flood\'s memory back' });
    await claimAndExpect(victim);
  } finally {
    for (const socket of attackers) socket.socket.terminate();
    await victimClient.dispose();
  }
});

test('nginx refuses WebSocket upgrades past its per-address limit with 429', { timeout: 240000 }, async () => {
  const limit = 2500;  // limit_conn netgraph_ws in nginx/stack.conf.template
  const sockets = [];
  try {
    for (let opened = 0; opened < limit;) {
      const batch = [];
      for (; batch.length < 100 && opened < limit; opened++) {
        const socket = new RawSocket();
        sockets.push(socket);
        batch.push(socket.init());
      }
      await Promise.all(batch);
    }
    const refused = new RawSocket();
    await assert.rejects(refused.opened, (error) => error.statusCode === 429);
    await sockets.pop().close();
    const again = new RawSocket();
    sockets.push(again);
    await waitFor(async () => {
      try { await again.init(); return true; } catch { return false; }
    }, { timeoutMs: 10000, what: 'a connection once one closed' });
  } finally {
    for (const socket of sockets) socket.socket.terminate();
  }
});

test('netgraph-ws limits connections per client address and closes idle anonymous ones', { timeout: 120000 }, async () => {
  const ws = await replaceStackWs({
    NETGRAPH_WS_MAX_CONNECTIONS_PER_ADDRESS: '3',
    NETGRAPH_WS_IDLE_ANONYMOUS_TIMEOUT_MS: '2000',
    NETGRAPH_LOG_LEVEL: 'debug',
  }, { logName: 'ws-limits.log' });
  const sockets = [];
  try {
    // Per address: the fourth connection from 127.0.0.1 (X-Real-IP from nginx) is closed with 1013.
    const subscriber = new RawSocket();
    const authenticated = new RawSocket();
    const idle = new RawSocket();
    sockets.push(subscriber, authenticated, idle);
    await subscriber.init();
    subscriber.send({ id: 's', type: 'subscribe', payload: { query: networkUpdatedQuery } });
    await authenticated.init({ Authorization: `Bearer ${newUser('ws-idle').token}` });
    await idle.init();
    // A forwarded-for header of the client's own does not make it someone else.
    const fourth = new RawSocket('graphql-transport-ws', { headers: { 'X-Forwarded-For': '10.1.2.3' } });
    sockets.push(fourth);
    assert.deepEqual(await fourth.closedWithin(10000),
      { code: 1013, reason: 'Too many connections from this address' });
    assert.match(readFileSync(ws.log, 'utf8'), /refusing a connection from 127\.0\.0\.1: 1013/);

    // Idle: only the anonymous connection without a subscription is closed, with 4408.
    assert.deepEqual(await idle.closedWithin(15000),
      { code: 4408, reason: 'Idle connection: no token and no subscription' });
    await new Promise((resolve) => setTimeout(resolve, 3000));
    for (const open of [subscriber, authenticated]) {
      assert.equal(open.socket.readyState, open.socket.OPEN);
    }
    // Its slot is free again.
    const replacement = new RawSocket();
    sockets.push(replacement);
    await replacement.init();
  } finally {
    for (const socket of sockets) socket.socket.terminate();
    await ws.stop();
  }
});
