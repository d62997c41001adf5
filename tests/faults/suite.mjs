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
import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { databaseRelay } from '../support/database_relay.mjs';
import {
  Ledger, OUTCOMES, checkInvariants, investorLoop, measureRecovery, newInvestor, printTable,
  pick, readerLoop, requester, sleep, subscribers as newSubscribers, waitConnected,
} from '../support/fault-load.mjs';
import { psqlRows } from '../support/postgres.mjs';

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
const RECOVERY_LIMIT_MS = 30000;    // the documented bound (docs/reliability.md)

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
  return psqlRows(query, { url: `postgresql://netgraph@127.0.0.1:${ports.pg}/netgraph` });
}

// nginx closes idle keep-alive connections when it reloads; a request sent on one at that moment
// fails in transport, as HTTP/1.1 allows (RFC 9112, section 9.3.1: clients retry). Such a failure
// while a reload is under way counts as a clean one.
let reloadingUntil = 0;
const request = requester(`http://127.0.0.1:${ports.http}/graphql`,
  { transportFailureIsClean: () => Date.now() < reloadingUntil });
const ledger = new Ledger();

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
  const actors = [...investors.map((investor) => investorLoop({ investor, pool, stop, request, ledger })),
    readerLoop({ investors, stop, request, ledger }), readerLoop({ investors, stop, request, ledger })];
  const series = new Map();  // "name pid" -> [{rss, fds}]
  const backends = [];  // PostgreSQL's processes at each sample
  for (let t = 0; t < seconds; t += 1) {
    const processes = stackProcesses();
    backends.push({ rss: 0, fds: processes.filter(({ name }) => name === 'postgres child').length });
    for (const { name, pid } of processes) {
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
  for (const [key, points] of [...series, ['postgres backends (count)', backends]]) {
    if (points.length < seconds / 2) continue;  // a process that came and went
    const warm = Math.floor(points.length / 4);
    const after = points.slice(warm);
    // The first and the last tenth, averaged: one sample taken while a request holds a connection
    // is one file more, which is not growth.
    const window = Math.max(3, Math.floor(after.length / 10));
    const head = after.slice(0, window);
    const tail = after.slice(-window);
    const mean = (list, field) => list.reduce((sum, p) => sum + p[field], 0) / list.length;
    const rssGrowth = mean(head, 'rss') ? mean(tail, 'rss') / mean(head, 'rss') - 1 : 0;
    const fdGrowth = mean(tail, 'fds') - mean(head, 'fds');
    // A PostgreSQL backend opens a table's or index's files the first time it touches them and keeps
    // them (its file cache, bounded by max_files_per_process): a backend that reaches a relation late
    // in the run (an epoch check, a wallet challenge) has more files then, which is not a leak. Its
    // memory is judged; a leak of connections shows as more backends (the row counting them, in
    // its "open files" column).
    const judgeFiles = !key.startsWith('postgres child');
    const bad = rssGrowth > 0.10 || (judgeFiles && fdGrowth > Math.max(2, 0.10 * mean(head, 'fds')));
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
async function main() {
  const relay = await databaseRelay({ target: `postgresql://127.0.0.1:${ports.pg}/`, port: ports.relay });
  await stack('down');
  await stack('up');
  serviceEnv = envOfStack();
  const mintToken = async (did) => (await netgraphctl('token', 'mint', '--sub', did, '--ttl', '86400')).trim();
  const investors = await Promise.all(Array.from({ length: SCALE.users }, (_, i) => newInvestor(i, mintToken)));
  const pool = (await netgraphctl('vouchers', 'issue', '--amount', '1', '--count', String(SCALE.vouchers), '--batch', 'faults'))
    .trim().split('\n');
  const subscribers = newSubscribers(SCALE.subscribers, `ws://127.0.0.1:${ports.http}/graphql`);
  await waitConnected(subscribers);

  let passed = true;
  try {
    const recoveries = [];
    if (!flags['no-faults']) {
      const stop = { stopped: false };
      const actors = [...investors.map((investor) => investorLoop({ investor, pool, stop, request, ledger })),
        ...Array.from({ length: 3 }, () => readerLoop({ investors, stop, request, ledger }))];
      const faults = makeFaults(relay);
      const inject = async (name, run) => {
        await sleep(SCALE.loadMs);
        const started = Date.now();
        const failedBefore = ledger.failures();
        await run();
        const recovery = await measureRecovery({ request, investor: investors[0], subscribers, limitMs: RECOVERY_LIMIT_MS });
        // What was in flight when the fault healed has had its answer too.
        await sleep(1000);
        recoveries.push([name, `${((Date.now() - started) / 1000).toFixed(1)} s`,
          recovery === null ? `not within ${RECOVERY_LIMIT_MS / 1000} s` : `${recovery} ms`, ledger.failures() - failedBefore]);
        if (recovery === null) passed = false;
        return ledger.failures() - failedBefore;
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
    printTable(['operation', ...OUTCOMES], ledger.rows());
    console.log('');
    if (recoveries.length > 0) {
      printTable(['fault', 'lasted', 'recovered in', 'operations failed'], recoveries);
      console.log('');
    }
    const { rows: invariants } = await checkInvariants({
      investors, subscribers, sql, request, batch: 'faults',
      treasuryPublicKey: (await netgraphctl('treasury', 'pubkey')).trim(),
    });
    if (workerKills.failed !== null) {
      invariants.push(['a killed pool worker costs at most the request it serves',
        workerKills.failed <= workerKills.alone ? 'holds' : 'VIOLATED',
        `${workerKills.failed} operations failed while ${workerKills.alone} workers were killed one by one`]);
    }
    printTable(['invariant', 'verdict', 'detail'], invariants);
    if (ledger.unclean.length > 0) console.log(`\nunclean failures (first ${ledger.unclean.length}):\n  ${ledger.unclean.join('\n  ')}`);
    passed = passed && !ledger.bad() && invariants.every(([, verdict]) => verdict === 'holds');
  } finally {
    await Promise.all(subscribers.map((s) => s.close()));
    await relay.close();
    if (!flags.keep) await stack('down');
  }
  console.log(passed ? '\nfaults: every invariant holds' : '\nfaults: FAILED');
  process.exitCode = passed ? 0 : 1;
}

await main();
