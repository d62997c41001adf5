#!/usr/bin/env node
// The fault-injection suite: mixed load against a private stack of its own (PostgreSQL with
// fsync=on, Redis, nginx, the pool, netgraph-ws, all on loopback) while faults are injected one at
// a time and then together; afterwards it checks the invariants of docs/reliability.md and prints a
// Jepsen-style table: per operation, how many were attempted, succeeded, refused (a documented
// result-object failure), failed cleanly (a documented error: 502/503/504 with Retry-After,
// `Internal server error`), ended indeterminate (a mutation whose answer was lost), failed
// uncleanly or hung.
//
//   node tests/faults/suite.mjs            the short form scripts/test runs (a few minutes)
//   node tests/faults/suite.mjs --long     longer faults (a partition past the request deadline)
//   --soak S                               then S seconds of load without faults while the private
//                                          RSS and open files of every process are sampled each second
//   --no-faults                            no faults (with --soak: a soak alone)
//   --keep                                 leave the stack up afterwards (to look at its logs)
//
// Ports: NETGRAPH_FAULTS_PORT_BASE (default 18400): HTTP +0, PostgreSQL +1, Redis +2, the
// PostgreSQL relay +5. Exits 1 when an invariant fails, a request fails uncleanly or hangs, or the
// service does not recover within RECOVERY_LIMIT_MS.
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { randomUUID, verify } from 'node:crypto';
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Keypair } from '@solana/web3.js';
import { ElGamalCiphertext, ElGamalKeypair } from '@solana/zk-sdk/node';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { databaseRelay } from '../support/database_relay.mjs';
import { base58Decode, ed25519PublicKey, offchainEnvelope } from '../support/solana.mjs';

const { values: flags } = parseArgs({
  options: {
    long: { type: 'boolean', default: false },
    soak: { type: 'string' },
    'no-faults': { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
  },
});

const repo = path.resolve(import.meta.dirname, '../..');
const portBase = Number(process.env.NETGRAPH_FAULTS_PORT_BASE ?? 18400);
const ports = { http: portBase, pg: portBase + 1, redis: portBase + 2, relay: portBase + 5 };
const runDir = path.join(repo, '.run-faults');
const buildDir = process.env.NETGRAPH_BUILD_DIR ?? path.join(repo, 'build');
const stackEnv = {
  ...process.env,
  NETGRAPH_RUN_DIR: runDir,
  NETGRAPH_HTTP_PORT: String(ports.http),
  NETGRAPH_PG_PORT: String(ports.pg),
  NETGRAPH_REDIS_PORT: String(ports.redis),
  NETGRAPH_PG_SERVICE_PORT: String(ports.relay),
  NETGRAPH_PG_FSYNC: 'on',
  NETGRAPH_SKIP_SETUP: '1',
  NETGRAPH_WORKERS: '3',
  // Losing races for the same voucher is the point here, not a reason to lock users out.
  NETGRAPH_CLAIM_MAX_FAILURES: '1000000',
};

const SCALE = flags.long
  ? { users: 24, vouchers: 1200, subscribers: 400, faultMs: 8000, partitionMs: 40000, loadMs: 4000 }
  : { users: 10, vouchers: 400, subscribers: 100, faultMs: 4000, partitionMs: 5000, loadMs: 2000 };
const REQUEST_DEADLINE_MS = 60000;  // a request still unanswered after this has hung
const RECOVERY_LIMIT_MS = 30000;    // the documented bound (docs/reliability.md)
const INTERNAL = 'Internal server error';
const UNAVAILABLE = 'The service is unavailable; try again shortly';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const pick = (list) => list[Math.floor(Math.random() * list.length)];

// Child processes run asynchronously: the PostgreSQL relay lives in this process's event loop.
const run = promisify(execFile);
async function stack(...args) {
  try {
    await run(path.join(repo, 'scripts', 'stack'), args, { env: stackEnv, maxBuffer: 1 << 24 });
  } catch (error) {
    throw new Error(`scripts/stack ${args.join(' ')} failed: ${error.stderr || error.message}`);
  }
}
function envOfStack() {
  const env = {};
  for (const line of readFileSync(path.join(runDir, 'stack.env'), 'utf8').split('\n')) {
    const match = /^([A-Z_]+)=(.*)$/.exec(line);
    if (match) env[match[1]] = match[2];
  }
  return env;
}
let serviceEnv;
async function netgraphctl(...args) {
  const { stdout } = await run(path.join(buildDir, 'bin', 'netgraphctl'), args, {
    encoding: 'utf8', env: { ...process.env, ...serviceEnv }, maxBuffer: 1 << 24,
  });
  return stdout;
}
// Reads PostgreSQL directly (not through the relay), so the checks see through a partition.
function sql(query) {
  const out = execFileSync('psql', [`postgresql://netgraph@127.0.0.1:${ports.pg}/netgraph`, '-tAF', '\t', '-c', query],
    { encoding: 'utf8' });
  return out.split('\n').filter(Boolean).map((line) => line.split('\t'));
}

// ---------------------------------------------------------------------------------------------
// ---------------------------------------------------------------------------------------------
// The ledger of operations, Jepsen-style.
const OUTCOMES = ['ok', 'refused', 'failed clean', 'indeterminate', 'failed unclean', 'hung'];
const history = new Map();  // operation -> {outcome -> count}
const unclean = [];         // the first few unclean answers, to show
let failures = 0;           // operations that neither succeeded nor were refused, so far
function record(operation, outcome, detail) {
  if (!history.has(operation)) history.set(operation, Object.fromEntries(OUTCOMES.map((o) => [o, 0])));
  history.get(operation)[outcome] += 1;
  if (outcome !== 'ok' && outcome !== 'refused') failures += 1;
  if ((outcome === 'failed unclean' || outcome === 'hung') && unclean.length < 10) {
    unclean.push(`${operation}: ${outcome}: ${detail}`);
  }
}

// nginx closes idle keep-alive connections when it reloads; a request sent on one at that moment
// fails in transport, as HTTP/1.1 allows (RFC 9112, section 9.3.1: clients retry). Such a failure
// while a reload is under way counts as a clean one.
let reloadingUntil = 0;

// One GraphQL request through nginx, classified. Resolves to {outcome, data, detail}.
async function request(query, { variables, token, mutation = false } = {}) {
  let response;
  let text;
  try {
    response = await fetch(`http://127.0.0.1:${ports.http}/graphql`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/graphql-response+json',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify({ query, variables }),
      signal: AbortSignal.timeout(REQUEST_DEADLINE_MS),
    });
    text = await response.text();
  } catch (error) {
    if (error.name === 'TimeoutError') return { outcome: 'hung', detail: `no answer in ${REQUEST_DEADLINE_MS} ms` };
    const detail = `transport: ${error.cause?.code ?? error.message}`;
    if (Date.now() < reloadingUntil) return { outcome: mutation ? 'indeterminate' : 'failed clean', detail };
    return { outcome: 'failed unclean', detail };
  }
  let body = null;
  try { body = JSON.parse(text); } catch { /* classified below */ }
  const lost = mutation ? 'indeterminate' : 'failed clean';
  const messages = (body?.errors ?? []).map((e) => e.message);
  if ([502, 503, 504].includes(response.status)) {
    const documented = response.headers.get('retry-after') !== null && messages[0] === UNAVAILABLE;
    return documented ? { outcome: lost, detail: `${response.status}` }
      : { outcome: 'failed unclean', detail: `${response.status} ${text.slice(0, 200)}` };
  }
  if (body === null) return { outcome: 'failed unclean', detail: `${response.status} not JSON: ${text.slice(0, 200)}` };
  if (messages.length > 0) {
    if (messages.every((m) => m === INTERNAL)) return { outcome: lost, detail: INTERNAL };
    return { outcome: 'failed unclean', detail: `${response.status} ${text.slice(0, 200)}` };
  }
  if (response.status !== 200) return { outcome: 'failed unclean', detail: `${response.status} ${text.slice(0, 200)}` };
  return { outcome: 'ok', data: body.data };
}

// ---------------------------------------------------------------------------------------------
// The actors.
const CLAIM = `mutation($code: String!, $wallet: String!) {
  claimVoucher(voucherCode: $code, walletAddress: $wallet) { success error voucher { code amount } } }`;
const REDEEM = `mutation($wallet: String!, $key: String!) {
  redeemVoucher(walletAddress: $wallet, confidentialPublicKey: $key) {
    success error redemption { amount txSignature encryptedAmount } } }`;
const PORTFOLIO = '{ getUserPortfolio { success data { balances { encryptedBalance } } } }';
const PUBLIC = ['{ networkGraph(limit: 20) { nodes { id } metadata { nodeCount } } }',
  '{ investmentData { tokenSymbol roundRaised investorCount } }'];

async function newInvestor(index) {
  const did = `did:netgraph:fault-${index}-${randomUUID()}`;
  const token = (await netgraphctl('token', 'mint', '--sub', did, '--ttl', '86400')).trim();
  const elgamal = new ElGamalKeypair();
  return {
    did,
    token,
    wallet: Keypair.generate().publicKey.toBase58(),
    key: Buffer.from(elgamal.pubkey().toBytes()).toString('base64'),
    decrypt: (base64) => elgamal.secret().decrypt(ElGamalCiphertext.fromBytes(Buffer.from(base64, 'base64'))),
    claimed: [],      // codes acknowledged as claimed by this investor
    refused: [],      // codes whose claim this investor was refused
    redemptions: [],  // acknowledged redemptions {txSignature, amount}
  };
}

// Claims vouchers from the shared pool (several investors go for the same code now and then) and
// redeems what it holds every few claims.
async function investorLoop(investor, pool, stop) {
  let sinceRedeem = 0;
  while (!stop.stopped) {
    if (sinceRedeem >= 3) {
      sinceRedeem = 0;
      const r = await request(REDEEM, { token: investor.token, mutation: true, variables: { wallet: investor.wallet, key: investor.key } });
      if (r.outcome === 'ok') {
        const result = r.data.redeemVoucher;
        if (result.success) {
          investor.redemptions.push(result.redemption);
          record('redeemVoucher', 'ok');
        } else {
          record('redeemVoucher', 'refused');
        }
      } else {
        record('redeemVoucher', r.outcome, r.detail);
        await sleep(100);  // as a client would, rather than hammering a service that is down
      }
      continue;
    }
    const code = pool.length > 0 ? pick(pool) : null;
    if (code === null) { await sleep(100); continue; }
    const r = await request(CLAIM, { token: investor.token, mutation: true, variables: { code, wallet: investor.wallet } });
    if (r.outcome === 'ok') {
      const result = r.data.claimVoucher;
      if (result.success) {
        investor.claimed.push(code);
        pool.splice(pool.indexOf(code), 1);
        record('claimVoucher', 'ok');
        sinceRedeem += 1;
      } else {
        investor.refused.push(code);
        if (result.error === 'Voucher already claimed' && pool.includes(code)) pool.splice(pool.indexOf(code), 1);
        record('claimVoucher', 'refused');
      }
    } else {
      record('claimVoucher', r.outcome, r.detail);
      await sleep(100);
    }
  }
}

async function readerLoop(investors, stop) {
  while (!stop.stopped) {
    let r;
    if (Math.random() < 0.5) {
      r = await request(pick(PUBLIC));
      record('public query', r.outcome, r.detail);
    } else {
      r = await request(PORTFOLIO, { token: pick(investors).token });
      record('getUserPortfolio', r.outcome === 'ok' && !r.data.getUserPortfolio.success ? 'failed unclean' : r.outcome, r.detail);
    }
    if (r.outcome !== 'ok') await sleep(100);
  }
}

// A subscriber records, per connection ("session"), the publisher sequence of every update it
// receives; the invariant is that a session's sequences are consecutive and reach the last
// committed one.
const SUBSCRIPTION = 'subscription { networkUpdated { metadata { nodeCount } } }';

function transportSubscriber(id) {
  const subscriber = { id, protocol: 'graphql-transport-ws', sessions: [], connected: false };
  const client = createClient({
    url: `ws://127.0.0.1:${ports.http}/graphql`,
    webSocketImpl: WebSocket,
    retryAttempts: Infinity,
    shouldRetry: () => true,
    retryWait: () => sleep(200 + Math.random() * 800),
    on: {
      connected: () => { subscriber.connected = true; subscriber.sessions.push([]); },
      closed: () => { subscriber.connected = false; },
    },
  });
  const unsubscribe = client.subscribe({ query: SUBSCRIPTION }, {
    next: (result) => subscriber.sessions.at(-1)?.push(result.extensions?.publisherSequence),
    error: () => {},
    complete: () => {},
  });
  subscriber.close = () => { unsubscribe(); return client.dispose(); };
  return subscriber;
}

// The legacy protocol (subscriptions-transport-ws), spoken by hand: clients of it reconnect on
// their own.
function legacySubscriber(id) {
  const subscriber = { id, protocol: 'graphql-ws (legacy)', sessions: [], connected: false, closing: false };
  const connect = () => {
    const socket = new WebSocket(`ws://127.0.0.1:${ports.http}/graphql`, 'graphql-ws');
    subscriber.socket = socket;
    socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload: {} })));
    socket.on('message', (raw) => {
      const message = JSON.parse(raw.toString());
      if (message.type === 'connection_ack') {
        subscriber.connected = true;
        subscriber.sessions.push([]);
        socket.send(JSON.stringify({ id: '1', type: 'start', payload: { query: SUBSCRIPTION } }));
      } else if (message.type === 'data') {
        subscriber.sessions.at(-1)?.push(message.payload?.extensions?.publisherSequence);
      }
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      subscriber.connected = false;
      if (!subscriber.closing) setTimeout(connect, 200 + Math.random() * 800);
    });
  };
  connect();
  subscriber.close = () => { subscriber.closing = true; subscriber.socket.close(); };
  return subscriber;
}

// ---------------------------------------------------------------------------------------------
// The faults. Each returns once it is healed; recovery is measured from then.
function kill(pid, signal = 'SIGKILL') {
  try { process.kill(pid, signal); } catch { /* already gone */ }
}
// The pool's workers (not its relay), as its status page lists them.
async function poolWorkers() {
  const response = await fetch(`http://127.0.0.1:${ports.http}/status`, { signal: AbortSignal.timeout(10000) });
  return (await response.json()).workers.map((worker) => worker.pid);
}
// Workers killed by 'SIGKILL pool workers', and the operations that failed meanwhile: a killed
// worker may cost the request it was serving, and nothing else (its watcher hands its idle
// connections on: fcgi/pool/hand_off_watcher.h), so no more operations fail than workers die.
const workerKills = { killed: 0, failed: null, alone: 0 };  // alone: killed by that fault alone
function makeFaults(relay) {
  return {
    'SIGKILL pool workers': async () => {
      // One at a time, busy or idle, every half second.
      for (const until = Date.now() + SCALE.faultMs; Date.now() < until;) {
        kill(pick(await poolWorkers()));
        workerKills.killed += 1;
        await sleep(500);
      }
    },
    'SIGKILL netgraph-ws, restart it': async () => {
      kill(Number(readFileSync(path.join(runDir, 'ws.pid'), 'utf8')));
      await sleep(SCALE.faultMs);
      await stack('start', 'ws');
    },
    'PostgreSQL stopped, restarted': async () => {
      await stack('stop', 'postgres');
      await sleep(SCALE.faultMs);
      await stack('start', 'postgres');
    },
    'Redis stopped, restarted': async () => {
      await stack('stop', 'redis');
      await sleep(SCALE.faultMs);
      await stack('start', 'redis');
    },
    'nginx reloaded': async () => {
      reloadingUntil = Date.now() + 3000;
      await stack('reload', 'nginx');
      await sleep(SCALE.faultMs);
    },
    'PostgreSQL partitioned (relay silent)': async () => {
      relay.partition();
      await sleep(SCALE.partitionMs);
      relay.heal();
    },
  };
}

// How long until a public query, a portfolio read and a subscription all work again.
async function measureRecovery(investor, subscribers) {
  const started = Date.now();
  while (Date.now() - started < RECOVERY_LIMIT_MS) {
    const [pub, own] = await Promise.all([request(PUBLIC[0]), request(PORTFOLIO, { token: investor.token })]);
    const connected = subscribers.filter((s) => s.connected).length;
    if (pub.outcome === 'ok' && own.outcome === 'ok' && own.data.getUserPortfolio.success &&
        connected >= subscribers.length * 0.95) {
      return Date.now() - started;
    }
    await sleep(100);
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Resources of every process of the stack, for the soak mode.
function stackProcesses() {
  const pids = [];
  const read = (file) => {
    try { return Number(readFileSync(path.join(runDir, file), 'utf8').split('\n')[0]); } catch { return null; }
  };
  for (const [name, file] of [['fcgi', 'fcgi.pid'], ['ws', 'ws.pid'], ['redis', 'redis.pid'],
    ['nginx', 'nginx/nginx.pid'], ['postgres', 'pg/postmaster.pid']]) {
    const pid = read(file);
    if (pid === null) continue;
    pids.push({ name, pid });
    const children = spawnSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' }).stdout.trim();
    for (const child of children ? children.split('\n').map(Number) : []) pids.push({ name: `${name} child`, pid: child });
  }
  return pids;
}
function sample(pid) {
  try {
    // Private memory only (RssAnon): shared pages a process touches over time (PostgreSQL's shared
    // buffers, the pool's scoreboard) are not its growth.
    const rss = Number(/RssAnon:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]);
    const fds = readdirSync(`/proc/${pid}/fd`).filter((fd) => { try { readlinkSync(`/proc/${pid}/fd/${fd}`); return true; } catch { return false; } }).length;
    return { rss, fds };
  } catch { return null; }
}

async function soak(seconds, investors, pool, subscribers) {
  const stop = { stopped: false };
  const actors = [...investors.map((i) => investorLoop(i, pool, stop)), readerLoop(investors, stop), readerLoop(investors, stop)];
  const series = new Map();  // "name pid" -> [{rss, fds}]
  for (let t = 0; t < seconds; t += 1) {
    for (const { name, pid } of stackProcesses()) {
      const s = sample(pid);
      if (s === null) continue;
      const key = `${name} ${pid}`;
      if (!series.has(key)) series.set(key, []);
      series.get(key).push(s);
    }
    await sleep(1000);
  }
  stop.stopped = true;
  await Promise.all(actors);
  const rows = [];
  let failed = false;
  for (const [key, points] of series) {
    if (points.length < seconds / 2) continue;  // a process that came and went
    const warm = Math.floor(points.length / 4);
    const after = points.slice(warm);
    // The first and the last tenth, averaged: one sample taken while a request holds a connection
    // is one file more, which is not growth.
    const window = Math.max(3, Math.floor(after.length / 10));
    const head = after.slice(0, window);
    const tail = after.slice(-window);
    const mean = (list, field) => list.reduce((sum, p) => sum + p[field], 0) / list.length;
    const rssGrowth = mean(tail, 'rss') / mean(head, 'rss') - 1;
    const fdGrowth = mean(tail, 'fds') - mean(head, 'fds');
    const bad = rssGrowth > 0.10 || fdGrowth > Math.max(2, 0.10 * mean(head, 'fds'));
    failed ||= bad;
    rows.push([key, `${Math.round(mean(head, 'rss'))} → ${Math.round(mean(tail, 'rss'))} KiB (${(rssGrowth * 100).toFixed(1)}%)`,
      `${mean(head, 'fds').toFixed(1)} → ${mean(tail, 'fds').toFixed(1)}`, bad ? 'GROWS' : 'ok']);
  }
  console.log(`\nsoak: ${seconds} s of load; growth after warm-up (the first quarter), the last tenth against the first`);
  printTable(['process', 'private RSS', 'open files', 'verdict'], rows);
  console.log(`subscribers connected at the end: ${subscribers.filter((s) => s.connected).length}/${subscribers.length}`);
  return !failed;
}

// ---------------------------------------------------------------------------------------------
function printTable(head, rows) {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells) => `| ${cells.map((c, i) => String(c).padEnd(widths[i])).join(' | ')} |`;
  console.log(line(head));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const row of rows) console.log(line(row));
}

// The invariants, checked against PostgreSQL itself after the run.
async function checkInvariants(investors, subscribers) {
  const results = [];
  const check = (name, ok, detail = '') => results.push([name, ok ? 'holds' : 'VIOLATED', detail]);

  const vouchers = new Map(sql(`SELECT v.code, v.status, u.idp_did, v.wallet_address, v.amount
    FROM vouchers v LEFT JOIN users u ON u.id = v.user_id WHERE v.batch = 'faults'`)
    .map(([code, status, did, wallet, amount]) => [code, { status, did, wallet, amount: BigInt(amount) }]));
  // Codes are shown in groups ("ABCD-EFGH-..."); the database keeps them without the dashes.
  const stored = (code) => vouchers.get(code.replaceAll('-', ''));
  const owners = new Map();
  let twice = 0;
  let lost = 0;
  let refusedChanged = 0;
  for (const investor of investors) {
    for (const code of investor.claimed) {
      if (owners.has(code)) twice += 1;
      owners.set(code, investor.did);
      const row = stored(code);
      if (!row || row.did !== investor.did || row.wallet !== investor.wallet || row.status === 'AVAILABLE') lost += 1;
    }
    for (const code of investor.refused) {
      if (stored(code)?.did === investor.did && !investor.claimed.includes(code)) refusedChanged += 1;
    }
  }
  check('every voucher claimed at most once (acknowledged claims)', twice === 0, `${owners.size} acknowledged claims`);
  check('every acknowledged claim is durable', lost === 0, lost ? `${lost} missing` : '');
  check('a refused claim changed nothing', refusedChanged === 0, refusedChanged ? `${refusedChanged} vouchers` : '');

  const redemptions = sql('SELECT signature, wallet_address, amount FROM redemptions');
  const bySignature = new Map(redemptions.map(([signature, wallet, amount]) => [signature, { wallet, amount: BigInt(amount) }]));
  let missing = 0;
  let acknowledged = 0;
  for (const investor of investors) {
    for (const r of investor.redemptions) {
      acknowledged += 1;
      if (bySignature.get(r.txSignature)?.wallet !== investor.wallet) missing += 1;
    }
  }
  check('every acknowledged redemption is durable', missing === 0, `${acknowledged} acknowledged`);
  // A voucher names the one redemption that took it; each redemption credits exactly its vouchers.
  const overCredited = sql(`SELECT count(*) FROM redemptions r
    WHERE r.amount <> (SELECT coalesce(sum(v.amount), 0) FROM vouchers v WHERE v.redemption_id = r.id)`)[0][0];
  check('every claimed voucher redeemed at most once', overCredited === '0',
    overCredited === '0' ? '' : `${overCredited} redemptions credit other than their vouchers`);

  // The confidential balance, decrypted with the investor's own key, is the sum of what was redeemed.
  let wrong = 0;
  for (const investor of investors) {
    const redeemed = [...vouchers.values()].filter((v) => v.wallet === investor.wallet && v.status === 'REDEEMED')
      .reduce((sum, v) => sum + v.amount, 0n);
    const r = await request(PORTFOLIO, { token: investor.token });
    const encrypted = r.data?.getUserPortfolio?.data?.balances?.encryptedBalance;
    const balance = encrypted ? investor.decrypt(encrypted) : 0n;
    if (balance !== redeemed) wrong += 1;
  }
  check('each confidential balance decrypts to the sum of its redeemed vouchers', wrong === 0, wrong ? `${wrong} accounts differ` : `${investors.length} accounts`);

  // Every txSignature is the treasury's Ed25519 signature of its stored receipt.
  const treasuryKey = ed25519PublicKey(base58Decode((await netgraphctl('treasury', 'pubkey')).trim()));
  let unverified = 0;
  for (const [signature, receipt] of sql('SELECT signature, receipt FROM redemptions')) {
    if (!verify(null, offchainEnvelope(receipt), treasuryKey, base58Decode(signature))) unverified += 1;
  }
  check('every txSignature verifies', unverified === 0, `${redemptions.length} receipts`);

  // Updates: within a session, consecutive publisher sequences; open sessions reach the last one.
  const last = Number(sql('SELECT coalesce(max(id), 0) FROM outbox')[0][0]);
  const deadline = Date.now() + 30000;
  const caughtUp = () => subscribers.every((s) => !s.connected || s.sessions.at(-1)?.at(-1) === last);
  while (!caughtUp() && Date.now() < deadline) await sleep(200);
  let gaps = 0;
  let duplicates = 0;
  let behind = 0;
  let sessions = 0;
  let delivered = 0;
  for (const subscriber of subscribers) {
    subscriber.sessions.forEach((session, index) => {
      sessions += 1;
      delivered += session.length;
      for (let i = 1; i < session.length; i += 1) {
        if (session[i] <= session[i - 1]) duplicates += 1;
        else if (session[i] !== session[i - 1] + 1) gaps += 1;
      }
      const open = index === subscriber.sessions.length - 1 && subscriber.connected;
      if (open && session.length > 0 && session.at(-1) !== last) behind += 1;
    });
  }
  check('updates reach every subscriber in order, without gaps', gaps === 0, `${gaps} gaps in ${sessions} sessions, ${delivered} deliveries`);
  check('no update delivered twice or out of order', duplicates === 0, duplicates ? `${duplicates}` : '');
  check('every connected subscriber has the last update', behind === 0, behind ? `${behind} behind ${last}` : `last sequence ${last}`);
  return results;
}

// ---------------------------------------------------------------------------------------------
async function main() {
  const relay = await databaseRelay({ target: `postgresql://127.0.0.1:${ports.pg}/`, port: ports.relay });
  await stack('down');
  await stack('up');
  serviceEnv = envOfStack();
  const investors = await Promise.all(Array.from({ length: SCALE.users }, (_, i) => newInvestor(i)));
  const pool = (await netgraphctl('vouchers', 'issue', '--amount', '1', '--count', String(SCALE.vouchers), '--batch', 'faults'))
    .trim().split('\n');
  const subscribers = Array.from({ length: SCALE.subscribers },
    (_, i) => (i % 2 === 0 ? transportSubscriber(i) : legacySubscriber(i)));
  const waitConnected = async () => {
    const until = Date.now() + 30000;
    while (subscribers.some((s) => !s.connected) && Date.now() < until) await sleep(100);
  };
  await waitConnected();

  let passed = true;
  try {
    const recoveries = [];
    if (!flags['no-faults']) {
      const stop = { stopped: false };
      const actors = [...investors.map((i) => investorLoop(i, pool, stop)),
        readerLoop(investors, stop), readerLoop(investors, stop), readerLoop(investors, stop)];
      const faults = makeFaults(relay);
      const inject = async (name, run) => {
        await sleep(SCALE.loadMs);
        const started = Date.now();
        const failedBefore = failures;
        await run();
        const recovery = await measureRecovery(investors[0], subscribers);
        // What was in flight when the fault healed has had its answer too.
        await sleep(1000);
        recoveries.push([name, `${((Date.now() - started) / 1000).toFixed(1)} s`,
          recovery === null ? `not within ${RECOVERY_LIMIT_MS / 1000} s` : `${recovery} ms`, failures - failedBefore]);
        if (recovery === null) passed = false;
        return failures - failedBefore;
      };
      for (const [name, run] of Object.entries(faults)) {
        const failed = await inject(name, run);
        if (name === 'SIGKILL pool workers') Object.assign(workerKills, { failed, alone: workerKills.killed });
      }
      await inject('combined: workers and netgraph-ws killed, Redis down, nginx reloaded', () => Promise.all([
        faults['SIGKILL pool workers'](), faults['SIGKILL netgraph-ws, restart it'](),
        faults['Redis stopped, restarted'](), faults['nginx reloaded'](),
      ]));
      await sleep(SCALE.loadMs);
      stop.stopped = true;
      await Promise.all(actors);
    }
    // After the faults, on the processes that recovered from them: what they hold must not grow.
    if (flags.soak) passed = (await soak(Number(flags.soak), investors, pool, subscribers)) && passed;

    console.log(`\nfault-injection suite (${flags['no-faults'] ? 'no faults' : flags.long ? 'long form' : 'short form'}): ${SCALE.users} investors, ` +
      `${SCALE.vouchers} vouchers, ${SCALE.subscribers} subscribers (half on each WebSocket protocol)\n`);
    printTable(['operation', ...OUTCOMES], [...history].map(([op, counts]) => [op, ...OUTCOMES.map((o) => counts[o])]));
    console.log('');
    if (recoveries.length > 0) {
      printTable(['fault', 'lasted', 'recovered in', 'operations failed'], recoveries);
      console.log('');
    }
    const invariants = await checkInvariants(investors, subscribers);
    if (workerKills.failed !== null) {
      invariants.push(['a killed pool worker costs at most the request it serves',
        workerKills.failed <= workerKills.alone ? 'holds' : 'VIOLATED',
        `${workerKills.failed} operations failed while ${workerKills.alone} workers were killed one by one`]);
    }
    printTable(['invariant', 'verdict', 'detail'], invariants);
    if (unclean.length > 0) console.log(`\nunclean failures (first ${unclean.length}):\n  ${unclean.join('\n  ')}`);
    const badOutcomes = [...history.values()].some((c) => c['failed unclean'] > 0 || c.hung > 0);
    passed = passed && !badOutcomes && invariants.every(([, verdict]) => verdict === 'holds');
  } finally {
    await Promise.all(subscribers.map((s) => s.close()));
    await relay.close();
    if (!flags.keep) await stack('down');
  }
  console.log(passed ? '\nfaults: every invariant holds' : '\nfaults: FAILED');
  process.exitCode = passed ? 0 : 1;
}

await main();
