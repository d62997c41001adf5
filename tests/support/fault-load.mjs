// The mixed load, the Jepsen-style ledger and the invariants shared by the fault-injection suites:
// tests/faults/suite.mjs (one host, faults of its processes) and tests/cluster/cluster.mjs (several
// hosts, failovers). What differs between them is passed in: how a request reaches the service
// (`send`), how tokens are made, where the database is read (`sql`), and whether a connection
// closed in transport is a clean failure (`transportFailureIsClean`: while nginx reloads).
//
// Every request is classified as Jepsen counts operations (docs/reliability.md): ok, refused (a
// documented result-object failure), failed clean (a documented error: 502/503/504 with
// Retry-After and `The service is unavailable; try again shortly`, or `Internal server error`; or
// nginx's 429 `Too many requests`, which never reaches the pool),
// indeterminate (the same for a mutation: it may or may not have happened), failed unclean, hung.
import { randomUUID, verify } from 'node:crypto';
import http from 'node:http';
import { Keypair } from '@solana/web3.js';
import { ElGamalCiphertext, ElGamalKeypair } from '@solana/zk-sdk/node';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { base58Decode, ed25519PublicKey, offchainEnvelope } from './solana.mjs';

export const OUTCOMES = ['ok', 'refused', 'failed clean', 'indeterminate', 'failed unclean', 'hung'];
export const REQUEST_DEADLINE_MS = 60000;  // a request still unanswered after this has hung
const INTERNAL = 'Internal server error';
const UNAVAILABLE = 'The service is unavailable; try again shortly';
const TOO_MANY = 'Too many requests';

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
export const pick = (list) => list[Math.floor(Math.random() * list.length)];

export const CLAIM = `mutation($code: String!, $wallet: String!) {
  claimVoucher(voucherCode: $code, walletAddress: $wallet) { success error voucher { code amount } } }`;
export const REDEEM = `mutation($wallet: String!, $key: String!) {
  redeemVoucher(walletAddress: $wallet, confidentialPublicKey: $key) {
    success error redemption { amount txSignature encryptedAmount } } }`;
export const PORTFOLIO = '{ getUserPortfolio { success data { balances { encryptedBalance } } } }';
export const PUBLIC = ['{ networkGraph(limit: 20) { nodes { id } metadata { nodeCount } } }',
  '{ investmentData { tokenSymbol roundRaised investorCount } }'];
export const SUBSCRIPTION = 'subscription { networkUpdated { metadata { nodeCount } } }';

// Sends with node:http through `agent` (to choose the local address, or how long idle kept
// connections live): resolves as fetchSend does; an abort rejects with the signal's reason (a
// TimeoutError for a request past its deadline).
export function agentSend(agent) {
  return (url, init) => new Promise((resolve, reject) => {
    const req = http.request(url, { method: init.method, headers: init.headers, agent, signal: init.signal }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => { text += chunk; });
      res.on('end', () => resolve({ status: res.statusCode, headers: { get: (n) => res.headers[n.toLowerCase()] ?? null }, text }));
      res.on('error', reject);
    });
    req.on('error', (error) => reject(init.signal?.aborted ? init.signal.reason : error));
    req.end(init.body);
  });
}

// Sends with fetch: resolves to {status, headers (a Headers), text}.
export async function fetchSend(url, init) {
  const response = await fetch(url, init);
  return { status: response.status, headers: response.headers, text: await response.text() };
}

// A classifying GraphQL client of `url`. `send(url, init)` does the HTTP (fetchSend by default);
// `transportFailureIsClean()` says whether a connection lost before any answer is, right now, a
// documented event rather than a fault of the service. The answer carries `host`, the
// X-Netgraph-Host header when there is one (the app host a load balancer chose).
export function requester(url, { send = fetchSend, transportFailureIsClean = () => false } = {}) {
  return async function request(query, { variables, token, mutation = false, sendOptions } = {}) {
    let response;
    try {
      response = await send(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/graphql-response+json',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: JSON.stringify({ query, variables }),
        signal: AbortSignal.timeout(REQUEST_DEADLINE_MS),
        ...sendOptions,
      });
    } catch (error) {
      if (error.name === 'TimeoutError') return { outcome: 'hung', detail: `no answer in ${REQUEST_DEADLINE_MS} ms` };
      const detail = `transport: ${error.cause?.code ?? error.code ?? error.message}`;
      if (transportFailureIsClean()) return { outcome: mutation ? 'indeterminate' : 'failed clean', detail };
      return { outcome: 'failed unclean', detail };
    }
    const { status, headers, text } = response;
    const host = headers.get('x-netgraph-host') ?? undefined;
    let body = null;
    try { body = JSON.parse(text); } catch { /* classified below */ }
    const lost = mutation ? 'indeterminate' : 'failed clean';
    const messages = (body?.errors ?? []).map((e) => e.message);
    // nginx's per-client rate limit refuses before the request reaches the pool: nothing happened,
    // for a mutation too.
    if (status === 429 && headers.get('retry-after') !== null && messages[0] === TOO_MANY) {
      return { outcome: 'failed clean', detail: '429', host };
    }
    if ([502, 503, 504].includes(status)) {
      const documented = headers.get('retry-after') !== null && messages[0] === UNAVAILABLE;
      return documented ? { outcome: lost, detail: `${status}`, host }
        : { outcome: 'failed unclean', detail: `${status} ${text.slice(0, 200)}`, host };
    }
    if (body === null) return { outcome: 'failed unclean', detail: `${status} not JSON: ${text.slice(0, 200)}`, host };
    if (messages.length > 0) {
      if (messages.every((m) => m === INTERNAL)) return { outcome: lost, detail: INTERNAL, host };
      return { outcome: 'failed unclean', detail: `${status} ${text.slice(0, 200)}`, host };
    }
    if (status !== 200) return { outcome: 'failed unclean', detail: `${status} ${text.slice(0, 200)}`, host };
    return { outcome: 'ok', data: body.data, host };
  };
}

// The ledger of operations, Jepsen-style: per operation, how many ended each way.
export class Ledger {
  constructor() {
    this.history = new Map();  // operation -> {outcome -> count}
    this.unclean = [];         // the first few unclean answers, with the time (UTC), to show
  }

  record(operation, outcome, detail) {
    if (!this.history.has(operation)) this.history.set(operation, Object.fromEntries(OUTCOMES.map((o) => [o, 0])));
    this.history.get(operation)[outcome] += 1;
    if ((outcome === 'failed unclean' || outcome === 'hung') && this.unclean.length < 10) {
      this.unclean.push(`${new Date().toISOString().slice(11, 23)} ${operation}: ${outcome}: ${detail}`);
    }
  }

  // A copy of the counts, to subtract from a later one (what happened in between).
  snapshot() {
    return new Map([...this.history].map(([op, counts]) => [op, { ...counts }]));
  }

  rows(since = new Map()) {
    return [...this.history].map(([op, counts]) => [op, ...OUTCOMES.map((o) => counts[o] - (since.get(op)?.[o] ?? 0))]);
  }

  bad() {
    return [...this.history.values()].some((c) => c['failed unclean'] > 0 || c.hung > 0);
  }

  // How many operations so far neither succeeded nor were refused.
  failures() {
    return [...this.history.values()].reduce((sum, c) => sum + OUTCOMES.slice(2).reduce((n, o) => n + c[o], 0), 0);
  }
}

// An investor: a DID with its token (`mintToken(did)`, sync or async), a wallet, an ElGamal key.
export async function newInvestor(index, mintToken, label = 'fault') {
  const did = `did:netgraph:${label}-${index}-${randomUUID()}`;
  const token = await mintToken(did);
  const elgamal = new ElGamalKeypair();
  return {
    did,
    token,
    wallet: Keypair.generate().publicKey.toBase58(),
    key: Buffer.from(elgamal.pubkey().toBytes()).toString('base64'),
    decrypt: (base64) => elgamal.secret().decrypt(ElGamalCiphertext.fromBytes(Buffer.from(base64, 'base64'))),
    claimed: [],      // codes acknowledged as claimed by this investor
    claimedAt: new Map(),  // code -> when the acknowledgement arrived
    refused: [],      // codes whose claim this investor was refused
    redemptions: [],  // acknowledged redemptions {txSignature, amount, at}
  };
}

// Claims vouchers from the shared pool (several investors go for the same code now and then) and
// redeems what it holds every few claims. `pauseMs` between requests keeps the rate modest.
export async function investorLoop({ investor, pool, stop, request, ledger, pauseMs = 0, sendOptions }) {
  let sinceRedeem = 0;
  while (!stop.stopped) {
    if (pauseMs > 0) await sleep(pauseMs);
    if (sinceRedeem >= 3) {
      sinceRedeem = 0;
      const r = await request(REDEEM, { token: investor.token, mutation: true, sendOptions, variables: { wallet: investor.wallet, key: investor.key } });
      if (r.outcome === 'ok') {
        const result = r.data.redeemVoucher;
        if (result.success) {
          investor.redemptions.push({ ...result.redemption, at: Date.now() });
          ledger.record('redeemVoucher', 'ok');
        } else {
          ledger.record('redeemVoucher', 'refused');
        }
      } else {
        ledger.record('redeemVoucher', r.outcome, r.detail);
        await sleep(100);  // as a client would, rather than hammering a service that is down
      }
      continue;
    }
    const code = pool.length > 0 ? pick(pool) : null;
    if (code === null) { await sleep(100); continue; }
    const r = await request(CLAIM, { token: investor.token, mutation: true, sendOptions, variables: { code, wallet: investor.wallet } });
    if (r.outcome === 'ok') {
      const result = r.data.claimVoucher;
      if (result.success) {
        investor.claimed.push(code);
        investor.claimedAt.set(code, Date.now());
        if (pool.includes(code)) pool.splice(pool.indexOf(code), 1);
        ledger.record('claimVoucher', 'ok');
        sinceRedeem += 1;
      } else {
        investor.refused.push(code);
        if (result.error === 'Voucher already claimed' && pool.includes(code)) pool.splice(pool.indexOf(code), 1);
        ledger.record('claimVoucher', 'refused');
      }
    } else {
      ledger.record('claimVoucher', r.outcome, r.detail);
      await sleep(100);
    }
  }
}

export async function readerLoop({ investors, stop, request, ledger, pauseMs = 0, sendOptions }) {
  while (!stop.stopped) {
    if (pauseMs > 0) await sleep(pauseMs);
    let r;
    if (Math.random() < 0.5) {
      r = await request(pick(PUBLIC), { sendOptions });
      ledger.record('public query', r.outcome, r.detail);
    } else {
      r = await request(PORTFOLIO, { token: pick(investors).token, sendOptions });
      ledger.record('getUserPortfolio', r.outcome === 'ok' && !r.data.getUserPortfolio.success ? 'failed unclean' : r.outcome, r.detail);
    }
    if (r.outcome !== 'ok') await sleep(100);
  }
}

// A subscriber records, per connection ("session"), the publisher sequence of every update it
// receives and when it arrived; the invariant is that a session's sequences are consecutive and
// reach the last committed one. A session also notes the app host that served it, when the
// upgrade's response names one (X-Netgraph-Host, set by the load balancer).
function newSession(subscriber) {
  const session = { host: subscriber.upgradeHost, opened: Date.now(), sequences: [], times: [] };
  subscriber.sessions.push(session);
}
function closed(subscriber) {
  subscriber.connected = false;
  const session = subscriber.sessions.at(-1);
  if (session && session.closed === undefined) session.closed = Date.now();
}
function received(subscriber, sequence) {
  const session = subscriber.sessions.at(-1);
  if (!session) return;
  session.sequences.push(sequence);
  session.times.push(Date.now());
}

// A WebSocket that notes the host named in its upgrade's response on `subscriber`.
function trackingWebSocket(subscriber) {
  return class extends WebSocket {
    constructor(...args) {
      super(...args);
      this.on('upgrade', (response) => { subscriber.upgradeHost = response.headers['x-netgraph-host']; });
    }
  };
}

export function transportSubscriber(id, url) {
  const subscriber = { id, protocol: 'graphql-transport-ws', sessions: [], connected: false };
  const client = createClient({
    url,
    webSocketImpl: trackingWebSocket(subscriber),
    retryAttempts: Infinity,
    shouldRetry: () => true,
    retryWait: () => sleep(200 + Math.random() * 800),
    on: {
      connected: () => { subscriber.connected = true; newSession(subscriber); },
      closed: () => closed(subscriber),
    },
  });
  const unsubscribe = client.subscribe({ query: SUBSCRIPTION }, {
    next: (result) => received(subscriber, result.extensions?.publisherSequence),
    error: () => {},
    complete: () => {},
  });
  subscriber.close = () => { unsubscribe(); return client.dispose(); };
  return subscriber;
}

// The legacy protocol (subscriptions-transport-ws), spoken by hand: clients of it reconnect on
// their own.
export function legacySubscriber(id, url) {
  const subscriber = { id, protocol: 'graphql-ws (legacy)', sessions: [], connected: false, closing: false };
  const Socket = trackingWebSocket(subscriber);
  const connect = () => {
    const socket = new Socket(url, 'graphql-ws');
    subscriber.socket = socket;
    socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload: {} })));
    socket.on('message', (raw) => {
      const message = JSON.parse(raw.toString());
      if (message.type === 'connection_ack') {
        subscriber.connected = true;
        newSession(subscriber);
        socket.send(JSON.stringify({ id: '1', type: 'start', payload: { query: SUBSCRIPTION } }));
      } else if (message.type === 'data') {
        received(subscriber, message.payload?.extensions?.publisherSequence);
      }
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      closed(subscriber);
      if (!subscriber.closing) setTimeout(connect, 200 + Math.random() * 800);
    });
  };
  connect();
  subscriber.close = () => { subscriber.closing = true; subscriber.socket.close(); };
  return subscriber;
}

// Queries over WebSocket (graphql-transport-ws), which netgraph-ws runs on its own database
// connections (ws/database_workers.h): `investmentData`, read from PostgreSQL each time (netgraph-ws
// keeps no read cache). One client, reconnecting like the subscribers. Classified as HTTP requests
// are: `Internal server error` is a clean failure, and so is the connection closing under the query
// (the process or its host stopped; the client reconnects).
export function wsQueryLoop({ url, stop, ledger, pauseMs = 0 }) {
  const client = createClient({
    url,
    webSocketImpl: WebSocket,
    retryAttempts: Infinity,
    shouldRetry: () => true,
    retryWait: () => sleep(200 + Math.random() * 800),
  });
  const one = () => new Promise((resolve) => {
    let value = null;
    let settled = false;
    const settle = (outcome, detail) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ outcome, detail });
    };
    const timer = setTimeout(() => { dispose(); settle('hung', `no answer in ${REQUEST_DEADLINE_MS} ms`); }, REQUEST_DEADLINE_MS);
    const dispose = client.subscribe({ query: PUBLIC[1] }, {
      next: (result) => { value = result; },
      error: (error) => {
        const messages = Array.isArray(error) ? error.map((e) => e.message) : null;
        if (messages?.length && messages.every((m) => m === INTERNAL)) return settle('failed clean', INTERNAL);
        if (error?.code !== undefined && error?.reason !== undefined) return settle('failed clean', `closed ${error.code}`);
        settle('failed unclean', JSON.stringify(error?.message ?? error).slice(0, 200));
      },
      complete: () => {
        const messages = (value?.errors ?? []).map((e) => e.message);
        if (value?.data?.investmentData && messages.length === 0) return settle('ok');
        if (messages.length && messages.every((m) => m === INTERNAL)) return settle('failed clean', INTERNAL);
        settle('failed unclean', JSON.stringify(value).slice(0, 200));
      },
    });
  });
  const loop = (async () => {
    while (!stop.stopped) {
      if (pauseMs > 0) await sleep(pauseMs);
      const { outcome, detail } = await one();
      ledger.record('query over WebSocket', outcome, detail);
      if (outcome !== 'ok') await sleep(100);
    }
    await client.dispose();
  })();
  return loop;
}

// Half the subscribers on each protocol.
export function subscribers(count, url) {
  return Array.from({ length: count }, (_, i) => (i % 2 === 0 ? transportSubscriber(i, url) : legacySubscriber(i, url)));
}

export async function waitConnected(list, timeoutMs = 30000) {
  const until = Date.now() + timeoutMs;
  while (list.some((s) => !s.connected) && Date.now() < until) await sleep(100);
}

// How long until a public query, a portfolio read and 95% of the subscriptions all work again
// (null: not within `limitMs`).
export async function measureRecovery({ request, investor, subscribers: list, limitMs }) {
  const started = Date.now();
  while (Date.now() - started < limitMs) {
    const [pub, own] = await Promise.all([request(PUBLIC[0]), request(PORTFOLIO, { token: investor.token })]);
    const connected = list.filter((s) => s.connected).length;
    if (pub.outcome === 'ok' && own.outcome === 'ok' && own.data.getUserPortfolio.success &&
        connected >= list.length * 0.95) {
      return Date.now() - started;
    }
    await sleep(100);
  }
  return null;
}

export function printTable(head, rows) {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells) => `| ${cells.map((c, i) => String(c).padEnd(widths[i])).join(' | ')} |`;
  console.log(line(head));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const row of rows) console.log(line(row));
}

// The invariants, checked against PostgreSQL itself after the run: `sql(query)` returns rows of
// text cells; `batch` names the vouchers the investors drew from; `treasuryPublicKey` is the
// base58 key receipts are signed with. Returns {rows: [invariant, verdict, detail], lost: {claims:
// [{code, at}], redemptions: [{txSignature, at}]}}: the acknowledged writes the database lacks.
export async function checkInvariants({ investors, subscribers: list, sql, request, batch, treasuryPublicKey }) {
  const results = [];
  const check = (name, ok, detail = '') => results.push([name, ok ? 'holds' : 'VIOLATED', detail]);

  const vouchers = new Map((await sql(`SELECT v.code, v.status, u.idp_did, v.wallet_address, v.amount
    FROM vouchers v LEFT JOIN users u ON u.id = v.user_id WHERE v.batch = '${batch}'`))
    .map(([code, status, did, wallet, amount]) => [code, { status, did, wallet, amount: BigInt(amount) }]));
  // Codes are shown in groups ("ABCD-EFGH-..."); the database keeps them without the dashes.
  const stored = (code) => vouchers.get(code.replaceAll('-', ''));
  const owners = new Map();
  let twice = 0;
  const lostClaims = [];
  let refusedChanged = 0;
  for (const investor of investors) {
    for (const code of investor.claimed) {
      if (owners.has(code)) twice += 1;
      owners.set(code, investor.did);
      const row = stored(code);
      if (!row || row.did !== investor.did || row.wallet !== investor.wallet || row.status === 'AVAILABLE') {
        lostClaims.push({ code, at: investor.claimedAt.get(code) });
      }
    }
    for (const code of investor.refused) {
      if (stored(code)?.did === investor.did && !investor.claimed.includes(code)) refusedChanged += 1;
    }
  }
  check('every voucher claimed at most once (acknowledged claims)', twice === 0, `${owners.size} acknowledged claims`);
  check('every acknowledged claim is durable', lostClaims.length === 0, lostClaims.length ? `${lostClaims.length} missing` : '');
  check('a refused claim changed nothing', refusedChanged === 0, refusedChanged ? `${refusedChanged} vouchers` : '');

  const redemptions = await sql('SELECT signature, wallet_address, amount FROM redemptions');
  const bySignature = new Map(redemptions.map(([signature, wallet, amount]) => [signature, { wallet, amount: BigInt(amount) }]));
  const lostRedemptions = [];
  let acknowledged = 0;
  for (const investor of investors) {
    for (const r of investor.redemptions) {
      acknowledged += 1;
      if (bySignature.get(r.txSignature)?.wallet !== investor.wallet) lostRedemptions.push({ txSignature: r.txSignature, at: r.at });
    }
  }
  check('every acknowledged redemption is durable', lostRedemptions.length === 0,
    `${acknowledged} acknowledged${lostRedemptions.length ? `, ${lostRedemptions.length} missing` : ''}`);
  // A voucher names the one redemption that took it; each redemption credits exactly its vouchers.
  const overCredited = (await sql(`SELECT count(*) FROM redemptions r
    WHERE r.amount <> (SELECT coalesce(sum(v.amount), 0) FROM vouchers v WHERE v.redemption_id = r.id)`))[0][0];
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
  const treasuryKey = ed25519PublicKey(base58Decode(treasuryPublicKey));
  let unverified = 0;
  for (const [signature, receipt] of await sql('SELECT signature, receipt FROM redemptions')) {
    if (!verify(null, offchainEnvelope(receipt), treasuryKey, base58Decode(signature))) unverified += 1;
  }
  check('every txSignature verifies', unverified === 0, `${redemptions.length} receipts`);

  // Updates: within a session, consecutive publisher sequences; open sessions reach the last one.
  const last = Number((await sql('SELECT coalesce(max(id), 0) FROM outbox'))[0][0]);
  const deadline = Date.now() + 30000;
  const caughtUp = () => list.every((s) => !s.connected || s.sessions.at(-1)?.sequences.at(-1) === last);
  while (!caughtUp() && Date.now() < deadline) await sleep(200);
  let gaps = 0;
  let duplicates = 0;
  let behind = 0;
  let sessions = 0;
  let delivered = 0;
  for (const subscriber of list) {
    subscriber.sessions.forEach(({ sequences }, index) => {
      sessions += 1;
      delivered += sequences.length;
      for (let i = 1; i < sequences.length; i += 1) {
        if (sequences[i] <= sequences[i - 1]) duplicates += 1;
        else if (sequences[i] !== sequences[i - 1] + 1) gaps += 1;
      }
      const open = index === subscriber.sessions.length - 1 && subscriber.connected;
      if (open && sequences.length > 0 && sequences.at(-1) !== last) behind += 1;
    });
  }
  check('updates reach every subscriber in order, without gaps', gaps === 0, `${gaps} gaps in ${sessions} sessions, ${delivered} deliveries`);
  check('no update delivered twice or out of order', duplicates === 0, duplicates ? `${duplicates}` : '');
  check('every connected subscriber has the last update', behind === 0, behind ? `${behind} behind ${last}` : `last sequence ${last}`);
  return { rows: results, lost: { claims: lostClaims, redemptions: lostRedemptions } };
}
