#!/usr/bin/env node
// Fan-out load generator for netgraph-ws: N WebSocket subscribers (graphql-transport-ws, all held by
// bench/ws_subscribers.cc, one epoll loop) connect through nginx and subscribe to networkUpdated; M updates
// are then published to Redis at a fixed rate (open loop: each publish is scheduled, not paced by
// deliveries, so a slow server shows up as latency instead of hiding it). Reports delivery latency
// from PUBLISH to receipt (p50/p90/p99/max), deliveries per second, and the ws process's resident
// memory per connection (RSS growth while the subscribers connected, from /proc), and the bytes
// the subscribers read from their sockets per delivery (frames included, as nginx sent them).
//
//   node bench/ws-fanout.mjs [--clients 2000] [--updates 100] [--rate 20] [--url ws://...]
//                            [--redis redis://...] [--pid PID] [--json] [--deflate]
//                            [--compare-deflate ROUNDS] [--claim-shaped]
//
// --deflate: the subscribers negotiate permessage-deflate, which netgraph-ws offers only with
// bench/ws-permessage-deflate.patch applied (docs/benchmarks.md says why). --compare-deflate N: N rounds without and N with, interleaved
// (so a machine's changing load falls on both alike), then the medians and their ratios.
// --claim-shaped: each update is shaped like a claim's (a new investor and a new wallet with random
// ids, the round, two links) instead of one node: what compression meets in production.
//
// Defaults come from the stack's environment (NETGRAPH_WS_URL, REDIS_URL, NETGRAPH_RUN_DIR/ws.pid).
// The client runs on the same machine as the server: compare runs on one machine, not absolute
// numbers across machines (docs/benchmarks.md).
import { randomBytes } from 'node:crypto';
import { readFileSync, existsSync, writeFileSync } from 'node:fs';
import { publisher as redisPublisher, signUpdate, updateSigningKey } from '../tests/support/redis.mjs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import * as bench from './bench-stack.mjs';

const { values: args } = parseArgs({
  options: {
    clients: { type: 'string', default: '2000' },
    updates: { type: 'string', default: '100' },
    rate: { type: 'string', default: '20' },  // updates per second
    url: { type: 'string', default: process.env.NETGRAPH_WS_URL ?? 'ws://127.0.0.1:8080/graphql' },
    redis: { type: 'string', default: process.env.REDIS_URL ?? 'redis://127.0.0.1:56379' },
    pid: { type: 'string' },
    'connect-batch': { type: 'string', default: '200' },
    json: { type: 'boolean', default: false },
    deflate: { type: 'boolean', default: false },
    'claim-shaped': { type: 'boolean', default: false },
    'compare-deflate': { type: 'string' },
    'drain-seconds': { type: 'string', default: '60' },
    compare: { type: 'boolean', default: false },
    rounds: { type: 'string', default: '3' },
    'saturation-clients': { type: 'string', default: '2000' },
    'saturation-updates': { type: 'string', default: '200' },
    'saturation-rate': { type: 'string', default: '200' },
    'latency-clients': { type: 'string', default: '10000' },
    'latency-updates': { type: 'string', default: '60' },
    'peer-latency': { type: 'boolean', default: false },
    check: { type: 'boolean', default: false },
    'keep-stack': { type: 'boolean', default: false },
  },
});
// The subscribers are bench/ws_subscribers.cc, built with the benchmarks.
const subscribersBinary = path.join(bench.buildDir, 'bin/ws_subscribers');
if (!existsSync(subscribersBinary)) {
  console.error(`ws-fanout: ${subscribersBinary} is missing: build it with the benchmarks `
    + '(cmake --preset release -DNETGRAPH_BENCH=ON && cmake --build --preset release --target ws_subscribers)');
  process.exit(2);
}
if (args.compare) await compareWithPeer();
if (args['compare-deflate']) compareDeflate(Number(args['compare-deflate']));
const clients = Number(args.clients);
const updates = Number(args.updates);
const rate = Number(args.rate);
const redis = new URL(args.redis);
const query = 'subscription Bench { networkUpdated { nodes { id type labels } links { source target type } metadata { nodeCount linkCount lastUpdated } } }';
const run = `bench-${process.pid}-${Date.now().toString(36)}`;

function wsPid() {
  if (args.pid) return Number(args.pid);
  const file = path.join(process.env.NETGRAPH_RUN_DIR ?? path.resolve(import.meta.dirname, '../.run'), 'ws.pid');
  return existsSync(file) ? Number(readFileSync(file, 'utf8').trim()) : null;
}

// User + system CPU seconds the process has used so far (/proc/PID/stat, clock ticks of 100 Hz).
function cpuSeconds(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

function rssKiB(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+) kB/.exec(status)[1]);
  } catch {
    return null;
  }
}

function update(index) {
  if (args['claim-shaped']) {
    const investor = `${run}-${index}`;
    const wallet = `wallet-${randomBytes(10).toString('hex')}`;
    return JSON.stringify({
      nodes: [
        { id: investor, type: 'Investor', labels: ['Investor'] },
        { id: wallet, type: 'Wallet', labels: ['Wallet'] },
        { id: 'round-2', type: 'Round', labels: ['Round', 'Seed'] },
      ],
      links: [{ source: investor, target: wallet, type: 'OWNS' }, { source: wallet, target: 'round-2', type: 'INVESTED_IN' }],
      metadata: { nodeCount: 3, linkCount: 2, lastUpdated: new Date().toISOString() },
    });
  }
  return JSON.stringify({
    nodes: [{ id: `${run}-${index}`, type: 'Wallet', labels: ['bench'] }],
    links: [{ source: `${run}-${index}`, target: 'round-1', type: 'CLAIMED_IN' }],
    metadata: { nodeCount: 1, linkCount: 1, lastUpdated: new Date().toISOString() },
  });
}

const publishedAt = new BigInt64Array(updates);

async function waitUntil(predicate, timeoutMs, what) {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const pid = wsPid();
const rssBefore = pid ? rssKiB(pid) : null;
// One Redis connection for all publishes, each update signed as the outbox relay signs it
// (NETGRAPH_UPDATE_SIGNING_KEY_FILE).
const signingKey = updateSigningKey();
const connection = await redisPublisher(redis.href);
const publisher = {
  publish: (channel, message) => connection.publish(channel, signUpdate(message, channel, signingKey)),
  close: () => connection.close(),
};

// The subscribers: bench/ws_subscribers.cc (its header says how this script drives it). A
// delivery is found by the marker `${run}-` and the update's index after it, in the node id.
const subscribers = spawn(subscribersBinary, [
  '--url', args.url, '--clients', String(clients), '--updates', String(updates), '--marker', `${run}-`,
  '--subscribe', JSON.stringify({ id: 'bench', type: 'subscribe', payload: { query, operationName: 'Bench' } }),
  '--connect-batch', args['connect-batch'], '--drain-seconds', args['drain-seconds'], '--deflate', args.deflate ? '1' : '0',
], { stdio: ['pipe', 'pipe', 'inherit'] });
const said = {};
createInterface({ input: subscribers.stdout }).on('line', (line) => {
  if (line.startsWith('{')) said.result = JSON.parse(line);
  else said[line.split(' ')[0]] = line.split(' ')[1] ?? true;
});
let subscribersExited = false;
subscribers.on('exit', () => { subscribersExited = true; });
const heard = (what, timeoutMs) => waitUntil(() => {
  if (subscribersExited && said[what] === undefined) throw new Error(`ws_subscribers exited before "${what}" (its error is above)`);
  return said[what] !== undefined;
}, timeoutMs, `ws_subscribers' "${what}"`);
await heard('subscribed', 600_000);
const connectSeconds = Number(said.subscribed);

// Warm-up: publish until every subscriber has its subscription in place.
for (let attempt = 0; !said.warm; attempt++) {
  if (attempt > 200) throw new Error('some subscribers never received the warm-up');
  await publisher.publish('netgraph:graph', JSON.stringify({ nodes: [{ id: `${run}--1`, type: 'Warm', labels: [] }], links: [], metadata: { nodeCount: 1, linkCount: 0, lastUpdated: null } }));
  await new Promise((resolve) => setTimeout(resolve, 100));
}
await new Promise((resolve) => setTimeout(resolve, 500));  // let the last warm-ups drain
const rssConnected = pid ? rssKiB(pid) : null;

// The measured run: M updates on a fixed schedule.
subscribers.stdin.write('start\n');
await heard('started', 10_000);
const cpuBefore = pid ? cpuSeconds(pid) : null;
const interval = 1000 / rate;
const start = performance.now() + 10;
for (let index = 0; index < updates; index++) {
  const due = start + index * interval;
  const wait = due - performance.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  publishedAt[index] = process.hrtime.bigint();  // CLOCK_MONOTONIC, as ws_subscribers' receipts
  publisher.publish('netgraph:graph', update(index));
}
subscribers.stdin.write(`times ${publishedAt.join(' ')}\n`);
await heard('result', (Number(args['drain-seconds']) + 30) * 1000);
const rssAfter = pid ? rssKiB(pid) : null;
const cpuUsed = pid && cpuBefore !== null ? cpuSeconds(pid) - cpuBefore : null;
subscribers.stdin.end('close\n');
publisher.close();

const subscribersRun = said.result;
const expected = clients * updates;
const delivered = subscribersRun.delivered;
const unexpectedCloses = subscribersRun.unexpected_closes;
const result = {
  clients, updates, rate, deflate: args.deflate, expected, delivered, missing: expected - delivered,
  unexpected_closes: unexpectedCloses,
  payload_bytes: subscribersRun.payload_bytes,
  // What the subscribers read off their sockets during the measured run, per delivery: frame
  // headers, and compressed payloads with --deflate (pings and pongs too, rare).
  wire_bytes_per_delivery: delivered ? Number((subscribersRun.wire_bytes / delivered).toFixed(1)) : null,
  connect_seconds: connectSeconds,
  deliveries_per_second: Math.round(delivered / subscribersRun.seconds),
  latency_ms: {
    p50: subscribersRun.latencies_ms.p50,
    p90: subscribersRun.latencies_ms.p90,
    p99: subscribersRun.latencies_ms.p99,
    max: subscribersRun.latencies_ms.max,
  },
  ws_pid: pid,
  ws_cpu_seconds: cpuUsed === null ? null : Number(cpuUsed.toFixed(2)),
  client_cpu_seconds: subscribersRun.cpu_seconds,
  ws_cpu_us_per_delivery: cpuUsed === null || !delivered ? null : Number(((cpuUsed * 1e6) / delivered).toFixed(2)),
  rss_kib: { before: rssBefore, connected: rssConnected, after: rssAfter },
  // RSS growth while the subscribers connected: meaningful on a freshly started process (memory
  // freed by earlier clients is reused without growing RSS).
  rss_per_connection_kib: rssBefore && rssConnected ? Number(((rssConnected - rssBefore) / clients).toFixed(2)) : null,
  machine: `${os.cpus()[0]?.model ?? 'unknown CPU'} x${os.availableParallelism()}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, load ${os.loadavg()[0].toFixed(1)}`,
};

if (args.json) {
  console.log(JSON.stringify(result));
} else {
  console.log(`netgraph-ws fan-out: ${clients} subscribers x ${updates} updates at ${rate}/s (${result.payload_bytes}-byte messages`
    + `${args.deflate ? ', permessage-deflate' : ''}: ${result.wire_bytes_per_delivery} bytes on the wire per delivery)`);
  console.log(`  delivered ${delivered}/${expected}  (missing ${result.missing}, unexpected closes ${unexpectedCloses})`);
  console.log(`  latency publish->receipt  p50 ${result.latency_ms.p50} ms  p90 ${result.latency_ms.p90} ms  p99 ${result.latency_ms.p99} ms  max ${result.latency_ms.max} ms`);
  console.log(`  throughput ${result.deliveries_per_second} deliveries/s; connecting took ${result.connect_seconds} s`);
  if (pid) {
    console.log(`  ws CPU ${result.ws_cpu_seconds} s for the run: ${result.ws_cpu_us_per_delivery} µs per delivery ` +
      `(this client: ${result.client_cpu_seconds} s)`);
    console.log(`  ws RSS ${rssBefore} KiB idle -> ${rssConnected} KiB with ${clients} subscribers -> ${rssAfter} KiB after the run: ${result.rss_per_connection_kib} KiB per connection`);
  } else {
    console.log('  ws RSS: unknown (no --pid and no NETGRAPH_RUN_DIR/ws.pid)');
  }
  console.log(`  machine: ${result.machine}`);
}
process.exit(result.missing === 0 && unexpectedCloses === 0 ? 0 : 1);

// --compare-deflate: this script run `rounds` times each way, alternately, one process per run; the
// medians of each way and with/without.
function compareDeflate(rounds) {
  const passed = [];
  for (let i = 2; i < process.argv.length; i++) {
    if (process.argv[i] === '--compare-deflate') i++;
    else if (!process.argv[i].startsWith('--compare-deflate=') && process.argv[i] !== '--deflate') passed.push(process.argv[i]);
  }
  const runs = { plain: [], deflate: [] };
  for (let round = 0; round < rounds; round++) {
    for (const way of round % 2 ? ['deflate', 'plain'] : ['plain', 'deflate']) {
      const child = spawnSync(process.execPath, [import.meta.filename, ...passed, '--json', ...(way === 'deflate' ? ['--deflate'] : [])],
        { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
      const line = child.stdout.trim().split('\n').pop();
      if (!line?.startsWith('{')) throw new Error(`round ${round} (${way}) failed: ${child.stdout}`);
      const run = JSON.parse(line);
      runs[way].push(run);
      console.log(`round ${round + 1} ${way.padEnd(7)} ${run.wire_bytes_per_delivery} B/delivery  ${run.ws_cpu_us_per_delivery} µs ws CPU/delivery  `
        + `${run.deliveries_per_second} deliveries/s  p99 ${run.latency_ms.p99} ms  client CPU ${run.client_cpu_seconds} s  missing ${run.missing}`);
    }
  }
  const median = (values) => { const v = values.filter((x) => x !== null).sort((a, b) => a - b); return v[Math.floor((v.length - 1) / 2)]; };
  const figures = {
    wire_bytes_per_delivery: 'B on the wire per delivery',
    ws_cpu_us_per_delivery: 'µs of netgraph-ws CPU per delivery',
    deliveries_per_second: 'deliveries/s',
    client_cpu_seconds: 's of this client\'s CPU per run',
  };
  console.log(`medians of ${rounds} rounds each (${runs.plain[0].machine}):`);
  for (const [key, what] of Object.entries(figures)) {
    const plain = median(runs.plain.map((r) => r[key]));
    const deflate = median(runs.deflate.map((r) => r[key]));
    console.log(`  ${what}: ${plain} without, ${deflate} with permessage-deflate (x${(deflate / plain).toFixed(2)})`);
  }
  const p99 = (way) => median(runs[way].map((r) => r.latency_ms.p99));
  console.log(`  p99 latency: ${p99('plain')} ms without, ${p99('deflate')} ms with`);
  console.log('  (RSS per connection is meaningful on a freshly started netgraph-ws only: one run with --pid after a restart)');
  process.exit(0);
}

// --compare: netgraph-ws and the Node peer (bench/reference-server/subscriptions.mjs: graphql-ws on
// graphql-js) on a private stack (bench/bench-stack.mjs: .run-wsbench, ports from
// NETGRAPH_BENCH_PORT_BASE), both behind the bench nginx, both fed by the same Redis channel, both
// measured by this script run as a child process (the same client). First, on a freshly started
// netgraph-ws, the latency run (--latency-clients x --latency-updates at 1 update/s), whose RSS growth
// is the memory per connection; then --rounds rounds of the saturation run (--saturation-clients x
// --saturation-updates at --saturation-rate, more than either server can deliver), netgraph-ws and
// the peer alternately first, so the machine's changing load falls on both alike.
async function compareWithPeer() {
  const { ports, log, fmt } = bench;
  bench.useStack({ name: 'wsbench' });
  bench.setQuiet(args.json);
  await bench.runMain(async () => {
    const env = bench.stackUp({ keepStack: args['keep-stack'], fresh: true });
    // 10,000 subscribers from one address (the client, through nginx) and a little room.
    const stackEnv = path.join(bench.stackRun, 'stack.env');
    const limits = 'NETGRAPH_WS_MAX_CONNECTIONS=12000\nNETGRAPH_WS_MAX_CONNECTIONS_PER_ADDRESS=12000\n';
    writeFileSync(stackEnv, readFileSync(stackEnv, 'utf8') + limits);
    const stack = (...command) => execFileSync(path.join(bench.repo, 'scripts/stack'), command, { env, stdio: ['ignore', 'ignore', 'inherit'] });
    stack('stop', 'ws');
    stack('start', 'ws');
    const netgraphPid = Number(readFileSync(path.join(bench.stackRun, 'ws.pid'), 'utf8').trim());
    const nginxPid = await bench.startNginx(Number(process.env.NETGRAPH_BENCH_NGINX_WORKERS ?? os.availableParallelism()));
    const peerPid = await bench.startSubscriptionsServer(env);
    const servers = {
      netgraph: { name: 'netgraph-ws', pid: netgraphPid, url: `ws://127.0.0.1:${ports.netgraph}/graphql` },
      peer: { name: 'graphql-ws (Node)', pid: peerPid, url: `ws://127.0.0.1:${ports.nodeSubscriptions}/graphql` },
    };
    const measure = (server, clients, updates, rate, drainSeconds) => {
      log(`ws-fanout: ${server.name}: ${clients} subscribers x ${updates} updates at ${rate}/s`);
      // nginx's CPU over the whole child run (connecting included), per delivery: what the proxy
      // between the client and the server costs on the shared machine.
      const nginxBefore = bench.treeCpuUs(nginxPid);
      const child = spawnSync(process.execPath, [import.meta.filename, '--json', '--url', server.url, '--redis', env.REDIS_URL,
        '--pid', String(server.pid), '--clients', String(clients), '--updates', String(updates), '--rate', String(rate),
        '--drain-seconds', String(drainSeconds)], { encoding: 'utf8', env, stdio: ['ignore', 'pipe', 'inherit'] });
      const line = child.stdout.trim().split('\n').pop();
      if (!line?.startsWith('{')) throw new Error(`${server.name}: the run printed no result (exit ${child.status})`);
      const result = JSON.parse(line);
      result.nginx_cpu_us_per_delivery = result.delivered ? Number(((bench.treeCpuUs(nginxPid) - nginxBefore) / result.delivered).toFixed(2)) : null;
      log(`ws-fanout: ${server.name}: ${result.delivered}/${result.expected} delivered, ${result.deliveries_per_second} deliveries/s, ` +
        `p99 ${result.latency_ms.p99} ms, ${result.ws_cpu_us_per_delivery} µs CPU per delivery, ${result.rss_per_connection_kib} KiB per connection, load ${os.loadavg()[0].toFixed(2)}`);
      // Let the closed sockets go before the next run connects.
      spawnSync('sleep', ['2']);
      return result;
    };
    const latencyClients = Number(args['latency-clients']);
    const latencyUpdates = Number(args['latency-updates']);
    const latency = { netgraph: measure(servers.netgraph, latencyClients, latencyUpdates, 1, 60) };
    if (args['peer-latency']) latency.peer = measure(servers.peer, latencyClients, latencyUpdates, 1, 60);
    const saturation = { netgraph: [], peer: [] };
    for (let round = 0; round < Number(args.rounds); round++) {
      for (const which of round % 2 ? ['peer', 'netgraph'] : ['netgraph', 'peer']) {
        saturation[which].push(measure(servers[which], Number(args['saturation-clients']), Number(args['saturation-updates']),
          Number(args['saturation-rate']), 300));
      }
    }
    const medianOf = (runs, key) => bench.median(runs.map((run) => run[key]));
    const netgraphRate = medianOf(saturation.netgraph, 'deliveries_per_second');
    const peerRate = medianOf(saturation.peer, 'deliveries_per_second');
    const latencyRun = latency.netgraph;
    const figures = {
      latency_missing: latencyRun.missing + latencyRun.unexpected_closes,
      latency_p99_ms: latencyRun.latency_ms.p99,
      saturation_ratio: netgraphRate / peerRate,
      rss_per_connection_kib: latencyRun.rss_per_connection_kib,
    };
    const targets = [
      { name: `${fmt(latencyClients)} subscribers at 1 update/s: deliveries missing or closes`, key: 'latency_missing', max: 0, grossMax: 0 },
      { name: `${fmt(latencyClients)} subscribers at 1 update/s: p99 latency (ms)`, key: 'latency_p99_ms', max: 100 },
      { name: 'deliveries/s at saturation, netgraph-ws / graphql-ws', key: 'saturation_ratio', min: 3 },
      { name: 'netgraph-ws RSS per connection (KiB, fresh process)', key: 'rss_per_connection_kib', max: 8 },
    ];
    const verdicts = bench.judge(targets, figures);
    const machine = bench.machine();
    const commit = spawnSync('git', ['-C', bench.repo, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).stdout.trim();
    if (args.json) {
      console.log(JSON.stringify({ commit, machine, latency, saturation, medians: { netgraph_deliveries_per_second: netgraphRate, peer_deliveries_per_second: peerRate }, figures, verdicts }));
    } else {
      const row = (what, run) => `| ${what} | ${run.clients} × ${run.updates} @ ${run.rate}/s | ${run.delivered}/${run.expected} | ${fmt(run.deliveries_per_second)} | ` +
        `${run.latency_ms.p50} | ${run.latency_ms.p99} | ${run.latency_ms.max} | ${run.ws_cpu_us_per_delivery} | ` +
        `${run.nginx_cpu_us_per_delivery} | ${fmt((run.client_cpu_seconds * 1e6) / run.delivered, 2)} | ${run.rss_per_connection_kib ?? ''} |`;
      console.log(`\ncommit ${commit}`);
      console.log('\n| server | subscribers × updates @ rate | delivered | deliveries/s | p50 ms | p99 ms | max ms | server CPU µs per delivery | nginx CPU µs per delivery | client CPU µs per delivery | RSS KiB per connection |');
      console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
      for (const which of ['netgraph', 'peer']) if (latency[which]) console.log(row(servers[which].name, latency[which]));
      for (let round = 0; round < saturation.netgraph.length; round++) {
        for (const which of ['netgraph', 'peer']) console.log(row(`${servers[which].name}, round ${round + 1}`, saturation[which][round]));
      }
      console.log(`\nsaturation medians: netgraph-ws ${fmt(netgraphRate)} deliveries/s, graphql-ws ${fmt(peerRate)} deliveries/s (×${(netgraphRate / peerRate).toFixed(2)})`);
      bench.printVerdicts(verdicts);
      bench.printMachine(machine);
    }
    return args.check ? (bench.failedChecks(verdicts, { check: true }) ? 1 : 0) : 0;
  });
}
