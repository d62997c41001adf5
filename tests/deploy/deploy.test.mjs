// The deployment test: the Debian package ($NETGRAPH_DEB, built by scripts/package) installed with
// apt-get in a Debian 12 container booted with systemd as PID 1, beside Debian's PostgreSQL, Redis
// and nginx, configured as docs/operations.md ("Install") tells an operator, and exercised through
// that nginx (the container shares the host's network: the site's port 8080 is the host's).
// tests/deploy/run.sh runs it; scripts/test runs that as its "deploy" step.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { generateKeyPairSync } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { Container, rootfs } from './container.mjs';

const deb = process.env.NETGRAPH_DEB;
const siteUrl = 'http://127.0.0.1:8080';
const scratch = mkdtempSync(path.join(os.tmpdir(), 'netgraph-deploy-'));

// The identity provider's key, configured at install as a PEM file, later published at its JWKS URL
// (tests/support/jwks-server.mjs, on the host: the container shares its network) and rotated there.
const providerKey = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const issuer = 'https://idp.deploy.test/';
const audience = 'netgraph-deploy';

// tests/support's helpers sign with $NETGRAPH_DEV_SIGNING_KEY and talk to $NETGRAPH_BASE_URL: point
// them at the container's site and the provider's first key before loading them.
const devKeyFile = path.join(scratch, 'provider.pem');
writeFileSync(devKeyFile, providerKey.privateKey.export({ format: 'pem', type: 'pkcs8' }));
Object.assign(process.env, {
  NETGRAPH_BASE_URL: siteUrl, NETGRAPH_WS_URL: 'ws://127.0.0.1:8080/graphql', NETGRAPH_RUN_DIR: scratch,
  NETGRAPH_DEV_SIGNING_KEY: devKeyFile, NETGRAPH_JWT_ISSUER: issuer, NETGRAPH_JWT_AUDIENCE: audience,
});
const { graphql } = await import('../support/stack.mjs');
const { claimsFor, tokenFor } = await import('../support/jwt.mjs');
const { signingKey, startJwksServer } = await import('../support/jwks-server.mjs');
const { fastcgiGraphql } = await import('../support/fastcgi.mjs');
const { CLAIM, PORTFOLIO, randomWallet } = await import('../support/api.mjs');
const { graphqlWsClient, networkUpdatedQuery, subscribe } = await import('../support/websocket.mjs');
const { loadLoop: loadLoopThrough } = await import('../support/load-loop.mjs');

const container = new Container(`netgraph-deploy-${process.pid}`);
const envFile = '/etc/netgraph/netgraph.env';

let sample;  // the conffile as the package ships it

// What the operator does: the settings after the shipped (commented) file.
function configure(settings) {
  const lines = Object.entries(settings).map(([name, value]) => `${name}=${value}`);
  container.write(envFile, `${sample}\n# Set by the operator\n${lines.join('\n')}\n`, 0o640);
}

let settings;
let jwks;

before(async () => {
  assert.ok(deb, 'NETGRAPH_DEB names the package to install (tests/deploy/run.sh)');
  jwks = await startJwksServer();
  await container.boot(rootfs());
  copyFileSync(deb, container.file('/root/netgraph.deb'));
  container.must('apt-get', 'update', '-qq');
  container.must('apt-get', 'install', '-y', '-qq', '/root/netgraph.deb');

  // docs/operations.md, "Install".
  container.must('runuser', '-u', 'postgres', '--', 'createuser', 'netgraph');
  container.must('runuser', '-u', 'postgres', '--', 'createdb', '-O', 'netgraph', 'netgraph');
  container.must('install', '-o', 'netgraph', '-g', 'netgraph', '-m', '0600', '/dev/null', '/etc/netgraph/update-signing.key');
  container.must('sh', '-c', 'openssl rand -hex 32 > /etc/netgraph/update-signing.key');
  container.write('/etc/netgraph/idp.pem', providerKey.publicKey.export({ format: 'pem', type: 'spki' }));
  sample = readFileSync(container.file(envFile), 'utf8');
  settings = {
    NETGRAPH_UPDATE_SIGNING_KEY_FILE: '/etc/netgraph/update-signing.key',
    NETGRAPH_JWT_PUBLIC_KEY_FILE: '/etc/netgraph/idp.pem',
    NETGRAPH_JWT_ISSUER: issuer,
    NETGRAPH_JWT_AUDIENCE: audience,
    NETGRAPH_WORKERS: 2,
  };
  configure(settings);
  container.must('runuser', '-u', 'netgraph', '--', 'netgraph-fcgi', '--check-config');
  container.must('runuser', '-u', 'netgraph', '--', 'netgraph-ws', '--check-config');
  const started = container.run('systemctl', 'enable', '--now', 'netgraph-fcgi.socket', 'netgraph-ws.socket',
    'netgraph-fcgi.service', 'netgraph-ws.service');
  if (started.status !== 0) {
    const journal = container.run('journalctl', '-u', 'netgraph-fcgi', '-u', 'netgraph-ws', '--no-pager').stdout;
    throw new Error(`the services did not start: ${started.stderr}\n${journal}`);
  }
  container.must('ln', '-s', '/etc/nginx/sites-available/netgraph', '/etc/nginx/sites-enabled/netgraph');
  container.must('nginx', '-t', '-q');
  container.must('systemctl', 'reload', 'nginx');
  await container.waitFor(async () => (await fetch(`${siteUrl}/health`).catch(() => null))?.status === 200,
    '/health through nginx');
}, { timeout: 600000 });

after(async () => {
  await container.destroy();
  await jwks?.close();
});

const mainPid = (unit) => Number(container.must('systemctl', 'show', '-p', 'MainPID', '--value', unit).trim());
const childrenOf = (pid) => container.run('pgrep', '-P', String(pid)).stdout.trim().split('\n').filter(Boolean);
const workerCount = () => childrenOf(mainPid('netgraph-fcgi')).length - 1;  // but the relay

// The load loop through nginx, about 12 requests a second: the site's rate limit (20/s per address,
// nginx/netgraph.conf) would otherwise answer 429.
const loadLoop = () => loadLoopThrough({ parallel: 1, pauseMs: 80 });

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

test('/health answers 200 through nginx beside Debian\'s default site, with the package\'s version', async () => {
  const response = await fetch(`${siteUrl}/health`);
  assert.equal(response.status, 200);
  const body = await response.json();
  assert.equal(body.status, 'ok');
  const version = container.must('netgraph-fcgi', '--version').trim().split(' ')[1];
  assert.equal(body.version, version);
  // Debian's default site still answers port 80.
  assert.equal((await fetch('http://127.0.0.1:80/')).status, 200);
});

test('a query, a claim and the networkUpdated subscription it feeds', async () => {
  const graph = await graphql('{ networkGraph(limit: 5) { metadata { nodeCount } } }');
  assert.equal(graph.status, 200);
  assert.equal(graph.body.errors, undefined);

  // A fresh database has no funding round to issue vouchers in: the demo data brings one.
  container.must('runuser', '-u', 'netgraph', '--', 'netgraphctl', 'seed', '--demo');
  const [code] = container.must('runuser', '-u', 'netgraph', '--', 'netgraphctl', 'vouchers', 'issue',
    '--amount', '10', '--count', '1').trim().split('\n');
  const client = graphqlWsClient();
  const updates = subscribe(client, { query: networkUpdatedQuery });
  try {
    const wallet = randomWallet();
    const token = tokenFor(`did:deploy:${Date.now()}`);
    await pause(500);  // the subscription reaches netgraph-ws
    const claimed = await graphql(CLAIM, { token, variables: { code, wallet } });
    assert.equal(claimed.body.data.claimVoucher.success, true, JSON.stringify(claimed.body));
    await updates.until((state) => state.results.some(
      (r) => r.data?.networkUpdated?.nodes?.some((n) => n.type === 'Investor')), 'the claim\'s update', 30000);
  } finally {
    updates.unsubscribe();
    await client.dispose();
  }
});

test('systemctl reload with NETGRAPH_WORKERS 2 then 4 under a load loop: 4 workers, no failed request', async () => {
  assert.equal(workerCount(), 2);
  const master = mainPid('netgraph-fcgi');
  const load = loadLoop();
  await pause(500);
  settings.NETGRAPH_WORKERS = 4;
  configure(settings);
  container.must('systemctl', 'reload', 'netgraph-fcgi');
  await container.waitFor(() => workerCount() === 4, '4 workers');
  await container.waitFor(() => container.run('journalctl', '-u', 'netgraph-fcgi', '--no-pager')
    .stdout.includes('reload complete'), 'the reload to complete');
  await pause(500);
  const tally = await load.stop();
  assert.deepEqual(tally.failed, []);
  assert.ok(tally.ok > 0);
  assert.equal(mainPid('netgraph-fcgi'), master, 'reloaded, not restarted');
});

test('a key rotation at the identity provider\'s JWKS URL: new tokens valid without a restart, the retired key refused', async () => {
  // docs/operations.md, "Keys": the provider's JWKS URL, and the CA its certificate chains to (a
  // private one here; a public provider needs no CA file).
  jwks.publish([{ jwk: { ...providerKey.publicKey.export({ format: 'jwk' }), kid: 'provider', alg: 'ES256', use: 'sig' } }]);
  container.write('/etc/netgraph/idp-ca.pem', readFileSync(jwks.caFile));
  delete settings.NETGRAPH_JWT_PUBLIC_KEY_FILE;
  // A minimum refresh interval of 5 s rather than 60: a token with the new kid, sent seconds after the
  // reload's fetch, is otherwise refused for up to a minute (the unknown-kid rate limit).
  Object.assign(settings, {
    NETGRAPH_JWT_JWKS_URL: jwks.url, NETGRAPH_JWT_JWKS_CA_FILE: '/etc/netgraph/idp-ca.pem',
    NETGRAPH_JWT_JWKS_MIN_REFRESH_SECONDS: 5,
  });
  configure(settings);
  container.must('runuser', '-u', 'netgraph', '--', 'netgraph-fcgi', '--check-config');
  container.must('runuser', '-u', 'netgraph', '--', 'netgraph-ws', '--check-config');
  container.must('systemctl', 'reload', 'netgraph-fcgi', 'netgraph-ws');
  const sub = `did:deploy:rotation-${Date.now()}`;
  const accepted = async (token) => (await graphql(PORTFOLIO, { token })).body.data.getUserPortfolio.success;
  await container.waitFor(async () => await accepted(tokenFor(sub)), 'the URL\'s key to be accepted');

  // The provider rotates: the new key replaces the old one at the URL; nothing is reloaded.
  const rotated = signingKey('rotated');
  jwks.publish([rotated]);
  await container.waitFor(async () => await accepted(rotated.sign(claimsFor(sub))), 'the rotated key to be accepted');
  await container.waitFor(async () => !(await accepted(tokenFor(sub))), 'the retired key to be refused');
  assert.match(container.must('journalctl', '-u', 'netgraph-fcgi', '--no-pager', '-o', 'cat'),
    /JWKS https:\/\/127\.0\.0\.1:\d+\/jwks\.json: using 1 key \(rotated\)/);
});

test('a SIGKILLed worker is replaced', async () => {
  const master = mainPid('netgraph-fcgi');
  const before = childrenOf(master);
  container.must('kill', '-KILL', before[0]);
  await container.waitFor(() => {
    const now = childrenOf(master);
    return now.length === before.length && !now.includes(before[0]);
  }, 'a replacement worker');
  assert.equal((await graphql('{ __typename }')).status, 200);
});

test('systemctl restart netgraph-fcgi under load loses no request (the socket unit holds them)', async () => {
  const master = mainPid('netgraph-fcgi');
  const load = loadLoop();
  await pause(500);
  container.must('systemctl', 'restart', 'netgraph-fcgi');
  await container.waitFor(() => mainPid('netgraph-fcgi') !== master && workerCount() === 4, 'the new pool');
  await pause(1000);
  const tally = await load.stop();
  assert.deepEqual(tally.failed, []);
  assert.ok(tally.ok > 0);
});

test('journalctl -u netgraph-fcgi shows the pool\'s logs, each with its priority', () => {
  const journal = container.must('journalctl', '-u', 'netgraph-fcgi', '--no-pager', '-o', 'cat');
  assert.match(journal, /worker started as pid \d+/);
  assert.match(journal, /reloading: 5 children from now on/);
  // core/log.cc prefixes each line with its syslog priority, which the journal records as PRIORITY.
  const entries = container.must('journalctl', '-u', 'netgraph-fcgi', '--no-pager', '-o', 'json')
    .trim().split('\n').map((line) => JSON.parse(line));
  const priorityOf = (pattern) => entries.find((e) => typeof e.MESSAGE === 'string' && pattern.test(e.MESSAGE))?.PRIORITY;
  assert.equal(priorityOf(/worker started as pid/), '6', 'info');
  assert.equal(priorityOf(/redemptions fail/), '4', 'warning');
});

test('template units run a second pool and a second netgraph-ws beside the first (docs/operations.md, "Scaling")', async () => {
  container.must('cp', '-p', envFile, '/etc/netgraph/netgraph-2.env');
  container.must('systemctl', 'start', 'netgraph-fcgi@2.socket', 'netgraph-ws@2.socket', 'netgraph-fcgi@2', 'netgraph-ws@2');
  for (const unit of ['netgraph-fcgi', 'netgraph-ws', 'netgraph-fcgi@2', 'netgraph-ws@2']) {
    assert.equal(container.run('systemctl', 'is-active', unit).stdout.trim(), 'active', unit);
  }
  // The second pool answers on its own socket (what its nginx upstream server names).
  const answer = await fastcgiGraphql(container.file('/run/netgraph/fcgi-2.sock'), '{ __typename }');
  assert.equal(answer.status, 200);
  assert.equal(answer.body.data.__typename, 'Query');
  assert.ok(existsSync(container.file('/run/netgraph/ws-2.sock')), 'the second netgraph-ws\'s socket');
  container.must('systemctl', 'stop', 'netgraph-fcgi@2.socket', 'netgraph-ws@2.socket', 'netgraph-fcgi@2', 'netgraph-ws@2');
  assert.equal((await graphql('{ __typename }')).status, 200, 'the first pool serves on');
});

test('systemctl stop leaves no netgraph process', async () => {
  container.must('systemctl', 'stop', 'netgraph-fcgi.socket', 'netgraph-ws.socket', 'netgraph-fcgi', 'netgraph-ws');
  await container.waitFor(() => container.run('pgrep', '-u', 'netgraph').stdout.trim() === '', 'no netgraph process');
});

test('apt-get remove keeps /etc/netgraph/netgraph.env; purge removes it', () => {
  container.must('apt-get', 'remove', '-y', '-qq', 'netgraph');
  assert.equal(container.run('test', '-f', envFile).status, 0, 'remove keeps the configuration');
  assert.notEqual(container.run('test', '-x', '/usr/bin/netgraph-fcgi').status, 0);
  container.must('apt-get', 'purge', '-y', '-qq', 'netgraph');
  assert.notEqual(container.run('test', '-e', envFile).status, 0, 'purge removes it');
});
