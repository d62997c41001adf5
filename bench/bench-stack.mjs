// What the end-to-end benchmarks (bench/http-bench.mjs, bench/write-bench.mjs) share: a private
// stack brought up with scripts/stack, the bench nginx (bench/nginx.conf.template) in front of it and
// of the Node reference server (bench/reference-server), CPU time read from /proc, and a main that
// stops every process it started however the run ends.
//
// Ports come from NETGRAPH_BENCH_PORT_BASE (default 19100) plus the benchmark's offset (useStack):
// the stack +0..+2, the bench nginx +3..+5 (netgraph, the Node peer, static files), the Node peer
// itself +6, netgraph without keep-alive +7, the Node subscriptions peer through nginx +8 and itself
// +9. The stack's run directory is .run-bench (or the benchmark's own), the bench's files go
// in its bench/ directory.
import { spawn, spawnSync, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const repo = path.resolve(import.meta.dirname, '..');
export const buildDir = process.env.NETGRAPH_BUILD_DIR ?? path.join(repo, 'build');

export const ports = {};
export let stackRun;
export let benchRun;
let stackEnvBase;

// Which stack the benchmark uses: run directory .run-<name>, ports `portOffset` above the base.
// bench/http-bench.mjs uses the default; another benchmark with a stack of its own can run beside it.
export function useStack({ name = 'bench', portOffset = 0 } = {}) {
  const base = Number(process.env.NETGRAPH_BENCH_PORT_BASE ?? 19100) + portOffset;
  Object.assign(ports, {
    stackHttp: base, pg: base + 1, redis: base + 2,
    netgraph: base + 3, node: base + 4, static: base + 5, nodeUpstream: base + 6, netgraphClose: base + 7,
    nodeSubscriptions: base + 8, nodeSubscriptionsUpstream: base + 9,
  });
  stackRun = path.join(repo, `.run-${name}`);
  benchRun = path.join(stackRun, 'bench');
  stackEnvBase = {
    ...process.env,
    NETGRAPH_RUN_DIR: stackRun,
    NETGRAPH_HTTP_PORT: String(ports.stackHttp),
    NETGRAPH_PG_PORT: String(ports.pg),
    NETGRAPH_REDIS_PORT: String(ports.redis),
  };
}
useStack();

// Run at the end, last registered first.
const cleanups = [];
export function atExit(cleanup) {
  cleanups.push(cleanup);
}

let quiet = false;
export function setQuiet(value) {
  quiet = value;
}
const started = Date.now();
// Progress on stderr, with the seconds since the start.
export function log(message) {
  if (!quiet) console.error(`${((Date.now() - started) / 1000).toFixed(1).padStart(6)} s ${message}`);
}

export function usage(name, problem) {
  console.error(`${name}: ${problem}`);
  process.exit(64);
}

export function requireTools(name, tools) {
  for (const tool of tools) {
    if (spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0) usage(name, `${tool} is not installed (scripts/setup installs it)`);
  }
}

export function readEnvFile(file) {
  const env = {};
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const match = /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(line);
    if (match) env[match[1]] = match[2];
  }
  return env;
}

// Brings up the stack (scripts/stack up) and returns its environment; with keepStack it stays up
// after the run. With fresh, a stack left by an earlier run goes first, its database with it.
export function stackUp({ keepStack = false, fresh = false } = {}) {
  if (fresh) {
    spawnSync(path.join(repo, 'scripts/stack'), ['down'], { env: stackEnvBase, stdio: 'ignore' });
    rmSync(stackRun, { recursive: true, force: true });
  }
  log('bench: bringing up the stack (scripts/stack up)');
  execFileSync(path.join(repo, 'scripts/stack'), ['up'], { env: stackEnvBase, stdio: ['ignore', 'ignore', 'inherit'] });
  atExit(() => {
    if (!keepStack) spawnSync(path.join(repo, 'scripts/stack'), ['down'], { env: stackEnvBase, stdio: 'ignore' });
  });
  return { ...stackEnvBase, ...readEnvFile(path.join(stackRun, 'stack.env')) };
}

export function poolPid() {
  return Number(readFileSync(path.join(stackRun, 'fcgi.pid'), 'utf8').trim());
}

export function postmasterPid() {
  return Number(readFileSync(path.join(stackRun, 'pg/postmaster.pid'), 'utf8').split('\n')[0]);
}

// Replaces the stack's pool by one started with `settings` added to the stack's environment;
// returns the new master's pid.
export function restartPool(pid, settings) {
  log(`bench: restarting the pool with ${Object.entries(settings).map(([k, v]) => `${k}=${v}`).join(' ')}`);
  process.kill(pid, 'SIGTERM');
  for (const deadline = Date.now() + 30000; Date.now() < deadline;) {
    if (spawnSync('kill', ['-0', String(pid)]).status !== 0) break;
    spawnSync('sleep', ['0.1']);
  }
  execFileSync(path.join(repo, 'scripts/stack'), ['up'], {
    env: { ...stackEnvBase, ...settings }, stdio: ['ignore', 'ignore', 'inherit'],
  });
  return poolPid();
}

export function netgraphctl(env, args, input) {
  return execFileSync(path.join(buildDir, 'bin/netgraphctl'), args, { env, input, encoding: 'utf8' });
}

// One statement (or a few) through psql on the stack's database; the output without its last newline.
export function psql(env, sql, database = env.DATABASE_URL) {
  return execFileSync('psql', [database, '-qtAX', '-v', 'ON_ERROR_STOP=1', '-c', sql], { encoding: 'utf8' }).trim();
}

// From /proc, without a process of its own: reading the tree must be quick, since its processes
// come and go while it is read (see treeCpuUs).
export function childrenOf(pid) {
  const children = [];
  let threads = [];
  try { threads = readdirSync(`/proc/${pid}/task`); } catch { return children; }
  for (const thread of threads) {
    try {
      const list = readFileSync(`/proc/${pid}/task/${thread}/children`, 'utf8').trim();
      if (list) children.push(...list.split(' ').map(Number));
    } catch { /* the thread or the process is gone */ }
  }
  return children;
}

export function processTree(pid) {
  const all = [pid];
  for (let i = 0; i < all.length; i++) all.push(...childrenOf(all[i]));
  return all;
}

const clockTicks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());

// The fields of /proc/PID/stat after the command name, or null once the process is gone.
function statFields(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

const ticksToUs = (ticks) => (ticks * 1e6) / clockTicks;

// utime + stime of each process, in µs; a process gone since is simply absent.
export function cpuOf(pids) {
  const cpu = new Map();
  for (const pid of pids) {
    const fields = statFields(pid);
    if (fields) cpu.set(pid, ticksToUs(Number(fields[11]) + Number(fields[12])));
  }
  return cpu;
}

export function cpuDelta(before, after) {
  let total = 0;
  for (const [pid, value] of after) total += value - (before.get(pid) ?? 0);
  return total;
}

// All the CPU time a process tree has used so far, in µs, including that of the children its root
// has already reaped (cutime + cstime): PostgreSQL's backends come and go with their connections
// (each pgbench run opens its own), and the postmaster reaps them, so the difference of two
// readings is what the tree spent between them whether its processes lived through it or not. A
// child reaped while the tree is read would count twice or not at all, so the reading is taken
// again until the root's reaped time stayed the same through it.
export function treeCpuUs(root) {
  const reapedUs = () => {
    const fields = statFields(root);
    return fields ? ticksToUs(Number(fields[13]) + Number(fields[14])) : 0;
  };
  for (;;) {
    const reaped = reapedUs();
    let live = 0;
    for (const value of cpuOf(processTree(root)).values()) live += value;
    if (reapedUs() === reaped) return live + reaped;
  }
}

// The CPU this process has used, and the children it has waited for (pgbench, write_client): the
// client's share of a machine that also runs the servers it measures.
export function clientCpuUs() {
  const fields = statFields(process.pid);
  return ticksToUs(Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]));
}

export function rssMiB(pid) {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : 0;
  } catch { return 0; }
}

export async function waitFor(what, predicate, timeoutMs = 30000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await predicate())) {
    if (Date.now() > deadline) throw new Error(`bench: timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

// The nearest-rank percentile (0 < p <= 100) of `values`.
export function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)];
}

// Starts the Node reference server (bench/reference-server) on the peer's upstream port with
// `processes` processes; returns its primary's pid. It runs under the scheduling policy the pool
// runs under (SCHED_BATCH: systemd/netgraph-fcgi.service, scripts/stack), so the comparison is of
// the servers, not of their policies.
export function startReferenceServer(env, processes) {
  return startReferenceProcess(env, 'server.mjs', ['--port', String(ports.nodeUpstream), '--processes', String(processes)],
    ['chrt', '--batch', '0']);
}

// Starts the Node subscriptions peer (bench/reference-server/subscriptions.mjs: graphql-ws on the
// stack's Redis) on its upstream port; returns its pid.
export function startSubscriptionsServer(env) {
  return startReferenceProcess(env, 'subscriptions.mjs', ['--port', String(ports.nodeSubscriptionsUpstream)]);
}

// Whether bench/reference-server's node_modules holds every dependency at the version its
// package.json pins: a checkout that had installed an earlier package.json lacks what was added
// since (the subscriptions peer's redis client, say), and the peer would not start.
function referenceServerInstalled(dir) {
  const { dependencies } = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
  return Object.entries(dependencies).every(([name, version]) => {
    const installed = path.join(dir, 'node_modules', name, 'package.json');
    return existsSync(installed) && JSON.parse(readFileSync(installed, 'utf8')).version === version;
  });
}

// `script` of bench/reference-server (installed first if need be) with `args`, run through
// `launcher` (a program that execs its arguments, or none), once it says "listening on".
async function startReferenceProcess(env, script, args, launcher = []) {
  const dir = path.join(repo, 'bench/reference-server');
  if (!referenceServerInstalled(dir)) {
    log('bench: installing the reference server (npm ci in bench/reference-server)');
    execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir, stdio: 'inherit' });
  }
  const [program, ...programArgs] = [...launcher, process.execPath, path.join(dir, script), ...args];
  const child = spawn(program, programArgs,
    { env: { ...env, NODE_ENV: 'production' }, stdio: ['ignore', 'pipe', 'inherit'] });
  atExit(() => child.kill('SIGTERM'));
  let ready = false;
  child.stdout.on('data', (data) => { if (String(data).includes('listening on')) ready = true; });
  child.on('exit', (code) => { if (!ready) console.error(`bench: the reference server (${script}) exited (${code})`); });
  await waitFor(`the reference server (${script})`, () => ready);
  return child.pid;
}

// Starts the bench nginx with `workers` worker processes; returns its master's pid.
export async function startNginx(workers) {
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
    .replaceAll('@NODE_UPSTREAM_PORT@', String(ports.nodeUpstream))
    .replaceAll('@NODE_SUBSCRIPTIONS_PORT@', String(ports.nodeSubscriptions))
    .replaceAll('@NODE_SUBSCRIPTIONS_UPSTREAM_PORT@', String(ports.nodeSubscriptionsUpstream));
  const file = path.join(benchRun, 'nginx.conf');
  writeFileSync(file, conf);
  execFileSync('nginx', ['-p', benchRun, '-c', file, '-e', path.join(benchRun, 'nginx-error.log')]);
  const pidFile = path.join(benchRun, 'nginx.pid');
  atExit(() => spawnSync('nginx', ['-p', benchRun, '-c', file, '-e', path.join(benchRun, 'nginx-error.log'), '-s', 'quit']));
  await waitFor('the bench nginx', () => existsSync(pidFile));
  return Number(readFileSync(pidFile, 'utf8').trim());
}

// The machine, for the report.
export function machine() {
  return {
    cpus: os.cpus().length,
    model: os.cpus()[0]?.model,
    memory_gib: Math.round(os.totalmem() / 2 ** 30),
    kernel: os.release(),
    node: process.version,
    load: os.loadavg(),
  };
}

export const fmt = (n, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

export function printMachine(m) {
  console.log(`\nmachine: ${m.cpus} × ${m.model}, ${m.memory_gib} GiB, Linux ${m.kernel}, Node ${m.node}; ` +
    `load average ${m.load.map((l) => fmt(l, 2)).join(' ')} at the end`);
}

// Each target is { name, key, min } or { name, key, max }; `met` compares the run's figure with it.
// `gross` is what --check-gross fails on: a figure beyond grossMin / grossMax when the target sets
// them, otherwise below half of min or above twice max.
export function judge(targets, figures) {
  return targets.filter((t) => figures[t.key] !== undefined).map((t) => {
    const value = figures[t.key];
    const met = t.min !== undefined ? value >= t.min : value <= t.max;
    const gross = t.min !== undefined ? value < (t.grossMin ?? t.min / 2) : value > (t.grossMax ?? t.max * 2);
    return { ...t, value, met, gross };
  });
}

export function failedChecks(verdicts, { check, 'check-gross': checkGross }) {
  return verdicts.filter((v) => (check && !v.met) || (checkGross && v.gross)).length;
}

export function printVerdicts(verdicts) {
  // Two decimals, three below 1 (ratios such as 0.015).
  const figure = (n) => fmt(n, Math.abs(n) < 1 ? 3 : 2);
  const grossOf = (v) => (v.min !== undefined ? `< ${figure(v.grossMin ?? v.min / 2)}` : `> ${figure(v.grossMax ?? v.max * 2)}`);
  console.log('\n| target | figure | wanted | met | gross regression when |');
  console.log('|---|---:|---:|---|---:|');
  for (const v of verdicts) {
    console.log(`| ${v.name} | ${figure(v.value)} | ${v.min !== undefined ? `≥ ${v.min}` : `≤ ${v.max}`} | ` +
      `${v.met ? 'yes' : 'NO'} | ${grossOf(v)} |`);
  }
}

// Runs `main` (which returns the exit status) and exits with it; whatever ends the run, the
// processes it started end with it.
export async function runMain(main) {
  const cleanUp = () => {
    for (const cleanup of cleanups.splice(0).reverse()) {
      try { cleanup(); } catch { /* best effort */ }
    }
  };
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
}
