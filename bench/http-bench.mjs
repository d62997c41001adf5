#!/usr/bin/env node
// End-to-end HTTP benchmark: netgraph through nginx against a Node peer behind the same nginx and
// against nginx serving netgraph's own answers as static files, measured interleaved in one run on
// one machine, so the figures are ratios that mean something on any machine.
//
//   node bench/http-bench.mjs [--seconds 8] [--rounds 3] [--connections 32] [--nodes 1000]
//                             [--vouchers 10000]
//                             [--large 100000] [--scoreboard-cost] [--keep-conn-off] [--json]
//                             [--check | --check-gross] [--keep-stack]
//
// What it does:
//   1. brings up a private stack (scripts/stack, run directory .run-bench, ports from
//      NETGRAPH_BENCH_PORT_BASE, default 19100: stack +0..+2, bench nginx +3..+5 and +7, Node
//      peer +6);
//   2. imports a graph of --nodes nodes and twice as many links (netgraphctl graph import), and
//      --vouchers claimed vouchers of --vouchers/5 investors (what investmentData sums);
//   3. starts the Node reference server (bench/reference-server: mercurius + graphql-jit, one process
//      per pool worker, node-postgres running netgraph's SQL) and one nginx with three servers
//      (bench/nginx.conf.template);
//   4. for each round, each document, each server: wrk -t1 -c<connections> for --seconds, sampling
//      the CPU time of nginx, the pool (or the Node processes) and PostgreSQL from /proc;
//   5. reports medians over the rounds: req/s, p50/p99 latency, CPU µs per request, the ratios and
//      the targets of docs/benchmarks.md; with --large, the networkGraph cost with the pool's read
//      cache off (NETGRAPH_READ_CACHE=off), on --nodes and again on a graph of that many nodes.
//      --check exits 1 when a target is missed; --check-gross only when a figure is below half of
//      its target (the short pass scripts/test could run);
//   6. what the pool's scoreboard costs on `{ __typename }`: its calls per request timed by
//      bench/scoreboard_bench.cc, as a share of the CPU such a request costs (scoreboardShare); with
//      --scoreboard-cost also directly, the pool restarted with NETGRAPH_SCOREBOARD=off and on in
//      turn, in at least five interleaved pairs (see measureScoreboardCost);
//   7. with --keep-conn-off, what keeping nginx's connections to the pool buys: `{ __typename }` and
//      networkGraph also through a server whose locations say `fastcgi_keep_conn off` (a connection
//      per request: no hand-off, no watcher at work), in the same rounds, interleaved with the
//      kept-alive ones (peer netgraph-close; docs/architecture.md quotes the figures).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { writeFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  benchRun, buildDir, childrenOf, cpuDelta, cpuOf, failedChecks, fmt, judge, log, machine, median,
  netgraphctl, poolPid, ports, postmasterPid, printMachine, printVerdicts, processTree, psql,
  requireTools, restartPool, rssMiB, runMain, setQuiet, stackUp, startNginx, startReferenceServer,
  usage as usageOf,
} from './bench-stack.mjs';

const { values: opts } = parseArgs({
  options: {
    seconds: { type: 'string', default: '8' },
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '32' },
    nodes: { type: 'string', default: '1000' },
    vouchers: { type: 'string', default: '10000' },
    large: { type: 'string' },
    'scoreboard-cost': { type: 'boolean', default: false },
    'keep-conn-off': { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
    check: { type: 'boolean', default: false },
    'check-gross': { type: 'boolean', default: false },
    'keep-stack': { type: 'boolean', default: false },
  },
});
const seconds = Number(opts.seconds);
const rounds = Number(opts.rounds);
const connections = Number(opts.connections);
const nodeCount = Number(opts.nodes);
const voucherCount = Number(opts.vouchers);
const largeCount = opts.large ? Number(opts.large) : null;
for (const [name, value] of [['seconds', seconds], ['rounds', rounds], ['connections', connections], ['nodes', nodeCount],
  ['vouchers', voucherCount]]) {
  if (!(value > 0)) usage(`--${name} must be a positive number`);
}
if (largeCount !== null && !(largeCount > nodeCount)) usage('--large must exceed --nodes');

function usage(problem) {
  usageOf('http-bench', problem);
}
setQuiet(opts.json);

// --- the targets of issue 11, as ratios measured in this run ------------------------------------
const targets = [
  { name: 'networkGraph(limit: 100) vs the Node server', key: 'networkGraph_vs_node', min: 10 },
  { name: 'networkGraph(limit: 100) vs static nginx', key: 'networkGraph_vs_static', min: 0.35 },
  { name: '{ __typename } vs the Node server', key: 'typename_vs_node', min: 1.5 },
  { name: 'investmentData vs the Node server', key: 'investmentData_vs_node', min: 10 },
  { name: 'networkGraph p99 at -c8 (µs)', key: 'networkGraph_p99_c8_us', max: 2000 },
  { name: 'largest pool worker RSS after the run (MiB)', key: 'worker_rss_mib', max: 32 },
  { name: 'networkGraph cost at --large vs --nodes', key: 'networkGraph_large_cost_ratio', max: 1.5 },
  { name: 'scoreboard cost on { __typename } (%)', key: 'scoreboard_cost_percent', max: 2 },
  // A GET whose If-None-Match names the current answer: the pool's 304 from its read cache, against
  // nginx's own 304 for the static file (docs/api.md, "Caching").
  { name: 'networkGraph 304 revalidation vs static nginx 304', key: 'revalidation_vs_static', min: 0.35 },
  // A GET that names the document by its hash only (docs/api.md, "Persisted documents"): the short,
  // cacheable URL, against nginx serving the same answer as a file.
  { name: 'networkGraph persisted GET vs static nginx', key: 'persisted_get_vs_static', min: 0.35 },
  // A user's getUserPortfolio with a token, from the worker's portfolio cache while the user's data
  // is unchanged (issue 27: docs/architecture.md, "The portfolio cache"), against the public read.
  { name: 'getUserPortfolio with a token vs networkGraph(limit: 100)', key: 'portfolio_vs_networkGraph', min: 0.5 },
];

// --- data ------------------------------------------------------------------------------------------
// A deterministic graph: node i links to two nodes already imported (links need both ends).
function importGraph(env, from, to) {
  const types = ['wallet', 'validator', 'exchange', 'contract'];
  const chunk = 20000;
  for (let start = from; start < to; start += chunk) {
    const end = Math.min(to, start + chunk);
    const nodes = [];
    const links = [];
    for (let i = start; i < end; i++) {
      nodes.push({ id: `bench-${i}`, type: types[i % types.length], labels: ['bench', `group-${i % 10}`] });
      links.push({ source: `bench-${i}`, target: `bench-${(i * 7 + 1) % end}`, type: 'transfer' });
      links.push({ source: `bench-${i}`, target: `bench-${(i * 13 + 5) % end}`, type: 'stake' });
    }
    netgraphctl(env, ['graph', 'import', '-'], JSON.stringify({ nodes, links }));
  }
}

// Claimed vouchers in the current round, five per investor, each investor with one wallet: what
// investmentData sums. The service keeps those sums as vouchers change (core/store/migrations/
// 0003_read_costs.sql); the Node peer aggregates every voucher per request, as netgraph did before.
// Claims are written directly in SQL: this sets up data, it does not measure claiming. Tops the
// batch up to --vouchers, so a stack kept from an earlier run is not loaded twice.
function loadInvestors(env, count) {
  const sql = (text) => psql(env, text);
  const have = Number(sql("SELECT count(*) FROM vouchers WHERE batch = 'bench'"));
  for (let left = count - have; left > 0; left -= 10000) {
    netgraphctl(env, ['vouchers', 'issue', '--amount', '100', '--count', String(Math.min(left, 10000)), '--batch', 'bench']);
  }
  const investors = Math.max(1, Math.ceil(count / 5));
  sql(`INSERT INTO users (idp_did) SELECT 'did:netgraph:bench-' || g FROM generate_series(1, ${investors}) g
         ON CONFLICT DO NOTHING;
       INSERT INTO wallets (address, user_id)
         SELECT 'Bench' || translate(lpad(u.id::text, 32, '1'), '0', 'z'), u.id FROM users u
         WHERE u.idp_did LIKE 'did:netgraph:bench-%' ON CONFLICT DO NOTHING;
       WITH v AS (SELECT id, row_number() OVER (ORDER BY id) AS n FROM vouchers
                  WHERE batch = 'bench' AND status = 'AVAILABLE'),
            w AS (SELECT address, user_id, row_number() OVER (ORDER BY user_id) AS n FROM wallets
                  WHERE address LIKE 'Bench%')
       UPDATE vouchers SET status = 'CLAIMED', user_id = w.user_id, wallet_address = w.address,
                           claimed_at = now()
       FROM v JOIN w ON w.n = v.n % (SELECT count(*) FROM w) + 1 WHERE vouchers.id = v.id`);
}

// --- documents -------------------------------------------------------------------------------------
const documents = {
  networkGraph: {
    query: 'query NetworkGraph { networkGraph(limit: 100) { nodes { id type labels } links { source target type } ' +
      'metadata { nodeCount linkCount lastUpdated } } }',
    peers: ['netgraph', 'node', 'static'],
  },
  typename: { query: '{ __typename }', peers: ['netgraph', 'node', 'static'] },
  investmentData: {
    query: 'query InvestmentData { investmentData { tokenName tokenSymbol currentRound roundRaised roundTarget ' +
      'investorCount currentPrice marketCap } }',
    peers: ['netgraph', 'node', 'static'],
  },
  // The networkGraph answer revalidated: a GET with If-None-Match naming its ETag, answered 304
  // (the static peer: nginx's 304 for the same answer as a file).
  networkGraph304: {
    query: 'query NetworkGraph { networkGraph(limit: 100) { nodes { id type labels } links { source target type } ' +
      'metadata { nodeCount linkCount lastUpdated } } }',
    peers: ['netgraph', 'static'],
    revalidate: true,
  },
  // The networkGraph document as a persisted query: a GET with only its hash in `extensions`
  // (registered once before the runs, as Apollo's link does on its first request).
  networkGraphPersisted: {
    query: 'query NetworkGraph { networkGraph(limit: 100) { nodes { id type labels } links { source target type } ' +
      'metadata { nodeCount linkCount lastUpdated } } }',
    peers: ['netgraph', 'static'],
    persisted: true,
  },
  // Per-user data behind a token: netgraph only (the Node peer serves the public reads).
  getUserPortfolio: {
    query: 'query Portfolio { getUserPortfolio { success error data { user { idpDid email wallets } ' +
      'vouchers { id code amount status redeemed walletAddress claimedAt } ' +
      'balances { encryptedBalance confidentialPublicKey tokenAccount } ' +
      'summary { totalInvestments totalVouchers hasConfidentialBalance } } } }',
    peers: ['netgraph'],
    authenticated: true,
  },
};

// With --keep-conn-off, the documents measured on netgraph-close as well.
if (opts['keep-conn-off']) {
  for (const name of ['networkGraph', 'typename']) documents[name].peers.push('netgraph-close');
}

// netgraph-close is netgraph's pool behind locations with fastcgi_keep_conn off.
const poolPeers = ['netgraph', 'netgraph-close'];

function urlOf(peer, name) {
  if (peer === 'static') return `http://127.0.0.1:${ports.static}/${name}.json`;
  const port = { netgraph: ports.netgraph, 'netgraph-close': ports.netgraphClose, node: ports.node }[peer];
  const doc = documents[name];
  if (doc.persisted) return `http://127.0.0.1:${port}/graphql?extensions=${encodeURIComponent(JSON.stringify(persistedQuery(doc)))}`;
  return `http://127.0.0.1:${port}/graphql${doc.revalidate ? `?query=${encodeURIComponent(doc.query)}` : ''}`;
}

function persistedQuery(doc) {
  return { persistedQuery: { version: 1, sha256Hash: createHash('sha256').update(doc.query).digest('hex') } };
}

// Registers a persisted document on `peer` (its query with its hash) and checks that a GET by the
// hash alone is then answered with the same data.
async function registerPersisted(peer, name) {
  const doc = documents[name];
  const registered = await fetch(urlOf(peer, name).split('?')[0], {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: doc.query, extensions: persistedQuery(doc) }),
  });
  const byHash = await fetch(urlOf(peer, name));
  const text = await byHash.text();
  if (registered.status !== 200 || byHash.status !== 200 || JSON.parse(text).errors) {
    throw new Error(`bench: ${peer} does not serve ${name} by its hash (${registered.status}, ${byHash.status}): ${text.slice(0, 300)}`);
  }
  return text;
}

// The ETag of a revalidated document's answer on each peer, checked to be answered 304.
const entityTags = {};
async function learnEntityTag(peer, name) {
  const url = urlOf(peer, name);
  const tag = (await fetch(url)).headers.get('etag');
  const again = await fetch(url, { headers: { 'if-none-match': tag ?? '' } });
  if (!tag || again.status !== 304) throw new Error(`bench: ${peer} does not revalidate ${name} (${tag}, ${again.status})`);
  entityTags[`${peer}/${name}`] = tag;
}

async function fetchAnswer(peer, name, token) {
  const doc = documents[name];
  const response = await fetch(urlOf(peer, name), {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(doc.authenticated ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query: doc.query }),
  });
  const text = await response.text();
  const body = JSON.parse(text);
  if (response.status !== 200 || body.errors) {
    throw new Error(`bench: ${peer} answered ${name} with ${response.status}: ${text.slice(0, 300)}`);
  }
  return { text, body };
}

function wrkScript(peer, name, token) {
  const file = path.join(benchRun, `${peer}-${name}.lua`);
  const doc = documents[name];
  const lines = [];
  if (doc.revalidate) {
    lines.push(`wrk.headers["If-None-Match"] = [==[${entityTags[`${peer}/${name}`]}]==]`);
  } else if (peer !== 'static' && !doc.persisted) {
    lines.push('wrk.method = "POST"');
    lines.push(`wrk.body = [==[${JSON.stringify({ query: doc.query })}]==]`);
    lines.push('wrk.headers["Content-Type"] = "application/json"');
    if (doc.authenticated) lines.push(`wrk.headers["Authorization"] = "Bearer ${token}"`);
  }
  lines.push(
    'function done(summary, latency, requests)',
    '  local e = summary.errors',
    '  io.write(string.format("WRK %d %d %d %d %d %d\\n", summary.requests, summary.duration,',
    '    e.connect + e.read + e.write + e.timeout, e.status, latency:percentile(50), latency:percentile(99)))',
    'end');
  writeFileSync(file, lines.join('\n') + '\n');
  return file;
}

function runWrk(url, script, clients, duration) {
  const out = execFileSync('wrk', ['-t1', `-c${clients}`, `-d${duration}s`, '-s', script, url], { encoding: 'utf8' });
  const match = /WRK (\d+) (\d+) (\d+) (\d+) (\d+) (\d+)/.exec(out);
  if (!match) throw new Error(`bench: wrk printed no summary:\n${out}`);
  const [requests, durationUs, errors, non2xx, p50, p99] = match.slice(1).map(Number);
  return { requests, rps: requests / (durationUs / 1e6), errors, non2xx, p50, p99 };
}

// The processes whose CPU a request to `peer` costs: nginx, the server, PostgreSQL.
function groupPids(groups, peer) {
  return {
    nginx: processTree(groups.nginx),
    server: peer === 'static' ? [] : processTree(poolPeers.includes(peer) ? groups.pool : groups.node),
    postgres: peer === 'static' ? [] : processTree(groups.postgres),
  };
}

// One measurement: wrk against `peer`, with the CPU each process group spent per request.
function measure(groups, peer, name, token, clients = connections) {
  const pids = groupPids(groups, peer);
  const before = Object.fromEntries(Object.entries(pids).map(([k, v]) => [k, cpuOf(v)]));
  const result = runWrk(urlOf(peer, name), wrkScript(peer, name, token), clients, seconds);
  // Processes started during the run (a new PostgreSQL backend) count from zero.
  const after = groupPids(groups, peer);
  const cpu = {};
  for (const [k, v] of Object.entries(after)) {
    cpu[k] = cpuDelta(before[k], cpuOf([...new Set([...pids[k], ...v])])) / Math.max(1, result.requests);
  }
  if (result.errors || result.non2xx) {
    throw new Error(`bench: ${peer} ${name}: ${result.errors} socket errors, ${result.non2xx} non-2xx answers`);
  }
  return { ...result, cpu };
}

function summarize(samples) {
  return {
    rps: median(samples.map((s) => s.rps)),
    p50_us: median(samples.map((s) => s.p50)),
    p99_us: median(samples.map((s) => s.p99)),
    cpu_us: {
      nginx: median(samples.map((s) => s.cpu.nginx)),
      server: median(samples.map((s) => s.cpu.server)),
      postgres: median(samples.map((s) => s.cpu.postgres)),
    },
  };
}

// --- the scoreboard's cost (issue 14) -------------------------------------------------------------
// The figure: what the scoreboard's calls cost a worker per request (bench/scoreboard_bench.cc, timed
// here) as a share of the CPU a `{ __typename }` request cost nginx and the pool in this run's
// rounds. On saturated CPUs throughput goes as the inverse of CPU per request, so this share is the
// throughput the scoreboard takes, without the start-to-start noise of two pools' req/s.
function scoreboardShare(typename) {
  const output = execFileSync(path.join(buildDir, 'bin/scoreboard_bench'),
    ['--benchmark_format=json', '--benchmark_min_time=0.5'], { encoding: 'utf8' });
  const [run] = JSON.parse(output).benchmarks;
  const perRequestNs = run.time_unit === 'ns' ? run.cpu_time : Number.NaN;
  const requestUs = typename.cpu_us.nginx + typename.cpu_us.server;
  return { scoreboard_ns: perRequestNs, typename_cpu_us: requestUs, percent: (100 * perRequestNs) / 1000 / requestUs };
}

// With --scoreboard-cost, the direct view as well:
// `{ __typename }` through the bench nginx with the pool's scoreboard off and on
// (NETGRAPH_SCOREBOARD), the pool restarted before each measurement. The two settings are measured
// in pairs, each pair right after the other and in alternating order, so that what else the
// machine does falls on both alike; the cost is the median of the pairs' 1 - on/off, and the
// pairs' spread is reported with it: on a shared machine a single pair can be off by several
// percent either way. Reported beside it, as a second view: the same cost estimated from the CPU
// time nginx and the pool spent per request (a saturated machine's throughput goes as its
// inverse), 1 - CPU off / CPU on.
const scoreboardPairs = Math.max(5, rounds);

function measureScoreboardCost(groups, token) {
  const samples = { off: [], on: [] };
  const pairCostsPercent = [];
  const pairCpuCostsPercent = [];
  const cpuPerRequest = (sample) => sample.cpu.nginx + sample.cpu.server;
  for (let pair = 1; pair <= scoreboardPairs; pair++) {
    const rps = {};
    const cpu = {};
    for (const setting of pair % 2 ? ['off', 'on'] : ['on', 'off']) {
      groups.pool = restartPool(groups.pool, { NETGRAPH_SCOREBOARD: setting });
      runWrk(urlOf('netgraph', 'typename'), wrkScript('netgraph', 'typename', token), connections, 1);
      log(`bench: pair ${pair}/${scoreboardPairs}: { __typename } with the scoreboard ${setting}`);
      const sample = measure(groups, 'netgraph', 'typename', token);
      samples[setting].push(sample);
      rps[setting] = sample.rps;
      cpu[setting] = cpuPerRequest(sample);
    }
    pairCostsPercent.push(100 * (1 - rps.on / rps.off));
    pairCpuCostsPercent.push(100 * (1 - cpu.off / cpu.on));
  }
  return {
    samples,
    report: {
      pair_costs_percent: pairCostsPercent,
      pair_cpu_costs_percent: pairCpuCostsPercent,
      cpu_cost_percent: median(pairCpuCostsPercent),
      off_rps: samples.off.map((s) => s.rps),
      on_rps: samples.on.map((s) => s.rps),
    },
  };
}

async function main() {
  requireTools('http-bench', ['wrk', 'nginx']);
  rmSync(benchRun, { recursive: true, force: true });
  const env = stackUp({ keepStack: opts['keep-stack'] });
  const workers = Number(env.NETGRAPH_WORKERS ?? os.availableParallelism());
  log(`bench: importing ${nodeCount} nodes and ${2 * nodeCount} links`);
  importGraph(env, 0, nodeCount);
  log(`bench: ${voucherCount} claimed vouchers, five per investor`);
  loadInvestors(env, voucherCount);
  const token = netgraphctl(env, ['token', 'mint', '--sub', 'did:netgraph:demo-investor', '--ttl', '86400']).trim();

  const groups = {
    pool: poolPid(),
    postgres: postmasterPid(),
    node: await startReferenceServer(env, workers),
    nginx: await startNginx(workers),
  };

  // Every peer answers every document correctly before anything is timed; the static files are
  // netgraph's own answers, byte for byte.
  for (const name of Object.keys(documents)) {
    if (documents[name].revalidate || documents[name].persisted) continue;
    const ours = await fetchAnswer('netgraph', name, token);
    if (documents[name].peers.includes('netgraph-close')) await fetchAnswer('netgraph-close', name, token);
    writeFileSync(path.join(benchRun, 'static', `${name}.json`), ours.text);
    if (documents[name].peers.includes('node')) {
      const theirs = await fetchAnswer('node', name, token);
      if (JSON.stringify(Object.keys(theirs.body.data)) !== JSON.stringify(Object.keys(ours.body.data))) {
        throw new Error(`bench: the reference server's ${name} differs in shape`);
      }
      if (name === 'networkGraph' &&
          theirs.body.data.networkGraph.metadata.nodeCount !== ours.body.data.networkGraph.metadata.nodeCount) {
        throw new Error('bench: the reference server returned another graph');
      }
    }
  }

  for (const [name, doc] of Object.entries(documents)) {
    if (!doc.revalidate) continue;
    writeFileSync(path.join(benchRun, 'static', `${name}.json`), (await fetchAnswer('netgraph', 'networkGraph', token)).text);
    for (const peer of doc.peers) await learnEntityTag(peer, name);
  }
  for (const [name, doc] of Object.entries(documents)) {
    if (!doc.persisted) continue;
    writeFileSync(path.join(benchRun, 'static', `${name}.json`), await registerPersisted('netgraph', name));
  }

  // Warm-up: caches, prepared statements, JIT compilation.
  for (const [name, doc] of Object.entries(documents)) {
    for (const peer of doc.peers) runWrk(urlOf(peer, name), wrkScript(peer, name, token), connections, 1);
  }

  const samples = {};
  for (let round = 1; round <= rounds; round++) {
    for (const [name, doc] of Object.entries(documents)) {
      for (const peer of doc.peers) {
        log(`bench: round ${round}/${rounds}: ${name} on ${peer}`);
        (samples[`${name}/${peer}`] ??= []).push(measure(groups, peer, name, token));
      }
    }
    log(`bench: round ${round}/${rounds}: networkGraph on netgraph at -c8`);
    (samples['networkGraph/netgraph/c8'] ??= []).push(measure(groups, 'netgraph', 'networkGraph', token, 8));
    (samples['networkGraph/node/c8'] ??= []).push(measure(groups, 'node', 'networkGraph', token, 8));
  }
  const results = Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, summarize(v)]));
  const workerRss = Math.max(0, ...childrenOf(groups.pool).map(rssMiB));

  const figures = {
    networkGraph_vs_node: results['networkGraph/netgraph'].rps / results['networkGraph/node'].rps,
    networkGraph_vs_static: results['networkGraph/netgraph'].rps / results['networkGraph/static'].rps,
    typename_vs_node: results['typename/netgraph'].rps / results['typename/node'].rps,
    investmentData_vs_node: results['investmentData/netgraph'].rps / results['investmentData/node'].rps,
    revalidation_vs_static: results['networkGraph304/netgraph'].rps / results['networkGraph304/static'].rps,
    persisted_get_vs_static: results['networkGraphPersisted/netgraph'].rps / results['networkGraphPersisted/static'].rps,
    portfolio_vs_networkGraph: results['getUserPortfolio/netgraph'].rps / results['networkGraph/netgraph'].rps,
    networkGraph_p99_c8_us: results['networkGraph/netgraph/c8'].p99_us,
    worker_rss_mib: workerRss,
  };

  if (largeCount !== null) {
    // The cost per request of the pool and PostgreSQL together: what grows if a statement reads
    // the whole graph instead of the answer. The read cache would hide it, so the pool runs with
    // the cache off (NETGRAPH_READ_CACHE=off) for both sizes.
    const cost = (r) => r.cpu_us.server + r.cpu_us.postgres;
    groups.pool = restartPool(groups.pool, { NETGRAPH_READ_CACHE: 'off' });
    runWrk(urlOf('netgraph', 'networkGraph'), wrkScript('netgraph', 'networkGraph', token), connections, 1);
    const uncached = { [nodeCount]: [], [largeCount]: [] };
    for (const size of [nodeCount, largeCount]) {
      if (size === largeCount) {
        log(`bench: growing the graph to ${largeCount} nodes`);
        importGraph(env, nodeCount, largeCount);
      }
      for (let round = 1; round <= rounds; round++) {
        log(`bench: round ${round}/${rounds}: uncached networkGraph on netgraph at ${size} nodes`);
        uncached[size].push(measure(groups, 'netgraph', 'networkGraph', token));
      }
      results[`networkGraph/netgraph/uncached/${size}-nodes`] = summarize(uncached[size]);
    }
    figures.networkGraph_large_cost_ratio =
      cost(results[`networkGraph/netgraph/uncached/${largeCount}-nodes`]) /
      cost(results[`networkGraph/netgraph/uncached/${nodeCount}-nodes`]);
  }

  const share = scoreboardShare(results['typename/netgraph']);
  figures.scoreboard_cost_percent = share.percent;
  let scoreboardCost = { share };
  if (opts['scoreboard-cost']) {
    const measured = measureScoreboardCost(groups, token);
    results['typename/netgraph/scoreboard-off'] = summarize(measured.samples.off);
    results['typename/netgraph/scoreboard-on'] = summarize(measured.samples.on);
    scoreboardCost = { share, ...measured.report };
  }

  const verdicts = judge(targets, figures);
  // What keeping nginx's connections to the pool buys: the same documents with a connection per
  // request, in the same rounds.
  const keepConn = opts['keep-conn-off'] ? Object.fromEntries(['typename', 'networkGraph'].map((name) => {
    const kept = results[`${name}/netgraph`];
    const closed = results[`${name}/netgraph-close`];
    const cpu = (r) => r.cpu_us.nginx + r.cpu_us.server;
    return [name, {
      kept_rps: kept.rps, closed_rps: closed.rps, rps_ratio: kept.rps / closed.rps,
      kept_cpu_us: cpu(kept), closed_cpu_us: cpu(closed), cpu_saved_us: cpu(closed) - cpu(kept),
    }];
  })) : null;
  const report = { machine: machine(), settings: { seconds, rounds, connections, nodes: nodeCount, vouchers: voucherCount, large: largeCount, workers }, results, figures, verdicts, scoreboard_cost: scoreboardCost, keep_conn: keepConn };
  if (opts.json) {
    console.log(JSON.stringify(report, null, 2));
  } else {
    printReport(report);
  }
  return failedChecks(verdicts, opts) ? 1 : 0;
}

function printReport({ machine, settings, results, verdicts, scoreboard_cost: scoreboardCost, keep_conn: keepConn }) {
  printMachine(machine);
  console.log(`wrk -t1 -c${settings.connections}, ${settings.seconds} s, median of ${settings.rounds} interleaved rounds; ` +
    `graph ${settings.nodes} nodes / ${2 * settings.nodes} links; ${settings.vouchers} claimed vouchers; ${settings.workers} pool workers, ${settings.workers} Node processes\n`);
  console.log('| document / server | req/s | p50 ms | p99 ms | CPU µs/req nginx | server | PostgreSQL |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  for (const [key, r] of Object.entries(results)) {
    console.log(`| ${key} | ${fmt(r.rps)} | ${fmt(r.p50_us / 1000, 2)} | ${fmt(r.p99_us / 1000, 2)} | ` +
      `${fmt(r.cpu_us.nginx)} | ${fmt(r.cpu_us.server)} | ${fmt(r.cpu_us.postgres)} |`);
  }
  printVerdicts(verdicts);
  if (keepConn) {
    console.log('\n| keep-alive with the hand-off vs fastcgi_keep_conn off | req/s kept | req/s closed | ratio | ' +
      'nginx + pool CPU µs/req kept | closed | saved |');
    console.log('|---|---:|---:|---:|---:|---:|---:|');
    for (const [name, k] of Object.entries(keepConn)) {
      console.log(`| ${name} | ${fmt(k.kept_rps)} | ${fmt(k.closed_rps)} | ${fmt(k.rps_ratio, 2)} | ` +
        `${fmt(k.kept_cpu_us)} | ${fmt(k.closed_cpu_us)} | ${fmt(k.cpu_saved_us)} |`);
    }
  }
  const { share } = scoreboardCost;
  console.log(`\nscoreboard: ${fmt(share.scoreboard_ns, 1)} ns per request (bench/scoreboard_bench.cc) of ` +
    `${fmt(share.typename_cpu_us)} µs of nginx and pool CPU per { __typename } request: ${fmt(share.percent, 3)} %`);
  if (scoreboardCost.pair_costs_percent) {
    const list = (values, digits) => values.map((v) => fmt(v, digits)).join(', ');
    console.log(`\nscoreboard cost per pair (%): ${list(scoreboardCost.pair_costs_percent, 1)}; ` +
      `req/s off: ${list(scoreboardCost.off_rps)}; on: ${list(scoreboardCost.on_rps)}`);
    console.log(`scoreboard cost from nginx + pool CPU per request (%): median ${fmt(scoreboardCost.cpu_cost_percent, 1)}; ` +
      `per pair: ${list(scoreboardCost.pair_cpu_costs_percent, 1)}`);
  }
}

await runMain(main);
