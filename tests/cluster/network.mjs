// The cluster test's private network: one bridge it creates and removes, carrying one small
// subnet that nothing else on the machine uses. The hosts (containers) each get an address on it;
// the machine itself gets the first few, from which the test's clients connect. No route leads
// anywhere else: the containers have no default route and the machine does not forward.
import { execFileSync, spawnSync } from 'node:child_process';

export const BRIDGE = 'ngcluster0';
export const SUBNET = '10.231.7.0/24';
export const PREFIX = '10.231.7.';
// The machine's own addresses on the bridge: clients spread over several, so the app hosts'
// per-client limits (nginx limit_req, 20 requests/s per address) see several clients.
export const CLIENT_ADDRESSES = Array.from({ length: 9 }, (_, i) => `${PREFIX}${i + 1}`);

function ip(...args) {
  return execFileSync('ip', args, { encoding: 'utf8' });
}

// Whether 10.231.7.x (any x) already means something on this machine: an address, a route, or a
// link of that name. The test refuses to run rather than shadow someone else's network.
export function subnetInUse() {
  if (spawnSync('ip', ['link', 'show', BRIDGE], { stdio: 'ignore' }).status === 0) {
    return `a link named ${BRIDGE} exists`;
  }
  const addresses = ip('-4', '-o', 'addr', 'show').split('\n').filter((l) => l.includes(` ${PREFIX}`));
  if (addresses.length) return `addresses in ${SUBNET} are in use: ${addresses.join('; ')}`;
  const routes = ip('-4', 'route', 'show', 'table', 'all').split('\n')
    .filter((l) => l.startsWith(PREFIX) || l.includes(` ${PREFIX}`) || l.startsWith('10.0.0.0/8') || l.startsWith('10.231.'));
  if (routes.length) return `routes cover ${SUBNET}: ${routes.join('; ')}`;
  return null;
}

export function createBridge() {
  ip('link', 'add', BRIDGE, 'type', 'bridge');
  for (const address of CLIENT_ADDRESSES) ip('addr', 'add', `${address}/24`, 'dev', BRIDGE);
  ip('link', 'set', BRIDGE, 'up');
}

export function removeBridge() {
  spawnSync('ip', ['link', 'del', BRIDGE], { stdio: 'ignore' });
}
