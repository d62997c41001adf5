// A Debian 12 container with systemd as PID 1, for the deployment test (how this works on these
// machines: ../shared/notes/systemd-container.md of the team's notes; summarised here).
//
// - The root filesystem is built once by mmdebstrap from the host's own apt sources and cached in
//   $NETGRAPH_DEPLOY_CACHE (default /var/cache/netgraph-deploy), keyed by the package list.
// - systemd-nspawn boots it with --volatile=overlay (every write goes to a tmpfs, the cache stays
//   pristine) and shares the host's network: the container's ports are host ports.
// - The host has no systemd bus, so commands run inside through nsenter into PID 1's namespaces.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const cacheDir = process.env.NETGRAPH_DEPLOY_CACHE ?? '/var/cache/netgraph-deploy';
const PACKAGES = ['systemd', 'systemd-sysv', 'dbus', 'postgresql', 'redis-server', 'nginx', 'ca-certificates', 'procps'];

function aptSources() {
  const dir = '/etc/apt/sources.list.d';
  const sources = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.sources')) : [];
  return sources.length ? path.join(dir, sources[0]) : '/etc/apt/sources.list';
}

// The cached root filesystem, built when missing (about a minute; needs the Debian mirror).
export function rootfs() {
  const key = createHash('sha256').update(PACKAGES.join(',')).digest('hex').slice(0, 12);
  const dir = path.join(cacheDir, `bookworm-${key}`);
  if (existsSync(path.join(dir, 'usr/lib/systemd/systemd'))) return dir;
  mkdirSync(cacheDir, { recursive: true });
  const building = `${dir}.building-${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  execFileSync('mmdebstrap', ['--variant=minbase', `--include=${PACKAGES.join(',')}`,
    '--skip=cleanup/apt/lists',
    '--dpkgopt=path-exclude=/usr/share/man/*', '--dpkgopt=path-exclude=/usr/share/locale/*',
    'bookworm', building, aptSources()], { stdio: ['ignore', 'ignore', 'inherit'] });
  // Nothing waits for a console or a network the container does not manage.
  execFileSync('systemctl', ['--root', building, 'mask', 'console-getty.service',
    'systemd-networkd-wait-online.service'], { stdio: 'ignore' });
  renameSync(building, dir);
  return dir;
}

export class Container {
  constructor(name) {
    this.name = name;
    this.cgroups = ['unified', 'systemd'].map((h) => `/sys/fs/cgroup/${h}/${name}`)
      .filter((c) => existsSync(path.dirname(c)));
  }

  // Boots `root` and waits until systemd is up. `volatile` is nspawn's --volatile: 'overlay' (the
  // default) keeps every write in memory, so `root` stays as it was; 'no' writes to `root`, so
  // booting the same `root` again is a reboot (upgrade.test.mjs mounts an overlay of its own there).
  // `untilRunning` false waits only until systemd answers, not until the boot is done (a unit that
  // waits for something the test withholds holds the boot up).
  async boot(root, { volatile = 'overlay', untilRunning = true } = {}) {
    for (const cgroup of this.cgroups) mkdirSync(cgroup, { recursive: true });
    // nspawn (with --keep-unit) makes its payload/ and supervisor/ cgroups under its own: the
    // launching shell moves into a dedicated one first, so they are not made at the host's root.
    const enter = this.cgroups.map((c) => `echo $$ > ${c}/cgroup.procs`).join('; ');
    this.nspawn = spawn('sh', ['-c', `${enter}; exec systemd-nspawn --quiet --boot --register=no ` +
      `--keep-unit --console=passive --volatile=${volatile} -D "$1" -M ${this.name}`, 'sh', root],
    { stdio: ['ignore', 'ignore', 'pipe'] });
    this.log = '';
    this.nspawn.stderr.on('data', (chunk) => { this.log += chunk; });
    const deadline = Date.now() + 60000;
    while (!this.leader) {
      if (this.nspawn.exitCode !== null) throw new Error(`systemd-nspawn exited: ${this.log}`);
      if (Date.now() > deadline) throw new Error(`the container did not start: ${this.log}`);
      const child = spawnSync('pgrep', ['-P', String(this.nspawn.pid)], { encoding: 'utf8' }).stdout.trim();
      if (child) this.leader = Number(child.split('\n')[0]);
      else await new Promise((resolve) => setTimeout(resolve, 100));
    }
    if (!untilRunning) {
      await this.waitFor(() => /^(starting|running|degraded)/.test(this.run('systemctl', 'is-system-running').stdout),
        'systemd to answer');
      return;
    }
    await this.waitFor(() => /^(running|degraded)/.test(this.run('systemctl', 'is-system-running', '--wait').stdout),
      'systemd to boot');
  }

  // Runs a command inside; returns {status, stdout, stderr}.
  run(...command) {
    const result = spawnSync('nsenter', ['-t', String(this.leader), '-a', 'env', '-i',
      'PATH=/usr/sbin:/usr/bin:/sbin:/bin', 'LANG=C.UTF-8', 'DEBIAN_FRONTEND=noninteractive', ...command],
    { encoding: 'utf8', timeout: 300000 });
    return { status: result.status, stdout: result.stdout ?? '', stderr: result.stderr ?? '' };
  }

  // Runs a command inside and returns its stdout; throws with its output when it fails.
  must(...command) {
    const result = this.run(...command);
    if (result.status !== 0) {
      throw new Error(`${command.join(' ')} failed (${result.status}):\n${result.stdout}\n${result.stderr}`);
    }
    return result.stdout;
  }

  // A path inside the container, as the host sees it.
  file(inside) { return path.join(`/proc/${this.leader}/root`, inside); }

  write(inside, content, mode = 0o644) { writeFileSync(this.file(inside), content, { mode }); }

  async waitFor(predicate, what, timeoutMs = 60000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await predicate();
      if (value) return value;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  // Halts the container and removes what nspawn leaves on the host.
  async destroy() {
    if (this.nspawn && this.nspawn.exitCode === null) {
      const exited = new Promise((resolve) => this.nspawn.once('exit', resolve));
      this.nspawn.kill('SIGTERM');
      const timer = setTimeout(() => this.nspawn.kill('SIGKILL'), 20000);
      await exited;
      clearTimeout(timer);
    }
    const unified = this.cgroups.find((c) => c.includes('/unified/'));
    if (unified && existsSync(path.join(unified, 'cgroup.kill'))) {
      try { writeFileSync(path.join(unified, 'cgroup.kill'), '1'); } catch { /* already empty */ }
    }
    for (const cgroup of this.cgroups) removeCgroup(cgroup);
    rmSync(`/run/systemd/nspawn/propagate/${this.name}`, { recursive: true, force: true });
  }
}

// cgroup directories are removed with rmdir, deepest first.
function removeCgroup(dir) {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir)) {
    const sub = path.join(dir, entry);
    if (statSync(sub).isDirectory()) removeCgroup(sub);
  }
  spawnSync('rmdir', [dir]);
}
