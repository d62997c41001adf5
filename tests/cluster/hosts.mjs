// The cluster's hosts, one systemd-nspawn container each (tests/deploy/container.mjs) on the
// private bridge (network.mjs), and the steps that make each one what docs/operations.md
// ("Several hosts") says, in the same order and with the same commands: a step there is a step
// here (the numbers in the comments are the section's). Every host boots the same cached Debian
// 12 root, which holds every package any role needs (it stands in for the mirror: the hosts have
// no route to it) with the daemons disabled, so a host runs only what its steps start.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Container, rootfs } from '../deploy/container.mjs';
import { BRIDGE, PREFIX } from './network.mjs';

export const HOSTS = {
  lb: { address: `${PREFIX}10`, role: 'balancer' },
  app1: { address: `${PREFIX}11`, role: 'app' },
  app2: { address: `${PREFIX}12`, role: 'app' },
  mon: { address: `${PREFIX}20`, role: 'monitor' },  // pg_auto_failover's monitor, the third sentinel
  db1: { address: `${PREFIX}21`, role: 'database' },
  db2: { address: `${PREFIX}22`, role: 'database' },
  redis1: { address: `${PREFIX}31`, role: 'redis' },
  redis2: { address: `${PREFIX}32`, role: 'redis' },
};
export const APP_HOSTS = ['app1', 'app2'];
export const DATABASE_HOSTS = ['db1', 'db2'];
export const REDIS_HOSTS = ['redis1', 'redis2'];
export const SENTINEL_HOSTS = ['mon', 'redis1', 'redis2'];
// What an app host is cut off from in the partition fault: every data host.
export const DATA_HOSTS = ['mon', ...DATABASE_HOSTS, ...REDIS_HOSTS];

const BASE = ['systemd', 'systemd-sysv', 'dbus', 'ca-certificates', 'procps', 'iproute2'];
const ROLE_PACKAGES = [
  'nginx',                                                                                   // app
  'postgresql-15', 'postgresql-client-15', 'postgresql-15-auto-failover', 'pg-auto-failover-cli',  // monitor, database
  'redis-server', 'redis-sentinel',                                                          // redis, sentinels
  'haproxy', 'socat',                                                                        // balancer
];
// Debian starts these at installation; here each host's steps enable what it runs.
const DAEMONS = ['postgresql.service', 'redis-server.service', 'redis-sentinel.service', 'nginx.service', 'haproxy.service'];

const PGDATA_MONITOR = '/var/lib/postgresql/15/monitor';
const PGDATA_NODE = '/var/lib/postgresql/15/node';
const PG_CTL = '/usr/lib/postgresql/15/bin/pg_ctl';
const EXAMPLES = 'usr/share/doc/netgraph/examples/cluster';
const MASTER_NAME = 'netgraph';
const BACKENDS = ['app_requests', 'app_websockets'];  // packaging/examples/cluster/haproxy.cfg

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// The packages the .deb depends on (first of any alternatives), so the root can install it offline.
function dependenciesOf(deb) {
  const field = execFileSync('dpkg-deb', ['-f', deb, 'Depends'], { encoding: 'utf8' });
  return field.split(',').map((d) => d.split('|')[0].trim().split(/[\s(]/)[0]).filter(Boolean);
}

export function clusterRoot(deb) {
  const packages = [...new Set([...BASE, ...ROLE_PACKAGES, ...dependenciesOf(deb)])].sort();
  return rootfs({ packages, disable: DAEMONS, enable: ['systemd-networkd.service'], eatmydata: true });
}

// Secrets an operator generates once (`openssl rand -hex 24`): hex, so they need no escaping in
// URLs or configuration files.
function secret() { return randomBytes(24).toString('hex'); }

export class Cluster {
  constructor({ deb, stateDir, jwtPublicKeyPem, issuer, audience }) {
    this.deb = deb;
    this.stateDir = stateDir;
    this.jwt = { publicKey: jwtPublicKeyPem, issuer, audience };
    this.secrets = {
      database: secret(), replication: secret(), monitor: secret(), redis: secret(), sentinel: secret(),
    };
    this.hosts = Object.fromEntries(Object.entries(HOSTS).map(([name, { address, role }]) => [name, {
      name, address, role,
      container: new Container(`ngc-${name}`, {
        bridge: BRIDGE, stateDir: path.join(stateDir, 'hosts', name), env: ['HOME=/root'],
      }),
    }]));
    // The package's example files, as `dpkg-deb -x` gives them to the hosts that do not install it.
    this.examples = path.join(stateDir, 'package');
  }

  host(name) { return this.hosts[name].container; }

  // Builds (or reuses) the root, and boots every host with its address (systemd-networkd, from the
  // first instant of its first boot).
  async boot() {
    this.root = clusterRoot(this.deb);
    rmSync(this.examples, { recursive: true, force: true });
    execFileSync('dpkg-deb', ['-x', this.deb, this.examples]);
    await Promise.all(Object.values(this.hosts).map(async ({ address, container }) => {
      const network = path.join(container.upper, 'etc/systemd/network');
      mkdirSync(network, { recursive: true });
      writeFileSync(path.join(network, '10-host0.network'),
        `[Match]\nName=host0\n\n[Network]\nAddress=${address}/24\nLinkLocalAddressing=no\n`);
      await container.boot(this.root);
    }));
  }

  async powerOff(name) { await this.host(name).powerOff(); }

  // Boots a host that was powered off: its disk is as the power-off left it; what is enabled starts.
  async powerOn(name) { await this.host(name).boot(this.root); }

  async destroy() {
    await Promise.all(Object.values(this.hosts).map(({ container }) => container.destroy().catch(() => {})));
  }

  // A file of the package's examples with the placeholders replaced by this cluster's secrets.
  example(file) {
    return readFileSync(path.join(this.examples, EXAMPLES, file), 'utf8')
      .replaceAll('CHANGE-ME-DATABASE-PASSWORD', this.secrets.database)
      .replaceAll('CHANGE-ME-REDIS-PASSWORD', this.secrets.redis)
      .replaceAll('CHANGE-ME-SENTINEL-PASSWORD', this.secrets.sentinel);
  }

  // ---------------------------------------------------------------------------------------------
  // docs/operations.md, "Several hosts", in its order.

  // 2. The pg_auto_failover monitor.
  async setUpMonitor() {
    const mon = this.host('mon');
    await mon.mustAsync('pg_dropcluster', '--stop', '15', 'main');
    await mon.mustAsync('runuser', '-u', 'postgres', '--', 'pg_autoctl', 'create', 'monitor',
      '--pgdata', PGDATA_MONITOR, '--pgctl', PG_CTL, '--hostname', HOSTS.mon.address,
      '--auth', 'scram-sha-256', '--ssl-self-signed');
    await this.installAutoctlService(mon, PGDATA_MONITOR);
    await waitFor(async () => (await mon.runAsync('runuser', '-u', 'postgres', '--', 'psql', '-d', 'pg_auto_failover',
      '-c', 'SELECT 1')).status === 0, 'the monitor to accept connections');
    await mon.mustAsync('runuser', '-u', 'postgres', '--', 'psql', '-d', 'pg_auto_failover', '-c',
      `ALTER USER autoctl_node PASSWORD '${this.secrets.monitor}'`);
    mon.write('/root/monitor-settings.sql', this.example('monitor-settings.sql'));
    await mon.mustAsync('sh', '-c', 'runuser -u postgres -- psql -q -v ON_ERROR_STOP=1 -d pg_auto_failover < /root/monitor-settings.sql');
  }

  async installAutoctlService(host, pgdata) {
    await host.mustAsync('sh', '-c', `pg_autoctl -q show systemd --pgdata ${pgdata} > /etc/systemd/system/pgautofailover.service`);
    await host.mustAsync('systemctl', 'daemon-reload');
    await host.mustAsync('systemctl', 'enable', '--now', 'pgautofailover');
  }

  // 3. A PostgreSQL node: the first becomes the primary, the second its synchronous standby.
  async setUpDatabaseNode(name) {
    const db = this.host(name);
    const { address } = HOSTS[name];
    await db.mustAsync('pg_dropcluster', '--stop', '15', 'main');
    db.write('/var/lib/postgresql/.pgpass',
      `*:*:*:pgautofailover_replicator:${this.secrets.replication}\n` +
      `${HOSTS.mon.address}:5432:pg_auto_failover:autoctl_node:${this.secrets.monitor}\n`, 0o600);
    await db.mustAsync('chown', 'postgres:postgres', '/var/lib/postgresql/.pgpass');
    await db.mustAsync('runuser', '-u', 'postgres', '--', 'pg_autoctl', 'create', 'postgres',
      '--pgdata', PGDATA_NODE, '--pgctl', PG_CTL, '--hostname', address, '--name', name,
      '--dbname', 'netgraph', '--auth', 'scram-sha-256', '--ssl-self-signed',
      '--monitor', `postgres://autoctl_node@${HOSTS.mon.address}:5432/pg_auto_failover?sslmode=require`);
    await db.mustAsync('runuser', '-u', 'postgres', '--', 'pg_autoctl', 'config', 'set', '--pgdata', PGDATA_NODE,
      'replication.password', this.secrets.replication);
    // The app hosts' role, and pg_rewind's connection (pg_autoctl makes it to database postgres,
    // for which it adds no rule when --dbname names another): without it, a failed primary rejoins
    // by copying the whole database instead of rewinding.
    await db.mustAsync('sh', '-c', `grep -q '^hostssl netgraph netgraph' ${PGDATA_NODE}/pg_hba.conf || ` +
      `printf '%s\\n' 'hostssl netgraph netgraph ${PREFIX}0/24 scram-sha-256' ` +
      `'hostssl postgres pgautofailover_replicator ${PREFIX}0/24 scram-sha-256' >> ${PGDATA_NODE}/pg_hba.conf`);
    await this.installAutoctlService(db, PGDATA_NODE);
  }

  // 3, on the first node once it is the primary: the replication password the standby logs in
  // with, and the service's role, owner of the database pg_autoctl created.
  async setUpDatabaseRoles(name) {
    const db = this.host(name);
    await waitFor(async () => (await this.databaseNodes()).some((n) => n.name === name && n.reported === 'single') &&
      (await db.runAsync('runuser', '-u', 'postgres', '--', 'psql', '-d', 'netgraph', '-c', 'SELECT 1')).status === 0,
    `${name} to run as the only node`, 120000);
    await db.mustAsync('runuser', '-u', 'postgres', '--', 'psql', '-q', '-d', 'netgraph',
      '-c', `ALTER USER pgautofailover_replicator PASSWORD '${this.secrets.replication}'`,
      '-c', `CREATE ROLE netgraph LOGIN PASSWORD '${this.secrets.database}'`,
      '-c', 'ALTER DATABASE netgraph OWNER TO netgraph');
  }

  // The nodes as the monitor sees them: [{name, address, reported, assigned}].
  async databaseNodes() {
    const result = await this.host('mon').runAsync('runuser', '-u', 'postgres', '--', 'psql', '-tA', '-F', ' ',
      '-d', 'pg_auto_failover', '-c',
      'SELECT nodename, nodehost, reportedstate, goalstate FROM pgautofailover.node ORDER BY nodeid');
    if (result.status !== 0) return [];
    return result.stdout.trim().split('\n').filter(Boolean).map((line) => {
      const [name, address, reported, assigned] = line.split(' ');
      return { name, address, reported, assigned };
    });
  }

  // The primary's name once the pair is healthy again (primary and secondary, reported as
  // assigned), or null.
  async healthyPrimary() {
    const nodes = await this.databaseNodes();
    const settled = nodes.length === 2 && nodes.every((n) => n.reported === n.assigned);
    const primary = nodes.find((n) => n.reported === 'primary');
    return settled && primary && nodes.some((n) => n.reported === 'secondary') ? primary.name : null;
  }

  // The node accepting writes now (primary, or wait_primary while alone), or null.
  async writableNode() {
    const nodes = await this.databaseNodes();
    return nodes.find((n) => ['primary', 'wait_primary', 'single'].includes(n.reported) &&
      n.reported === n.assigned)?.name ?? null;
  }

  // 3, the check: the primary commits only once the standby has the WAL (synchronous_commit on,
  // the standby in the quorum of synchronous_standby_names).
  async synchronousReplication() {
    const primary = await this.healthyPrimary();
    if (!primary) return { ok: false, detail: 'no healthy primary and standby' };
    const out = await this.host(primary).mustAsync('runuser', '-u', 'postgres', '--', 'psql', '-tA', '-d', 'netgraph',
      '-c', 'SHOW synchronous_standby_names', '-c', 'SHOW synchronous_commit',
      '-c', "SELECT string_agg(sync_state, ',') FROM pg_stat_replication");
    const [names, commit, states] = out.trim().split('\n');
    const ok = /^ANY 1 \(/.test(names) && commit === 'on' && /(quorum|sync)/.test(states ?? '');
    return { ok, detail: `primary ${primary}: synchronous_standby_names ${names}, synchronous_commit ${commit}, standby ${states}` };
  }

  // 4. Redis on two hosts, the second a replica of the first.
  async setUpRedis(name) {
    const redis = this.host(name);
    let conf = this.example('redis.conf');
    if (name !== REDIS_HOSTS[0]) conf += `replicaof ${HOSTS[REDIS_HOSTS[0]].address} 6379\n`;
    await redis.mustAsync('sh', '-c', `cat >> /etc/redis/redis.conf <<'EOF'\n${conf}EOF`);
    await redis.mustAsync('systemctl', 'enable', 'redis-server');
    await redis.mustAsync('systemctl', 'restart', 'redis-server');
  }

  // 5. A sentinel (on the monitor host and on both Redis hosts).
  async setUpSentinel(name) {
    const host = this.host(name);
    host.write('/root/sentinel.conf', this.example('sentinel.conf'));
    await host.mustAsync('install', '-o', 'redis', '-g', 'redis', '-m', '0640', '/root/sentinel.conf', '/etc/redis/sentinel.conf');
    await host.mustAsync('systemctl', 'enable', 'redis-sentinel');
    await host.mustAsync('systemctl', 'restart', 'redis-sentinel');
  }

  // What the sentinels say: the master's address (asked of the first sentinel that answers).
  async redisMaster() {
    for (const name of SENTINEL_HOSTS) {
      const result = await this.host(name).runAsync('redis-cli', '-p', '26379', '-a', this.secrets.sentinel,
        '--no-auth-warning', 'sentinel', 'get-master-addr-by-name', MASTER_NAME);
      const [address] = result.stdout.trim().split('\n');
      if (result.status === 0 && address?.startsWith(PREFIX)) {
        return Object.keys(HOSTS).find((h) => HOSTS[h].address === address) ?? null;
      }
    }
    return null;
  }

  // A Redis host's own view: "master", "slave" (with its link up), or null when down.
  async redisRole(name) {
    const result = await this.host(name).runAsync('redis-cli', '-a', this.secrets.redis, '--no-auth-warning', 'info', 'replication');
    if (result.status !== 0) return null;
    const role = /role:(\w+)/.exec(result.stdout)?.[1] ?? null;
    if (role === 'slave' && !/master_link_status:up/.test(result.stdout)) return 'slave (link down)';
    return role;
  }

  // 6. An app host: the package.
  async installPackage(name) {
    const app = this.host(name);
    app.write('/root/netgraph.deb', readFileSync(this.deb));
    await app.mustAsync('apt-get', 'install', '-y', '-qq', '--no-install-recommends', '/root/netgraph.deb', 'nginx');
  }

  // 6. The keys every app host shares, made once (on the first app host), then copied to the others.
  async makeSharedKeys() {
    const app = this.host(APP_HOSTS[0]);
    await app.mustAsync('sh', '-c', 'cd /root && openssl rand -hex 32 > update-signing.key && ' +
      'netgraphctl treasury keygen --out treasury.json && netgraphctl treasury keygen --out mint.json');
    return {
      updateSigningKey: readFileSync(app.file('/root/update-signing.key'), 'utf8'),
      treasury: readFileSync(app.file('/root/treasury.json'), 'utf8'),
      mintAddress: (await app.mustAsync('netgraphctl', 'treasury', 'pubkey', '--keypair', '/root/mint.json')).trim(),
    };
  }

  // 6. An app host's keys, the settings of a single host plus the cluster's, nginx behind the
  // balancer, the services.
  async configureApp(name, keys) {
    const app = this.host(name);
    app.write('/root/update-signing.key', keys.updateSigningKey, 0o600);
    app.write('/root/treasury.json', keys.treasury, 0o600);
    for (const file of ['update-signing.key', 'treasury.json']) {
      await app.mustAsync('install', '-o', 'netgraph', '-g', 'netgraph', '-m', '0600', `/root/${file}`, `/etc/netgraph/${file}`);
    }
    app.write('/etc/netgraph/idp.pem', this.jwt.publicKey);
    const sample = readFileSync(app.file('/etc/netgraph/netgraph.env'), 'utf8');
    const settings = {
      NETGRAPH_UPDATE_SIGNING_KEY_FILE: '/etc/netgraph/update-signing.key',
      NETGRAPH_JWT_PUBLIC_KEY_FILE: '/etc/netgraph/idp.pem',
      NETGRAPH_JWT_ISSUER: this.jwt.issuer,
      NETGRAPH_JWT_AUDIENCE: this.jwt.audience,
      NETGRAPH_TREASURY_KEYPAIR_FILE: '/etc/netgraph/treasury.json',
      NETGRAPH_MINT_ADDRESS: keys.mintAddress,
      NETGRAPH_WORKERS: 2,
      NETGRAPH_WS_DATABASE_THREADS: 2,
      // Investors of the test race for the same vouchers on purpose (tests/faults does the same).
      NETGRAPH_CLAIM_MAX_FAILURES: 1000000,
    };
    const single = Object.entries(settings).map(([key, value]) => `${key}=${value}`).join('\n');
    app.write('/etc/netgraph/netgraph.env', `${sample}\n# This host\n${single}\n\n${this.example('netgraph.env')}`, 0o640);
    await app.mustAsync('runuser', '-u', 'netgraph', '--', 'netgraph-fcgi', '--check-config');
    await app.mustAsync('runuser', '-u', 'netgraph', '--', 'netgraph-ws', '--check-config');
    app.write('/etc/nginx/conf.d/netgraph-behind-haproxy.conf', this.example('nginx-behind-haproxy.conf'));
    await app.mustAsync('ln', '-sf', '/etc/nginx/sites-available/netgraph', '/etc/nginx/sites-enabled/netgraph');
    await app.mustAsync('nginx', '-t', '-q');
    await app.mustAsync('systemctl', 'enable', 'nginx');
    await app.mustAsync('systemctl', 'restart', 'nginx');
    await app.mustAsync('systemctl', 'enable', '--now', 'netgraph-fcgi.socket', 'netgraph-ws.socket',
      'netgraph-fcgi.service', 'netgraph-ws.service');
  }

  // 7. The load balancer.
  async setUpBalancer() {
    const lb = this.host('lb');
    lb.write('/etc/haproxy/haproxy.cfg', this.example('haproxy.cfg'));
    for (const code of [502, 503, 504]) {
      lb.write(`/etc/haproxy/errors/netgraph-${code}.http`, this.example(`netgraph-${code}.http`));
    }
    await lb.mustAsync('haproxy', '-c', '-q', '-f', '/etc/haproxy/haproxy.cfg');
    await lb.mustAsync('systemctl', 'enable', 'haproxy');
    await lb.mustAsync('systemctl', 'restart', 'haproxy');
  }

  // HAProxy's view of the app hosts: {app1: 'UP'|'DOWN'|'DRAIN'|'MAINT'|..., ...}, from both
  // backends (requests and WebSockets): a host is as up as its worse one.
  async balancerStatus() {
    const result = await this.host('lb').runAsync('sh', '-c', 'echo "show stat" | socat stdio /run/haproxy/admin.sock');
    if (result.status !== 0) return {};
    const lines = result.stdout.split('\n');
    const head = lines[0].replace(/^# /, '').split(',');
    const column = (name) => head.indexOf(name);
    const status = {};
    for (const line of lines.slice(1)) {
      const cells = line.split(',');
      const name = cells[column('svname')];
      if (!BACKENDS.includes(cells[column('pxname')]) || !APP_HOSTS.includes(name)) continue;
      const state = cells[column('status')];
      if (status[name] === undefined || status[name] === 'UP') status[name] = state;
    }
    return status;
  }

  // 8. Draining a host before it stops, and putting it back: on both backends.
  async setBalancerState(name, state) {
    for (const backend of BACKENDS) {
      await this.host('lb').mustAsync('sh', '-c',
        `echo "set server ${backend}/${name} state ${state}" | socat stdio /run/haproxy/admin.sock`);
    }
  }

  // Cuts `name` off from `others` (both ways for TCP: what it sends to them is dropped) or heals it.
  async partition(name, others, cut) {
    const host = this.host(name);
    for (const other of others) {
      await host.mustAsync('ip', 'route', cut ? 'add' : 'del', 'blackhole', `${HOSTS[other].address}/32`);
    }
  }

  // The journal of every host's services, for a failed run.
  async collectLogs(dir) {
    mkdirSync(dir, { recursive: true });
    await Promise.all(Object.values(this.hosts).map(async ({ name, container }) => {
      if (!container.leader || container.nspawn?.exitCode !== null) return;
      const journal = await container.runAsync('journalctl', '--no-pager', '-o', 'short-precise', '-b',
        '-u', 'netgraph-fcgi', '-u', 'netgraph-ws', '-u', 'nginx', '-u', 'haproxy', '-u', 'pgautofailover',
        '-u', 'redis-server', '-u', 'redis-sentinel');
      writeFileSync(path.join(dir, `${name}.log`), journal.stdout + journal.stderr);
    }));
  }
}

export async function waitFor(predicate, what, timeoutMs = 60000, intervalMs = 200) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await predicate();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await pause(intervalMs);
  }
}
