// The figures of the capacity model (docs/operations.md, "Capacity"), measured on the cluster of
// hosts.mjs: the CPU each kind of request costs each host, read from the hosts' cgroups (every
// process of a host is in its container's), and how many claims per second the primary takes.
// Requests are paced per client address below nginx's limit_req (20/s per address), so what is
// measured is the service's work, not the refusals.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { Keypair } from '@solana/web3.js';
import { CLAIM, PORTFOLIO, agentSend, printTable, requester, sleep } from '../support/fault-load.mjs';
import { APP_HOSTS, DATABASE_HOSTS, HOSTS } from './hosts.mjs';
import { CLIENT_ADDRESSES } from './network.mjs';

const PER_ADDRESS_PER_SECOND = 18;  // under nginx's 20 requests/s per client address

function cpuMicros(container) {
  const unified = container.cgroups.find((c) => c.includes('/unified/'));
  const stat = readFileSync(`${unified}/cpu.stat`, 'utf8');
  return Number(/usage_usec (\d+)/.exec(stat)[1]);
}


// Sends `count` operations (`operation(request, i)` returns a promise of an outcome) at most
// `perSecond` a second from each client address, `concurrency` at a time per address; returns
// {ok, failed, seconds, cpu: {host: microseconds}}. CPU per request in the table is net of each
// host's idle CPU (idleRates).
async function measure(cluster, url, { count, perSecond = PER_ADDRESS_PER_SECOND, concurrency = 2, operation }) {
  const requests = CLIENT_ADDRESSES.map((localAddress) => requester(url, {
    send: agentSend(new http.Agent({ keepAlive: true, localAddress, timeout: 4000 })),
  }));
  const hosts = Object.keys(HOSTS);
  const before = Object.fromEntries(hosts.map((h) => [h, cpuMicros(cluster.host(h))]));
  const started = Date.now();
  let next = 0;
  let ok = 0;
  let failed = 0;
  const why = new Map();  // what the failures were, counted
  const interval = 1000 / perSecond;
  await Promise.all(requests.flatMap((request, address) => Array.from({ length: concurrency }, async (_, lane) => {
    let due = started + (lane * interval) / concurrency;
    while (next < count) {
      const i = next++;
      const wait = due - Date.now();
      if (wait > 0) await sleep(wait);
      // A lane that fell behind (slow answers) does not catch up in a burst, which nginx's
      // limit_req would refuse.
      due = Math.max(due, Date.now()) + interval * concurrency;
      const outcome = await operation(request, i, address);
      if (outcome === true) {
        ok += 1;
      } else {
        failed += 1;
        why.set(outcome, (why.get(outcome) ?? 0) + 1);
      }
    }
  })));
  const seconds = (Date.now() - started) / 1000;
  const cpu = Object.fromEntries(hosts.map((h) => [h, cpuMicros(cluster.host(h)) - before[h]]));
  return { ok, failed, seconds, cpu, why: [...why].map(([what, n]) => `${n}: ${what}`).join('; ') };
}

// Each host's CPU with no request at all, in microseconds per second: the daemons' own work
// (pg_auto_failover's checks, the relay's poll, checkpoints, HAProxy's checks...), taken out of
// what a load costs.
async function idleRates(cluster, seconds = 5) {
  const hosts = Object.keys(HOSTS);
  const before = Object.fromEntries(hosts.map((h) => [h, cpuMicros(cluster.host(h))]));
  const started = Date.now();
  await sleep(seconds * 1000);
  const elapsed = (Date.now() - started) / 1000;
  return Object.fromEntries(hosts.map((h) => [h, (cpuMicros(cluster.host(h)) - before[h]) / elapsed]));
}

// true, or what went wrong.
const answered = (r) => (r.outcome === 'ok' ? true : `${r.outcome} ${r.detail}`);
const claimed = (r) => (r.outcome === 'ok' && !r.data.claimVoucher.success ? r.data.claimVoucher.error : answered(r));

const PUBLIC_READ = '{ investmentData { tokenSymbol roundRaised investorCount } networkGraph(limit: 20) { nodes { id } } }';

export async function measureCapacity({ cluster, netgraphctl, mintToken }) {
  const primary = await cluster.healthyPrimary();
  const standby = DATABASE_HOSTS.find((h) => h !== primary);
  const master = await cluster.redisMaster();
  const app = APP_HOSTS[0];
  const direct = `http://${HOSTS[app].address}:8080/graphql`;
  const balanced = `http://${HOSTS.lb.address}/graphql`;
  const issue = async (count, batch) => (await netgraphctl('vouchers', 'issue', '--amount', '1', '--count', String(count), '--batch', batch)).trim().split('\n');

  const users = await Promise.all(Array.from({ length: 50 }, async (_, i) => {
    const did = `did:netgraph:capacity-${i}-${randomUUID()}`;
    return { token: await mintToken(did), wallet: Keypair.generate().publicKey.toBase58() };
  }));
  // Every user claims once, so its portfolio has something in it.
  const warmCodes = await issue(users.length, 'capacity-warm');
  await measure(cluster, direct, {
    count: users.length,
    operation: async (request, i) => claimed(await request(CLAIM, { token: users[i].token, mutation: true, variables: { code: warmCodes[i], wallet: users[i].wallet } })),
  });

  const idle = await idleRates(cluster);
  const rows = [];
  const cost = (result, host) => Math.max(0, result.cpu[host] - idle[host] * result.seconds) / Math.max(1, result.ok);
  const perRequest = (result, host) => cost(result, host).toFixed(0);
  const row = (what, result) => {
    if (result.failed) console.log(`${what}: failed ${result.why}`);
    rows.push([what, `${result.ok} (${result.failed} failed)`, (result.ok / result.seconds).toFixed(1),
      perRequest(result, app), perRequest(result, primary), perRequest(result, standby), perRequest(result, master),
      perRequest(result, 'lb')]);
    return result;
  };

  const reads = row('public read, one app host', await measure(cluster, direct, {
    count: 3000, operation: async (request) => answered(await request(PUBLIC_READ)),
  }));
  row('portfolio read, one app host', await measure(cluster, direct, {
    count: 2000,
    operation: async (request, i) => {
      const r = await request(PORTFOLIO, { token: users[i % users.length].token });
      return r.outcome === 'ok' && !r.data.getUserPortfolio.success ? r.data.getUserPortfolio.error : answered(r);
    },
  }));
  const claimCodes = await issue(2000, 'capacity');
  const claims = row('claim (new voucher), one app host', await measure(cluster, direct, {
    count: claimCodes.length,
    operation: async (request, i) => {
      const user = users[i % users.length];
      return claimed(await request(CLAIM, { token: user.token, mutation: true, variables: { code: claimCodes[i], wallet: user.wallet } }));
    },
  }));
  // As many claims as the client addresses allow, through the balancer to both app hosts.
  const burstCodes = await issue(4000, 'capacity-burst');
  const burst = row('claims at the clients\' limit, both app hosts', await measure(cluster, balanced, {
    count: burstCodes.length, concurrency: 4,
    operation: async (request, i) => {
      const user = users[i % users.length];
      return claimed(await request(CLAIM, { token: user.token, mutation: true, variables: { code: burstCodes[i], wallet: user.wallet } }));
    },
  }));
  console.log(`\ncapacity: CPU per request in microseconds, by host (app: ${app}, primary: ${primary}, ` +
    `standby: ${standby}, Redis master: ${master}, balancer: lb); ${CLIENT_ADDRESSES.length} client addresses ` +
    `at most ${PER_ADDRESS_PER_SECOND} requests/s each\n`);
  rows.push(['(no request: CPU per second)', '', '', ...[app, primary, standby, master, 'lb'].map((h) => idle[h].toFixed(0))]);
  printTable(['load', 'requests', 'per second', 'app host', 'primary', 'standby', 'Redis master', 'balancer'], rows);
  const primaryPerClaim = cost(claims, primary);
  const appPerRead = cost(reads, app);
  console.log(`\nderived: one core of the primary takes about ${Math.round(1e6 / primaryPerClaim)} claims/s ` +
    `(${primaryPerClaim.toFixed(0)} µs each); one core of an app host about ${Math.round(1e6 / appPerRead)} public reads/s ` +
    `(${appPerRead.toFixed(0)} µs each) and ${Math.round(1e6 / cost(claims, app))} claims/s; ` +
    `measured at the clients' limit: ${(burst.ok / burst.seconds).toFixed(0)} claims/s with the primary at ` +
    `${(burst.cpu[primary] / 1e4 / burst.seconds).toFixed(0)}% of one core`);
}
