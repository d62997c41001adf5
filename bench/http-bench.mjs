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
import { spawn, spawnSync, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

const repo = path.resolve(import.meta.dirname, '..');
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
  console.error(`http-bench: ${problem}`);
  process.exit(64);
}

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
];

// --- ports and processes ------------------------------------------------------------------------
const base = Number(process.env.NETGRAPH_BENCH_PORT_BASE ?? 19100);
const ports = {
  stackHttp: base, pg: base + 1, redis: base + 2,
  netgraph: base + 3, node: base + 4, static: base + 5, nodeUpstream: base + 6, netgraphClose: base + 7,
};
const stackRun = path.join(repo, '.run-bench');
const benchRun = path.join(stackRun, 'bench');
const buildDir = process.env.NETGRAPH_BUILD_DIR ?? path.join(repo, 'build');
const stackEnvBase = {
  ...process.env,
  NETGRAPH_RUN_DIR: stackRun,
  NETGRAPH_HTTP_PORT: String(ports.stackHttp),
  NETGRAPH_PG_PORT: String(ports.pg),
  NETGRAPH_REDIS_PORT: String(ports.redis),
};
const cleanups = [];

function log(message) {
  if (!opts.json) console.error(message);
}

function readEnvFile(file) {
  const env = {};
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const match = /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(line);
    if (match) env[match[1]] = match[2];
  }
  return env;
}

function stackUp() {
  log('bench: bringing up the stack (scripts/stack up)');
  execFileSync(path.join(repo, 'scripts/stack'), ['up'], { env: stackEnvBase, stdio: ['ignore', 'ignore', 'inherit'] });
  cleanups.push(() => {
    if (!opts['keep-stack']) spawnSync(path.join(repo, 'scripts/stack'), ['down'], { env: stackEnvBase, stdio: 'ignore' });
  });
  return { ...stackEnvBase, ...readEnvFile(path.join(stackRun, 'stack.env')) };
}

// Replaces the stack's pool by one started with `settings` added to the stack's environment;
// returns the new master's pid.
function restartPool(pid, settings) {
  log(`bench: restarting the pool with ${Object.entries(settings).map(([k, v]) => `${k}=${v}`).join(' ')}`);
  process.kill(pid, 'SIGTERM');
  for (const deadline = Date.now() + 30000; Date.now() < deadline;) {
    if (spawnSync('kill', ['-0', String(pid)]).status !== 0) break;
    spawnSync('sleep', ['0.1']);
  }
  execFileSync(path.join(repo, 'scripts/stack'), ['up'], {
    env: { ...stackEnvBase, ...settings }, stdio: ['ignore', 'ignore', 'inherit'],
  });
  return Number(readFileSync(path.join(stackRun, 'fcgi.pid'), 'utf8').trim());
}

function netgraphctl(env, args, input) {
  return execFileSync(path.join(buildDir, 'bin/netgraphctl'), args, { env, input, encoding: 'utf8' });
}

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
  const sql = (text) => execFileSync('psql', [env.DATABASE_URL, '-qtA', '-v', 'ON_ERROR_STOP=1', '-c', text],
    { encoding: 'utf8' }).trim();
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

function childrenOf(pid) {
  const out = spawnSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' }).stdout.trim();
  return out ? out.split('\n').map(Number) : [];
}

function processTree(pid) {
  const all = [pid];
  for (let i = 0; i < all.length; i++) all.push(...childrenOf(all[i]));
  return all;
}

const clockTicks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());

// utime + stime of each process, in µs; a process gone since is simply absent.
function cpuOf(pids) {
  const cpu = new Map();
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      cpu.set(pid, ((Number(fields[11]) + Number(fields[12])) * 1e6) / clockTicks);
    } catch { /* exited */ }
  }
  return cpu;
}

function cpuDelta(before, after) {
  let total = 0;
  for (const [pid, value] of after) total += value - (before.get(pid) ?? 0);
  return total;
}

function rssMiB(pid) {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : 0;
  } catch { return 0; }
}

async function waitFor(what, predicate, timeoutMs = 30000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await predicate())) {
    if (Date.now() > deadline) throw new Error(`bench: timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function startReferenceServer(env, processes) {
  const dir = path.join(repo, 'bench/reference-server');
  if (!existsSync(path.join(dir, 'node_modules'))) {
    log('bench: installing the reference server (npm ci in bench/reference-server)');
    execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir, stdio: 'inherit' });
  }
  const child = spawn(process.execPath, [path.join(dir, 'server.mjs'), '--port', String(ports.nodeUpstream),
    '--processes', String(processes)], { env: { ...env, NODE_ENV: 'production' }, stdio: ['ignore', 'pipe', 'inherit'] });
  cleanups.push(() => child.kill('SIGTERM'));
  let ready = false;
  child.stdout.on('data', (data) => { if (String(data).includes('listening on')) ready = true; });
  child.on('exit', (code) => { if (!ready) console.error(`bench: the reference server exited (${code})`); });
  await waitFor('the reference server', () => ready);
  return child.pid;
}

async function startNginx(workers) {
  mkdirSync(path.join(benchRun, 'tmp'), { recursive: true });
  mkdirSync(path.join(benchRun, 'static'), { recursive: true });
  // netgraph's locations again with fastcgi_keep_conn off, for the netgraph-close server.
  const locations = readFileSync(path.join(repo, 'nginx/netgraph-locations.conf'), 'utf8');
  if (!/^fastcgi_keep_conn on;$/m.test(locations)) throw new Error('bench: netgraph-locations.conf no longer says fastcgi_keep_conn on');
  writeFileSync(path.join(benchRun, 'netgraph-locations-close.conf'),
    locations.replace(/^fastcgi_keep_conn on;$/m, 'fastcgi_keep_conn off;'));
  const conf = readFileSync(path.join(repo, 'bench/nginx.conf.template'), 'utf8')
    .replaceAll('@WORKERS@', String(workers))
    .replaceAll('@RUN_DIR@', benchRun)
    .replaceAll('@STACK_RUN_DIR@', stackRun)
    .replaceAll('@REPO@', repo)
    .replaceAll('@USER_LINE@', process.getuid() === 0 ? 'user root;' : '')
    .replaceAll('@NETGRAPH_PORT@', String(ports.netgraph))
    .replaceAll('@NETGRAPH_CLOSE_PORT@', String(ports.netgraphClose))
    .replaceAll('@NODE_PORT@', String(ports.node))
    .replaceAll('@STATIC_PORT@', String(ports.static))
    .replaceAll('@NODE_UPSTREAM_PORT@', String(ports.nodeUpstream));
  const file = path.join(benchRun, 'nginx.conf');
  writeFileSync(file, conf);
  execFileSync('nginx', ['-p', benchRun, '-c', file, '-e', path.join(benchRun, 'nginx-error.log')]);
  const pidFile = path.join(benchRun, 'nginx.pid');
  cleanups.push(() => spawnSync('nginx', ['-p', benchRun, '-c', file, '-e', path.join(benchRun, 'nginx-error.log'), '-s', 'quit']));
  await waitFor('the bench nginx', () => existsSync(pidFile));
  return Number(readFileSync(pidFile, 'utf8').trim());
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
  return `http://127.0.0.1:${port}/graphql`;
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
  if (peer !== 'static') {
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

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

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
  for (const tool of ['wrk', 'nginx', 'pgrep']) {
    if (spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0) usage(`${tool} is not installed (scripts/setup installs it)`);
  }
  rmSync(benchRun, { recursive: true, force: true });
  const env = stackUp();
  const workers = Number(env.NETGRAPH_WORKERS ?? os.availableParallelism());
  log(`bench: importing ${nodeCount} nodes and ${2 * nodeCount} links`);
  importGraph(env, 0, nodeCount);
  log(`bench: ${voucherCount} claimed vouchers, five per investor`);
  loadInvestors(env, voucherCount);
  const token = netgraphctl(env, ['token', 'mint', '--sub', 'did:netgraph:demo-investor', '--ttl', '86400']).trim();

  const groups = {
    pool: Number(readFileSync(path.join(stackRun, 'fcgi.pid'), 'utf8').trim()),
    postgres: Number(readFileSync(path.join(stackRun, 'pg/postmaster.pid'), 'utf8').split('\n')[0]),
    node: await startReferenceServer(env, workers),
    nginx: await startNginx(workers),
  };

  // Every peer answers every document correctly before anything is timed; the static files are
  // netgraph's own answers, byte for byte.
  for (const name of Object.keys(documents)) {
    const ours = await fetchAnswer('netgraph', name, token);
    writeFileSync(path.join(benchRun, 'static', `${name}.json`), ours.text);
    if (documents[name].peers.includes('netgraph-close')) await fetchAnswer('netgraph-close', name, token);
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

  const verdicts = targets.filter((t) => figures[t.key] !== undefined).map((t) => {
    const value = figures[t.key];
    const met = t.min !== undefined ? value >= t.min : value <= t.max;
    const gross = t.min !== undefined ? value < t.min / 2 : value > t.max * 2;
    return { ...t, value, met, gross };
  });

  const machine = {
    cpus: os.cpus().length,
    model: os.cpus()[0]?.model,
    memory_gib: Math.round(os.totalmem() / 2 ** 30),
    kernel: os.release(),
    node: process.version,
  };
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
  const report = { machine, settings: { seconds, rounds, connections, nodes: nodeCount, vouchers: voucherCount, large: largeCount, workers }, results, figures, verdicts, scoreboard_cost: scoreboardCost, keep_conn: keepConn };
  if (opts.json) {
    console.log(JSON.stringify(report, null, 2));
  } else {
    printReport(report);
  }
  const failed = verdicts.filter((v) => (opts.check && !v.met) || (opts['check-gross'] && v.gross));
  return failed.length ? 1 : 0;
}

function printReport({ machine, settings, results, verdicts, scoreboard_cost: scoreboardCost, keep_conn: keepConn }) {
  const fmt = (n, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
  console.log(`\nmachine: ${machine.cpus} × ${machine.model}, ${machine.memory_gib} GiB, Linux ${machine.kernel}, Node ${machine.node}`);
  console.log(`wrk -t1 -c${settings.connections}, ${settings.seconds} s, median of ${settings.rounds} interleaved rounds; ` +
    `graph ${settings.nodes} nodes / ${2 * settings.nodes} links; ${settings.vouchers} claimed vouchers; ${settings.workers} pool workers, ${settings.workers} Node processes\n`);
  console.log('| document / server | req/s | p50 ms | p99 ms | CPU µs/req nginx | server | PostgreSQL |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  for (const [key, r] of Object.entries(results)) {
    console.log(`| ${key} | ${fmt(r.rps)} | ${fmt(r.p50_us / 1000, 2)} | ${fmt(r.p99_us / 1000, 2)} | ` +
      `${fmt(r.cpu_us.nginx)} | ${fmt(r.cpu_us.server)} | ${fmt(r.cpu_us.postgres)} |`);
  }
  console.log('\n| target | figure | wanted | met |');
  console.log('|---|---:|---:|---|');
  for (const v of verdicts) {
    console.log(`| ${v.name} | ${fmt(v.value, 2)} | ${v.min !== undefined ? `≥ ${v.min}` : `≤ ${v.max}`} | ${v.met ? 'yes' : 'NO'} |`);
  }
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

// Whatever ends the run, the processes it started end with it.
function cleanUp() {
  for (const cleanup of cleanups.splice(0).reverse()) {
    try { cleanup(); } catch { /* best effort */ }
  }
}
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    cleanUp();
    process.exit(130);
  });
}

let status = 1;
try {
  status = await main();
} catch (error) {
  console.error(error.message);
} finally {
  cleanUp();
}
process.exit(status);
