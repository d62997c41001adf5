#!/usr/bin/env node
// The cluster test: the reference topology of docs/operations.md ("Several hosts") built from
// Debian 12's packages, one systemd-nspawn container per host on a private bridge, then mixed load
// through the load balancer while hosts fail, one at a time and then together; afterwards the
// invariants of docs/reliability.md ("Several hosts") are checked and, per fault, a Jepsen-style
// table is printed with the time to recover.
//
//   node tests/cluster/cluster.mjs --deb build-package/netgraph_*.deb     the short form
//   --long        more load, longer faults (a partition past every timeout)
//   --keep        leave the hosts up afterwards (their journals are in .run-cluster/logs either way)
//   --capacity    no faults: measure the figures of the capacity model (capacity.mjs) instead
//
// tests/cluster/run.sh builds the package and runs this; scripts/test runs that as its "cluster"
// step. Needs root, systemd-container and mmdebstrap; the hosts' root filesystem is cached in
// $NETGRAPH_DEPLOY_CACHE (tests/deploy/container.mjs). Traffic goes only to the hosts this test
// made, on the subnet of network.mjs, which it refuses to use when anything else on the machine
// does. Exits 1 when an invariant fails, a request fails uncleanly or hangs, or the service does
// not recover within RECOVERY_LIMIT_MS.
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { Keypair } from '@solana/web3.js';
import {
  CLAIM, Ledger, OUTCOMES, agentSend, checkInvariants, investorLoop, measureRecovery, newInvestor, printTable,
  readerLoop, requester, sleep, subscribers as newSubscribers, waitConnected, wsQueryLoop,
} from '../support/fault-load.mjs';
import {
  APP_HOSTS, Cluster, DATA_HOSTS, DATABASE_HOSTS, HOSTS, REDIS_HOSTS, SENTINEL_HOSTS, waitFor,
} from './hosts.mjs';
import { newKeyPair } from '../support/jwt.mjs';
import { measureCapacity } from './capacity.mjs';
import { CLIENT_ADDRESSES, createBridge, removeBridge, subnetInUse } from './network.mjs';

const { values: flags } = parseArgs({
  options: {
    deb: { type: 'string' },
    long: { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
    capacity: { type: 'boolean', default: false },
  },
});

const repo = path.resolve(import.meta.dirname, '../..');
const runDir = path.join(repo, '.run-cluster');
// quietMs: load without faults before each fault (and at the end), when the probes are judged.
const SCALE = flags.long
  ? { investors: 16, readers: 6, subscribers: 200, vouchers: 10000, probes: 3000, quietMs: 15000, faultMs: 15000, partitionMs: 40000, claimPauseMs: 500, readPauseMs: 200 }
  : { investors: 8, readers: 3, subscribers: 40, vouchers: 3000, probes: 1000, quietMs: 6000, faultMs: 5000, partitionMs: 12000, claimPauseMs: 400, readPauseMs: 150 };
const RECOVERY_LIMIT_MS = 60000;  // the documented bound for several hosts (docs/reliability.md)
const VISIBLE_WITHIN_MS = 100;    // a write's answer to public reads on every host
const DELIVERED_WITHIN_MS = 1000; // a claim's update to subscribers on the other host
const BALANCER = `http://${HOSTS.lb.address}`;

const run = promisify(execFile);
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const log = (line) => console.log(`[${new Date().toISOString().slice(11, 23)}] ${line}`);

// ---------------------------------------------------------------------------------------------
// Clients: each speaks HTTP from one of the machine's addresses on the bridge.
// An idle kept connection is closed after 4 s, before the balancer closes it (timeout
// http-keep-alive 10s): a request sent on a connection the server is closing fails in transport
// (RFC 9112, section 9.3.1), which is the client's doing, not the service's.
const agents = CLIENT_ADDRESSES.map((localAddress) => new http.Agent({ keepAlive: true, localAddress, timeout: 4000 }));
const sendFrom = (index) => ({ send: agentSend(agents[index % agents.length]) });
// From the instant an app host is powered off until the balancer has marked it down (and a second
// more), a connection the balancer resets under a request is the dead host's doing: the client
// cannot tell whether a mutation happened, as when nginx reloads (tests/faults), so it counts as a
// clean failure, indeterminate for a mutation. Outside that window it is unclean.
let hostDying = 0;        // app hosts powered off and not yet marked down
let hostDyingUntil = 0;
const transportFailureIsClean = () => hostDying > 0 || Date.now() < hostDyingUntil;
// Through the balancer; `client` picks the address (0 is the test's own, the others the load's).
const requestVia = (client) => requester(`${BALANCER}/graphql`, { ...sendFrom(client), transportFailureIsClean });
const request = requestVia(0);
// Straight to one app host's nginx, bypassing the balancer.
const requestHost = (name) => requester(`http://${HOSTS[name].address}:8080/graphql`, sendFrom(0));

// ---------------------------------------------------------------------------------------------
// One run at a time on a machine: the bridge and the container names are fixed.
const lockFile = '/run/netgraph-cluster.lock';
function lock() {
  try {
    const fd = openSync(lockFile, 'wx');
    writeSync(fd, String(process.pid));
    closeSync(fd);
    return;
  } catch { /* held, or left by a run that was killed */ }
  const holder = Number(readFileSync(lockFile, 'utf8'));
  let alive = false;
  try { process.kill(holder, 0); alive = true; } catch { /* gone */ }
  if (alive) throw new Error(`another cluster test (pid ${holder}) is running`);
  unlinkSync(lockFile);
  lock();
}

let cluster;
let torndown = false;
async function teardown() {
  if (torndown) return;
  torndown = true;
  if (cluster) await cluster.destroy();
  removeBridge();
  rmSync(path.join(runDir, 'hosts'), { recursive: true, force: true });
  rmSync(lockFile, { force: true });
}
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => { teardown().finally(() => process.exit(130)); });
}

// ---------------------------------------------------------------------------------------------
// The database, read directly on the primary (libpq picks it from both nodes).
let databaseUrl;
async function sql(query) {
  const { stdout } = await run('psql', [databaseUrl, '-tAF', '\t', '-c', query], { encoding: 'utf8', maxBuffer: 1 << 26 });
  return stdout.split('\n').filter(Boolean).map((line) => line.split('\t'));
}

async function netgraphctl(...args) {
  return cluster.host(APP_HOSTS[0]).mustAsync('runuser', '-u', 'netgraph', '--', 'netgraphctl', ...args);
}

// ---------------------------------------------------------------------------------------------
// The topology, built as docs/operations.md says.
async function buildCluster(deb) {
  const providerKey = newKeyPair('ec');
  const issuer = 'https://idp.cluster.test/';
  const audience = 'netgraph-cluster';
  const devKeyFile = path.join(runDir, 'provider.pem');
  writeFileSync(devKeyFile, providerKey.privateKey.export({ format: 'pem', type: 'pkcs8' }));
  Object.assign(process.env, { NETGRAPH_DEV_SIGNING_KEY: devKeyFile, NETGRAPH_JWT_ISSUER: issuer, NETGRAPH_JWT_AUDIENCE: audience });

  cluster = new Cluster({
    deb, stateDir: runDir, issuer, audience,
    jwtPublicKeyPem: providerKey.publicKey.export({ format: 'pem', type: 'spki' }),
  });
  let started = Date.now();
  createBridge();
  await cluster.boot();
  log(`root and ${Object.keys(HOSTS).length} hosts booted in ${seconds(Date.now() - started)}`);
  started = Date.now();
  const database = (async () => {
    await cluster.setUpMonitor();
    await cluster.setUpDatabaseNode(DATABASE_HOSTS[0]);
    await cluster.setUpDatabaseRoles(DATABASE_HOSTS[0]);
    await cluster.setUpDatabaseNode(DATABASE_HOSTS[1]);
    await waitFor(() => cluster.healthyPrimary(), 'the primary and its standby', 180000, 500);
  })();
  const redis = (async () => {
    for (const name of REDIS_HOSTS) await cluster.setUpRedis(name);
    for (const name of SENTINEL_HOSTS) await cluster.setUpSentinel(name);
    await waitFor(async () => (await cluster.redisRole(REDIS_HOSTS[1])) === 'slave', 'the Redis replica', 60000);
  })();
  const packages = Promise.all(APP_HOSTS.map((name) => cluster.installPackage(name)));
  await Promise.all([database, redis, packages]);
  log(`PostgreSQL, Redis and the packages in ${seconds(Date.now() - started)}`);
  const replication = await cluster.synchronousReplication();
  if (!replication.ok) throw new Error(`synchronous replication is not in force: ${replication.detail}`);
  log(replication.detail);

  const keys = await cluster.makeSharedKeys();
  await Promise.all(APP_HOSTS.map((name) => cluster.configureApp(name, keys)));
  await cluster.setUpBalancer();
  await waitFor(async () => Object.values(await cluster.balancerStatus()).filter((s) => s === 'UP').length === APP_HOSTS.length,
    'the balancer to see every app host up', 120000, 500);
  databaseUrl = `postgresql://netgraph:${cluster.secrets.database}@${DATABASE_HOSTS.map((n) => `${HOSTS[n].address}:5432`).join(',')}` +
    '/netgraph?target_session_attrs=read-write&sslmode=require&connect_timeout=3';
  log(`app hosts and balancer in ${seconds(Date.now() - started)}`);
}

// ---------------------------------------------------------------------------------------------
// Probes: a claim by a new investor, one at a time, timed against public reads on every app host
// (visible within VISIBLE_WITHIN_MS of the answer) and against the subscribers (the update within
// DELIVERED_WITHIN_MS on the other host). Judged only outside the faults' windows.
const probes = [];
const faultWindows = [];  // {from, to}
function quiet(at) {
  return !faultWindows.some((w) => at >= w.from - 1000 && at <= (w.to ?? Infinity) + 2000);
}

async function probeLoop(stop, codes, mintToken) {
  const probeRequest = requestVia(0);
  let index = 0;
  while (!stop.stopped && codes.length > 0) {
    await sleep(500);
    const did = `did:netgraph:probe-${index += 1}-${randomUUID()}`;
    const token = await mintToken(did);
    const [[before]] = await sql('SELECT investors FROM investment_totals').catch(() => [[null]]);
    if (before === null) continue;
    const code = codes.pop();
    const wallet = Keypair.generate().publicKey.toBase58();
    const r = await probeRequest(CLAIM, { token, mutation: true, variables: { code, wallet } });
    const answeredAt = Date.now();
    if (r.outcome !== 'ok' || !r.data.claimVoucher.success) continue;
    const expected = Number(before) + 1;
    const probe = { did, host: r.host, answeredAt, staleAfter: {}, unreachable: [] };
    await Promise.all(APP_HOSTS.map(async (name) => {
      const read = requestHost(name);
      let latestStale = -Infinity;
      while (Date.now() - answeredAt < 3000) {
        const sent = Date.now();
        const answer = await read('{ investmentData { investorCount } }');
        if (answer.outcome !== 'ok') { probe.unreachable.push(name); return; }
        if (answer.data.investmentData.investorCount >= expected) break;
        latestStale = sent - answeredAt;
        await sleep(5);
      }
      probe.staleAfter[name] = latestStale;
    }));
    probes.push(probe);
  }
}

// After the run: each probe's outbox id, then its delivery to every subscriber of the other host.
async function judgeProbes(subscribers) {
  const ids = new Map((await sql(`SELECT u.idp_did, (SELECT min(o.id) FROM outbox o WHERE strpos(o.payload, u.public_id) > 0)
    FROM users u WHERE u.idp_did LIKE 'did:netgraph:probe-%'`)).map(([did, id]) => [did, Number(id)]));
  const judged = probes.filter((p) => quiet(p.answeredAt) && p.unreachable.length === 0);
  let worstVisible = -Infinity;
  let staleLate = 0;
  const delays = [];
  let late = 0;
  let missing = 0;
  let unknownHost = 0;
  for (const probe of judged) {
    for (const name of APP_HOSTS) {
      worstVisible = Math.max(worstVisible, probe.staleAfter[name]);
      if (probe.staleAfter[name] >= VISIBLE_WITHIN_MS) staleLate += 1;
    }
    const id = ids.get(probe.did);
    if (!Number.isFinite(id)) { missing += 1; continue; }
    for (const subscriber of subscribers) {
      for (const session of subscriber.sessions) {
        if (session.host === undefined) { unknownHost += 1; continue; }
        const open = session.opened <= probe.answeredAt && (session.closed ?? Infinity) >= probe.answeredAt + DELIVERED_WITHIN_MS;
        if (!open || session.host === probe.host) continue;
        const at = session.sequences.indexOf(id);
        if (at < 0) { missing += 1; continue; }
        const delay = session.times[at] - probe.answeredAt;
        delays.push(delay);
        if (delay > DELIVERED_WITHIN_MS) late += 1;
      }
    }
  }
  delays.sort((a, b) => a - b);
  const p = (q) => (delays.length ? `${Math.max(0, delays[Math.min(delays.length - 1, Math.floor(q * delays.length))])} ms` : 'n/a');
  return [
    [`a write is visible to public reads on every app host within ${VISIBLE_WITHIN_MS} ms of its answer`,
      staleLate === 0 && judged.length > 0 ? 'holds' : 'VIOLATED',
      `${judged.length} probes outside faults (of ${probes.length}); latest stale read sent ${worstVisible === -Infinity ? 'never' : `${worstVisible} ms`} after the answer`],
    [`a claim through one app host reaches the subscribers of the other within ${DELIVERED_WITHIN_MS} ms`,
      late === 0 && missing === 0 && delays.length > 0 ? 'holds' : 'VIOLATED',
      `${delays.length} deliveries; median ${p(0.5)}, p99 ${p(0.99)}, max ${p(1)}${late ? `; ${late} late` : ''}${missing ? `; ${missing} missing` : ''}${unknownHost ? `; ${unknownHost} sessions without a host` : ''}`],
  ];
}

// Outbox ids never go backwards across a failover (a new session of a subscriber starts after
// where its previous one ended), the outbox has no gap, and its epoch is the one of the start.
async function checkOutbox(subscribers, epochAtStart) {
  let backwards = 0;
  for (const subscriber of subscribers) {
    let last = 0;
    for (const { sequences } of subscriber.sessions) {
      if (sequences.length === 0) continue;
      if (sequences[0] <= last) backwards += 1;
      last = sequences.at(-1);
    }
  }
  const [[count, max]] = await sql('SELECT count(*), coalesce(max(id), 0) FROM outbox');
  const [[epoch]] = await sql('SELECT epoch FROM outbox_sequence');
  return [
    ['outbox ids never go backwards across a failover', backwards === 0, backwards ? `${backwards} sessions started at or before an id delivered earlier` : 'every new session started past the last id its subscriber had'],
    ['the outbox has no gap and kept its epoch', count === max && epoch === epochAtStart, `${count} rows, last id ${max}; epoch ${epoch === epochAtStart ? 'unchanged' : `changed from ${epochAtStart} to ${epoch}`}`],
  ].map(([name, ok, detail]) => [name, ok ? 'holds' : 'VIOLATED', detail]);
}

// Across every failover the daemons reconnected rather than crashed: on no app host did the main
// process of netgraph-fcgi or netgraph-ws die under systemd, and no pool child died and was
// replaced (the master logs each such death). A start that failed (an app host booting while the
// database fails over: `netgraphctl migrate`, before the pool, finds no primary) and was retried by
// systemd is not a crash; it is counted in the detail.
async function checkNoCrash() {
  const problems = [];
  let retriedStarts = 0;
  for (const name of APP_HOSTS) {
    const host = cluster.host(name);
    const journal = await host.mustAsync('journalctl', '-u', 'netgraph-fcgi', '-u', 'netgraph-ws', '-o', 'cat', '--no-pager');
    const lines = journal.split('\n');
    const died = lines.filter((line) => /Main process exited/.test(line));
    const replaced = lines.filter((line) => line.endsWith('; replacing it'));
    retriedStarts += lines.filter((line) => /Control process exited/.test(line)).length;
    if (died.length) problems.push(`${name}: ${died[0]}`);
    if (replaced.length) problems.push(`${name}: ${replaced.length} pool children died (${replaced[0]})`);
  }
  return [['the pool and netgraph-ws reconnected and never crashed', problems.length === 0 ? 'holds' : 'VIOLATED',
    problems.length ? problems.join('; ')
      : `no main process or pool child died on either app host; ${retriedStarts} start(s) retried by systemd while the database failed over`]];
}

// ---------------------------------------------------------------------------------------------
// The faults. Each resolves once its hosts are back in their roles; `failover` notes how long the
// engine took to give the service a new primary or master.
function makeFaults() {
  return {
    'app host powered off, started again': async (note) => {
      hostDying += 1;
      try {
        await cluster.powerOff('app1');
        note.injected();
        await waitFor(async () => (await cluster.balancerStatus()).app1?.startsWith('DOWN'), 'the balancer to mark app1 down', 30000);
      } finally {
        hostDying -= 1;
        hostDyingUntil = Date.now() + 1000;
      }
      note.detected = Date.now();
      await sleep(SCALE.faultMs);
      await cluster.powerOn('app1');
      await waitFor(async () => (await cluster.balancerStatus()).app1 === 'UP', 'app1 to be back in the balancer', 120000, 500);
    },
    'PostgreSQL primary killed, old primary rejoined as standby': async (note) => {
      const primary = await cluster.healthyPrimary();
      const replication = await cluster.synchronousReplication();
      if (!replication.ok) throw new Error(`before the fault: ${replication.detail}`);
      await cluster.powerOff(primary);
      note.injected();
      await waitFor(async () => {
        const writable = await cluster.writableNode();
        return writable && writable !== primary;
      }, 'the monitor to promote the standby', 120000, 250);
      note.failover = Date.now();
      await sleep(SCALE.faultMs);
      await cluster.powerOn(primary);
      await waitFor(async () => (await cluster.healthyPrimary()) && (await cluster.synchronousReplication()).ok,
        'the old primary to rejoin as a synchronous standby', 240000, 500);
    },
    'Redis master killed, old master rejoined as replica': async (note) => {
      const master = await cluster.redisMaster();
      await cluster.powerOff(master);
      note.injected();
      await waitFor(async () => {
        const now = await cluster.redisMaster();
        return now && now !== master && (await cluster.redisRole(now)) === 'master';
      }, 'the sentinels to promote the replica', 60000, 250);
      note.failover = Date.now();
      await sleep(SCALE.faultMs);
      await cluster.powerOn(master);
      await waitFor(async () => (await cluster.redisRole(master)) === 'slave', 'the old master to rejoin as a replica', 120000, 500);
    },
    'app host cut off from the data hosts': async (note) => {
      await cluster.partition('app2', DATA_HOSTS, true);
      note.injected();
      await waitFor(async () => (await cluster.balancerStatus()).app2?.startsWith('DOWN'), 'the balancer to mark app2 down', 60000);
      note.detected = Date.now();
      await sleep(SCALE.partitionMs);
      await cluster.partition('app2', DATA_HOSTS, false);
      await waitFor(async () => (await cluster.balancerStatus()).app2 === 'UP', 'app2 to be back in the balancer', 120000, 500);
    },
    'rolling restart of every app host (drained first)': async (note) => {
      for (const name of APP_HOSTS) {
        await cluster.setBalancerState(name, 'drain');
        note.injected();
        await sleep(1000);  // the requests already sent to it finish; no new one goes there
        await cluster.host(name).mustAsync('systemctl', 'restart', 'netgraph-fcgi', 'netgraph-ws', 'nginx');
        await waitFor(async () => (await requestHost(name)('{ __typename }')).outcome === 'ok', `${name} to serve again`, 60000);
        await cluster.setBalancerState(name, 'ready');
        await waitFor(async () => (await cluster.balancerStatus())[name] === 'UP', `${name} to be up in the balancer`, 60000);
      }
    },
  };
}

// ---------------------------------------------------------------------------------------------
async function main() {
  if (process.getuid() !== 0) throw new Error('the cluster test needs root (systemd-nspawn, a bridge)');
  const deb = flags.deb ?? process.env.NETGRAPH_DEB;
  if (!deb) throw new Error('--deb names the package to install (tests/cluster/run.sh builds it)');
  const inUse = subnetInUse();
  if (inUse) throw new Error(`the cluster test's network is not free: ${inUse}`);
  lock();
  mkdirSync(runDir, { recursive: true });
  rmSync(path.join(runDir, 'logs'), { recursive: true, force: true });

  const started = Date.now();
  let passed = true;
  let subscribers = [];
  try {
    await buildCluster(deb);
    const setUp = Date.now() - started;
    const { tokenFor } = await import('../support/jwt.mjs');
    const mintToken = (did) => tokenFor(did);
    await netgraphctl('seed', '--demo');
    if (flags.capacity) {
      await measureCapacity({ cluster, netgraphctl, mintToken });
      return;
    }
    const issue = async (count, batch) => (await netgraphctl('vouchers', 'issue', '--amount', '1', '--count', String(count), '--batch', batch)).trim().split('\n');
    const pool = await issue(SCALE.vouchers, 'cluster');
    const probeCodes = await issue(SCALE.probes, 'probes');
    const investors = await Promise.all(Array.from({ length: SCALE.investors }, (_, i) => newInvestor(i, mintToken, 'cluster')));
    const [[epochAtStart]] = await sql('SELECT epoch FROM outbox_sequence');

    subscribers = newSubscribers(SCALE.subscribers, `ws://${HOSTS.lb.address}/graphql`);
    await waitConnected(subscribers);
    const hosts = subscribers.map((s) => s.sessions.at(-1)?.host);
    log(`subscribers: ${APP_HOSTS.map((n) => `${hosts.filter((h) => h === n).length} on ${n}`).join(', ')}, ` +
      `${subscribers.filter((s) => !s.connected).length} not connected`);

    const ledger = new Ledger();
    const stop = { stopped: false };
    const actors = [
      // The load's actors spread over the client addresses but the first (the probes' and checks').
      ...investors.map((investor, i) => investorLoop({ investor, pool, stop, request: requestVia(1 + (i % (agents.length - 1))), ledger, pauseMs: SCALE.claimPauseMs })),
      ...Array.from({ length: SCALE.readers }, (_, i) => readerLoop({ investors, stop, request: requestVia(agents.length - 1 - (i % (agents.length - 1))), ledger, pauseMs: SCALE.readPauseMs })),
      wsQueryLoop({ url: `ws://${HOSTS.lb.address}/graphql`, stop, ledger, pauseMs: SCALE.readPauseMs }),
    ];
    // Every load investor has claimed once before the probes start: from then on only the probes'
    // new investors move investorCount.
    await waitFor(() => investors.every((i) => i.claimed.length > 0), 'every investor to claim once', 60000);
    const probing = probeLoop(stop, probeCodes, mintToken);

    const faults = makeFaults();
    const perFault = [];
    const inject = async (name, runFault) => {
      await sleep(SCALE.quietMs);
      const before = ledger.snapshot();
      const window = { from: Date.now() };
      faultWindows.push(window);
      log(`fault: ${name}`);
      // Recovery is watched from the moment the fault strikes (the fault says when: note.injected):
      // how long until the service answers again.
      let recovery = null;
      let injectedAt = null;
      const note = {
        injected: () => {
          if (injectedAt !== null) return;
          injectedAt = Date.now();
          recovery = measureRecovery({ request, investor: investors[0], subscribers, limitMs: RECOVERY_LIMIT_MS });
        },
      };
      let failure = null;
      await runFault(note).catch((error) => { failure = error; });
      const back = recovery === null ? 0 : await recovery;
      const healed = Date.now();
      // And again once every host is back in its role.
      const after = await measureRecovery({ request, investor: investors[0], subscribers, limitMs: RECOVERY_LIMIT_MS });
      window.to = Date.now();
      if (failure) throw failure;
      const counts = ledger.rows(before);
      const failed = counts.reduce((sum, row) => sum + row[3] + row[4] + row[5] + row[6], 0);
      perFault.push({
        name, counts, failed, window,
        lasted: healed - window.from,
        back,
        after,
        failover: note.failover ? note.failover - injectedAt : note.detected ? note.detected - injectedAt : null,
      });
      log(`  lasted ${seconds(healed - window.from)}; service answered again ${back === null ? 'NOT' : `after ${seconds(back)}`}; ` +
        `${failed} requests failed meanwhile`);
      if (back === null || after === null) passed = false;
    };
    for (const [name, runFault] of Object.entries(faults)) await inject(name, runFault);
    await inject('together: app host off, PostgreSQL primary and Redis master killed', (note) => Promise.all([
      faults['app host powered off, started again']({ injected: note.injected }),
      faults['PostgreSQL primary killed, old primary rejoined as standby'](note),
      faults['Redis master killed, old master rejoined as replica']({ injected: note.injected }),
    ]));
    await sleep(SCALE.quietMs);
    stop.stopped = true;
    await Promise.all([...actors, probing]);

    console.log(`\ncluster test (${flags.long ? 'long form' : 'short form'}): ${Object.keys(HOSTS).length} hosts, ` +
      `${SCALE.investors} investors, ${SCALE.readers} readers, ${SCALE.subscribers} subscribers (half on each WebSocket protocol), ` +
      `set up in ${seconds(setUp)}, ran in ${seconds(Date.now() - started)}\n`);
    const { rows: invariants, lost } = await checkInvariants({
      investors, subscribers, sql, request, batch: 'cluster',
      treasuryPublicKey: (await netgraphctl('treasury', 'pubkey')).trim(),
    });
    // Acknowledged writes the database lacks, by operation, acknowledged within [from, to].
    const lostIn = (operation, from = -Infinity, to = Infinity) => {
      const list = operation === 'claimVoucher' ? lost.claims : operation === 'redeemVoucher' ? lost.redemptions : [];
      return list.filter(({ at }) => at >= from && at <= to).length;
    };
    for (const fault of perFault) {
      console.log(`${fault.name}: lasted ${seconds(fault.lasted)}` +
        `${fault.failover !== null ? `, failover or detection after ${seconds(fault.failover)}` : ''}` +
        `, service answered again after ${fault.back === null ? `MORE THAN ${seconds(RECOVERY_LIMIT_MS)}` : seconds(fault.back)}` +
        `, ${fault.failed} requests failed meanwhile`);
      printTable(['operation', ...OUTCOMES, 'lost'], fault.counts.map((row) => [...row, lostIn(row[0], fault.window.from, fault.window.to)]));
      console.log('');
    }
    console.log('whole run:');
    printTable(['operation', ...OUTCOMES, 'lost'], ledger.rows().map((row) => [...row, lostIn(row[0])]));
    console.log('');
    invariants.push(...await judgeProbes(subscribers), ...await checkOutbox(subscribers, epochAtStart),
      ...await checkNoCrash());
    printTable(['invariant', 'verdict', 'detail'], invariants);
    if (ledger.unclean.length > 0) console.log(`\nunclean failures (first ${ledger.unclean.length}):\n  ${ledger.unclean.join('\n  ')}`);
    passed = passed && !ledger.bad() && invariants.every(([, verdict]) => verdict === 'holds');
  } catch (error) {
    passed = false;
    console.error(`cluster test: ${error.stack ?? error}`);
  } finally {
    await Promise.all(subscribers.map((s) => s.close()));
    if (cluster) await cluster.collectLogs(path.join(runDir, 'logs')).catch(() => {});
    if (!flags.capacity || !passed) {
      console.log(passed ? '\ncluster: every invariant holds' : `\ncluster: FAILED (the hosts' journals: ${path.join(runDir, 'logs')})`);
    }
    if (flags.keep && cluster) {
      console.log(`the hosts stay up (--keep) until this process ends: Ctrl-C, or kill ${process.pid}`);
      await new Promise(() => {});  // the signal handlers tear down
    }
    await teardown();
    for (const agent of agents) agent.destroy();
    process.exitCode = passed ? 0 : 1;
  }
}

await main();
