// The upgrade from the previous release ($NETGRAPH_PREVIOUS_DEB, tests/deploy/previous-package.sh)
// to this one ($NETGRAPH_DEB) under load, in a Debian 12 container under systemd, as
// docs/operations.md ("Upgrading") tells an operator: queries and claims from several client
// addresses and networkUpdated subscribers on both WebSocket protocols run across `apt-get install`
// of the new package, which migrates and restarts the services. No HTTP request may fail, and every
// subscriber must resume (reconnect and read networkGraph, as ws/README.md tells clients) with no
// update missed. Then a boot with PostgreSQL down: the services come up by themselves once it is.
//
// The container's root is an overlay of the cached root filesystem that this test mounts itself
// and boots with --volatile=no, so that booting it again is a reboot.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { newKeyPair } from '../support/jwt.mjs';
import { Container, rootfs } from './container.mjs';
import { post, requestLoop, LegacySubscriber, TransportSubscriber, siteUrl } from './clients.mjs';
import { aptInstallLine, configure, journal, pause, runDocsBlock, shippedConfiguration, waitForHealth } from './install.mjs';

const deb = process.env.NETGRAPH_DEB;
const previousDeb = process.env.NETGRAPH_PREVIOUS_DEB;
const scratch = mkdtempSync(path.join(os.tmpdir(), 'netgraph-upgrade-'));
const state = path.join(scratch, 'state');
const merged = path.join(state, 'merged');

// The identity provider: tokens for the claims are signed with its key (tests/support/jwt.mjs).
const providerKey = newKeyPair('ec');
const devKeyFile = path.join(scratch, 'provider.pem');
writeFileSync(devKeyFile, providerKey.privateKey.export({ format: 'pem', type: 'pkcs8' }));
Object.assign(process.env, {
  NETGRAPH_BASE_URL: siteUrl, NETGRAPH_WS_URL: 'ws://127.0.0.1:8080/graphql', NETGRAPH_RUN_DIR: scratch,
  NETGRAPH_DEV_SIGNING_KEY: devKeyFile, NETGRAPH_JWT_ISSUER: 'https://idp.upgrade.test/',
  NETGRAPH_JWT_AUDIENCE: 'netgraph-upgrade',
});
const { tokenFor } = await import('../support/jwt.mjs');
const { CLAIM, randomWallet } = await import('../support/api.mjs');

let container = new Container(`netgraph-upgrade-${process.pid}`);
let codes = [];

const mainPid = (unit) => Number(container.must('systemctl', 'show', '-p', 'MainPID', '--value', unit).trim());
const version = async () => (await (await fetch(`${siteUrl}/health`)).json()).version;
const packageVersion = (file) => execFileSync('dpkg-deb', ['-f', file, 'Version'], { encoding: 'utf8' }).trim();

async function walletNodes() {
  const { body } = await post('{ networkGraph(limit: 1000) { nodes { id type } } }');
  return new Set(body.data.networkGraph.nodes.filter((n) => n.type === 'Wallet').map((n) => n.id));
}

before(async () => {
  assert.ok(deb && previousDeb, 'NETGRAPH_DEB and NETGRAPH_PREVIOUS_DEB name the packages (tests/deploy/run.sh)');
  for (const dir of ['upper', 'work', 'merged']) mkdirSync(path.join(state, dir), { recursive: true });
  execFileSync('mount', ['-t', 'overlay', 'overlay', '-o',
    `lowerdir=${rootfs()},upperdir=${state}/upper,workdir=${state}/work`, merged]);
  await container.boot(merged, { volatile: 'no' });
  container.must('apt-get', 'update', '-qq');
  container.must('apt-get', 'install', '-y', '-qq', '--no-install-recommends', 'curl');  // the docs use it

  // The previous release, installed and set up as its docs said: one PostgreSQL role, and (0.1.0
  // had no other way to open a round) the demo data.
  copyFileSync(previousDeb, container.file(`/root/${path.basename(previousDeb)}`));
  container.must('sh', '-c', `cd /root && apt-get install -y -qq ./${path.basename(previousDeb)} nginx postgresql redis-server`);
  container.must('runuser', '-u', 'postgres', '--', 'createuser', 'netgraph');
  container.must('runuser', '-u', 'postgres', '--', 'createdb', '-O', 'netgraph', 'netgraph');
  container.must('install', '-o', 'netgraph', '-g', 'netgraph', '-m', '0600', '/dev/null', '/etc/netgraph/update-signing.key');
  container.must('sh', '-c', 'openssl rand -hex 32 > /etc/netgraph/update-signing.key');
  container.write('/etc/netgraph/idp.pem', providerKey.publicKey.export({ format: 'pem', type: 'spki' }));
  configure(container, shippedConfiguration(container), {
    NETGRAPH_UPDATE_SIGNING_KEY_FILE: '/etc/netgraph/update-signing.key',
    NETGRAPH_JWT_PUBLIC_KEY_FILE: '/etc/netgraph/idp.pem',
    NETGRAPH_JWT_ISSUER: process.env.NETGRAPH_JWT_ISSUER,
    NETGRAPH_JWT_AUDIENCE: process.env.NETGRAPH_JWT_AUDIENCE,
    NETGRAPH_WORKERS: 2,
  });
  container.must('systemctl', 'enable', '--now', 'netgraph-fcgi.socket', 'netgraph-ws.socket', 'netgraph-fcgi.service', 'netgraph-ws.service');
  container.must('ln', '-s', '/etc/nginx/sites-available/netgraph', '/etc/nginx/sites-enabled/netgraph');
  container.must('systemctl', 'reload', 'nginx');
  await waitForHealth(container);
  container.must('runuser', '-u', 'netgraph', '--', 'netgraphctl', 'seed', '--demo');
  codes = container.must('runuser', '-u', 'netgraph', '--', 'netgraphctl', 'vouchers', 'issue', '--amount', '10', '--count', '200')
    .trim().split('\n');
}, { timeout: 600000 });

after(async () => {
  await container.destroy();
  spawnUmount();
  rmSync(scratch, { recursive: true, force: true });
});

function spawnUmount() {
  try { execFileSync('umount', [merged], { stdio: 'ignore' }); } catch { /* not mounted */ }
}

test('apt-get install of this release under load: 0 failed requests, every subscriber resumes with no update missed', { timeout: 600000 }, async () => {
  // 0.1.0 said its commit after a "+g"; later releases say their version as the package does.
  const before = await version();
  assert.ok(before.startsWith(packageVersion(previousDeb).replace(/-1$/, '')), `the previous release serves: ${before}`);
  const walletsBefore = await walletNodes();

  const subscribers = [
    new TransportSubscriber('127.0.0.5'), new TransportSubscriber('127.0.0.5'),
    new LegacySubscriber('127.0.0.6'), new LegacySubscriber('127.0.0.6'),
  ];
  await Promise.all(subscribers.map((s) => s.start()));

  let claimed = 0;
  const loops = [
    requestLoop({ address: '127.0.0.2', pauseMs: 60, next: () => ({
      query: '{ networkGraph(limit: 5) { metadata { nodeCount } } investmentData { tokenName currentRound } }',
      check: (body) => body?.data?.investmentData?.currentRound === 'Seed',
    }) }),
    requestLoop({ address: '127.0.0.3', pauseMs: 60, next: () => ({
      query: '{ __typename }', check: (body) => body?.data?.__typename === 'Query',
    }) }),
    requestLoop({ address: '127.0.0.4', pauseMs: 150, next: () => {
      const code = codes[claimed++];
      return {
        query: CLAIM, variables: { code, wallet: randomWallet() }, token: tokenFor(`did:upgrade:${code}`),
        check: (body) => body?.data?.claimVoucher?.success === true,
      };
    } }),
  ];
  await pause(2000);

  // docs/operations.md, "Upgrading": the previous release's one role hands the schema to
  // netgraph-migrate (while it serves), then apt-get installs the new package.
  const fcgiBefore = mainPid('netgraph-fcgi');
  const wsBefore = mainPid('netgraph-ws');
  await runDocsBlock(container, 'upgrade-from-0.1.0');
  const upgraded = await runDocsBlock(container, 'upgrade', (line) => aptInstallLine(container, deb, line));
  const after = packageVersion(deb).replace(/-1$/, '');
  await container.waitFor(async () => (await version()) === after, 'the new release to serve');
  assert.notEqual(mainPid('netgraph-fcgi'), fcgiBefore, 'the pool restarted on the new binary');
  assert.equal(container.must('stat', '-c', '%U:%G %a', '/etc/netgraph/netgraph.env').trim(), 'root:netgraph 640');
  assert.notEqual(mainPid('netgraph-ws'), wsBefore, 'netgraph-ws restarted on the new binary');
  await container.waitFor(() => subscribers.every((s) => s.connections >= 2), 'every subscriber to reconnect', 30000);
  await pause(3000);

  const tallies = await Promise.all(loops.map((loop) => loop.stop()));
  await Promise.all(subscribers.map((s) => s.resynchronising));
  await pause(1000);  // the last claims' updates
  const failed = tallies.flatMap((t) => t.failed);
  assert.deepEqual(failed, [], `failed requests:\n${failed.join('\n')}\n${upgraded.join('\n')}\n${journal(container)}`);
  assert.ok(tallies.every((t) => t.ok > 10), JSON.stringify(tallies.map((t) => t.ok)));
  assert.ok(claimed > 20, `${claimed} claims`);

  const newWallets = [...(await walletNodes())].filter((id) => !walletsBefore.has(id));
  assert.equal(newWallets.length, claimed, 'every claim added its wallet');
  for (const [i, subscriber] of subscribers.entries()) {
    const missed = newWallets.filter((id) => !subscriber.knows(id));
    assert.deepEqual(subscriber.failures, [], `subscriber ${i}`);
    assert.deepEqual(missed, [], `subscriber ${i} (${subscriber.constructor.name}, ${subscriber.connections} connections) missed updates`);
    assert.ok(subscriber.updates.size > 0, `subscriber ${i} received updates`);
  }
  await Promise.all(subscribers.map((s) => s.stop()));
});

test('a boot with PostgreSQL down: the services wait, and come up by themselves once it is up', { timeout: 300000 }, async () => {
  container.must('systemctl', 'disable', '--quiet', 'postgresql.service');
  await container.destroy();
  container = new Container(`netgraph-upgrade-${process.pid}-reboot`);
  await container.boot(merged, { volatile: 'no', untilRunning: false });
  await container.waitFor(() => container.run('journalctl', '-u', 'netgraph-migrate', '--no-pager', '-o', 'cat')
    .stdout.includes('waiting for PostgreSQL'), 'netgraph-migrate to wait for PostgreSQL');
  assert.equal(container.run('systemctl', 'is-active', 'postgresql@15-main').stdout.trim(), 'inactive');
  assert.notEqual(container.run('systemctl', 'is-active', 'netgraph-fcgi.service').stdout.trim(), 'active');

  container.must('systemctl', 'start', 'postgresql.service');
  await waitForHealth(container, 120000);
  assert.equal(container.run('systemctl', 'is-active', 'netgraph-migrate', 'netgraph-fcgi', 'netgraph-ws').stdout.trim(),
    'active\nactive\nactive');
  const code = codes[codes.length - 1];
  const { body } = await post(CLAIM, { variables: { code, wallet: randomWallet() }, token: tokenFor('did:upgrade:after-boot') });
  assert.equal(body.data.claimVoucher.success, true, JSON.stringify(body));
});
