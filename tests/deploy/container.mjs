// A Debian 12 container with systemd as PID 1, for the deployment test (how this works on these
// machines: ../shared/notes/systemd-container.md of the team's notes; summarised here).
//
// - The root filesystem is built once by mmdebstrap from the host's own apt sources and cached in
//   $NETGRAPH_DEPLOY_CACHE (default /var/cache/netgraph-deploy), keyed by the package list.
// - systemd-nspawn boots it with --volatile=overlay (every write goes to a tmpfs, the cache stays
//   pristine) and shares the host's network: the container's ports are host ports.
// - The host has no systemd bus, so commands run inside through nsenter into PID 1's namespaces.
// - For several hosts (tests/cluster/): rootfs({packages, disable, enable}) builds another cached
//   root; a Container made with {bridge, stateDir} gets its own network namespace on that bridge
//   and a disk that outlives a power-off (powerOff(), then boot() again); runAsync/mustAsync run a
//   command inside without blocking the caller's event loop (its load and clients go on meanwhile).
import { execFile, execFileSync, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const cacheDir = process.env.NETGRAPH_DEPLOY_CACHE ?? '/var/cache/netgraph-deploy';
const EATMYDATA_HOOK = '/usr/share/mmdebstrap/hooks/eatmydata';
const PACKAGES = ['systemd', 'systemd-sysv', 'dbus', 'postgresql', 'redis-server', 'nginx', 'ca-certificates', 'procps'];

function aptSources() {
  const dir = '/etc/apt/sources.list.d';
  const sources = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.sources')) : [];
  return sources.length ? path.join(dir, sources[0]) : '/etc/apt/sources.list';
}

// The cached root filesystem, built when missing (about a minute; needs the Debian mirror).
// `packages` are what mmdebstrap includes; `disable` names units that must not start at boot, so a
// host runs only what its role's steps start, and `enable` units that must. Each distinct choice is
// cached under its own key. `eatmydata`: dpkg skips its fsyncs while building (mmdebstrap's hook;
// the root is the same, built in about a third of the time on a busy disk).
export function rootfs({ packages = PACKAGES, disable = [], enable = [], eatmydata = false } = {}) {
  const units = disable.length || enable.length ? `;disable=${disable.join(',')};enable=${enable.join(',')}` : '';
  const choice = packages.join(',') + units;
  const key = createHash('sha256').update(choice).digest('hex').slice(0, 12);
  const dir = path.join(cacheDir, `bookworm-${key}`);
  if (existsSync(path.join(dir, 'usr/lib/systemd/systemd'))) return dir;
  mkdirSync(cacheDir, { recursive: true });
  const building = `${dir}.building-${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  execFileSync('mmdebstrap', ['--variant=minbase', `--include=${packages.join(',')}`,
    '--skip=cleanup/apt/lists',
    '--dpkgopt=path-exclude=/usr/share/man/*', '--dpkgopt=path-exclude=/usr/share/locale/*',
    ...(eatmydata && existsSync(EATMYDATA_HOOK) ? [`--hook-directory=${EATMYDATA_HOOK}`] : []),
    'bookworm', building, aptSources()], { stdio: ['ignore', 'ignore', 'inherit'] });
  // Nothing waits for a console or a network the container does not manage.
  execFileSync('systemctl', ['--root', building, 'mask', 'console-getty.service',
    'systemd-networkd-wait-online.service'], { stdio: 'ignore' });
  if (disable.length) execFileSync('systemctl', ['--root', building, 'disable', ...disable], { stdio: 'ignore' });
  if (enable.length) execFileSync('systemctl', ['--root', building, 'enable', ...enable], { stdio: 'ignore' });
  renameSync(building, dir);
  return dir;
}

export class Container {
  // `bridge`: an existing bridge; the container gets its own network namespace, whose interface
  // host0 is plugged into it (nspawn --network-bridge), instead of the host's network.
  // `stateDir`: a host directory for the container's writes (an overlay's upper layer over the
  // cached root), kept across powerOff() and boot(); without it every write goes to a tmpfs.
  // `env`: more NAME=value settings for every command run inside.
  constructor(name, { bridge, stateDir, env = [] } = {}) {
    this.name = name;
    this.bridge = bridge;
    this.stateDir = stateDir;
    this.env = env;
    this.cgroups = ['unified', 'systemd'].map((h) => `/sys/fs/cgroup/${h}/${name}`)
      .filter((c) => existsSync(path.dirname(c)));
  }

  // The container's writable layer as the host sees it (with a stateDir): files put here before
  // boot() are there from the first instant, e.g. the network configuration.
  get upper() { return this.stateDir ? path.join(this.stateDir, 'upper') : null; }

  // Boots `root` and waits until systemd is up. `volatile` is nspawn's --volatile: 'overlay' (the
  // default) keeps every write in memory, so `root` stays as it was; 'no' writes to `root`, so
  // booting the same `root` again is a reboot (upgrade.test.mjs mounts an overlay of its own there).
  // With a stateDir, writes go to an overlay there instead, which outlives a power-off. `untilRunning`
  // false waits only until systemd answers, not until the boot is done (a unit that waits for
  // something the test withholds holds the boot up).
  async boot(root, { volatile = 'overlay', untilRunning = true } = {}) {
    for (const cgroup of this.cgroups) mkdirSync(cgroup, { recursive: true });
    let tree = root;
    let disk = `--volatile=${volatile}`;
    if (this.stateDir) {
      tree = path.join(this.stateDir, 'root');
      for (const sub of ['upper', 'work', 'root']) mkdirSync(path.join(this.stateDir, sub), { recursive: true });
      execFileSync('mount', ['-t', 'overlay', 'overlay', '-o',
        `lowerdir=${root},upperdir=${this.upper},workdir=${path.join(this.stateDir, 'work')}`, tree]);
      this.mounted = tree;
      disk = '';
    }
    const network = this.bridge ? `--network-bridge=${this.bridge}` : '';
    this.leader = undefined;
    // nspawn (with --keep-unit) makes its payload/ and supervisor/ cgroups under its own: the
    // launching shell moves into a dedicated one first, so they are not made at the host's root.
    const enter = this.cgroups.map((c) => `echo $$ > ${c}/cgroup.procs`).join('; ');
    this.nspawn = spawn('sh', ['-c', `${enter}; exec systemd-nspawn --quiet --boot --register=no ` +
      `--keep-unit --console=passive ${disk} ${network} -D "$1" -M ${this.name}`, 'sh', tree],
    { stdio: ['ignore', 'ignore', 'pipe'] });
    this.log = '';
    this.nspawn.stderr.on('data', (chunk) => { this.log += chunk; });
    const deadline = Date.now() + 60000;
    while (!this.leader) {
      if (this.nspawn.exitCode !== null) throw new Error(`systemd-nspawn exited: ${this.log}`);
      if (Date.now() > deadline) throw new Error(`the container did not start: ${this.log}`);
      // nspawn forks a short-lived helper before the container's PID 1: wait for the child that
      // runs systemd (on a busy machine the helper is still there at the first look).
      const children = spawnSync('pgrep', ['-P', String(this.nspawn.pid)], { encoding: 'utf8' }).stdout.trim();
      this.leader = children.split('\n').filter(Boolean).map(Number).find((pid) => {
        try { return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'systemd'; } catch { return false; }
      });
      if (!this.leader) await new Promise((resolve) => setTimeout(resolve, 100));
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
    const result = spawnSync('nsenter', this.inside(command), { encoding: 'utf8', timeout: 300000 });
    return { status: result.status, stdout: result.stdout ?? '', stderr: result.stderr ?? '' };
  }

  // nsenter's arguments for `command`: every namespace of PID 1 and a clean environment.
  inside(command) {
    return ['-t', String(this.leader), '-a', 'env', '-i', 'PATH=/usr/sbin:/usr/bin:/sbin:/bin',
      'LANG=C.UTF-8', 'DEBIAN_FRONTEND=noninteractive', ...this.env, ...command];
  }

  // run(), resolving when the command ends.
  runAsync(...command) {
    return new Promise((resolve) => {
      execFile('nsenter', this.inside(command), { encoding: 'utf8', timeout: 300000, maxBuffer: 1 << 26 },
        (error, stdout, stderr) => resolve({
          status: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout: stdout ?? '', stderr: stderr ?? '',
        }));
    });
  }

  // must(), resolving with the command's stdout.
  async mustAsync(...command) {
    const result = await this.runAsync(...command);
    if (result.status !== 0) {
      throw new Error(`${this.name}: ${command.join(' ')} failed (${result.status}):\n${result.stdout}\n${result.stderr}`);
    }
    return result.stdout;
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

  // Pulls the plug: every process of the container is killed at once (as `machinectl terminate`
  // does), nothing shuts down cleanly. Its disk (stateDir) stays; boot() starts it again.
  async powerOff() {
    const exited = this.nspawn && this.nspawn.exitCode === null
      ? new Promise((resolve) => this.nspawn.once('exit', resolve)) : null;
    await this.killCgroup();
    await exited;
    await this.release();
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
    await this.killCgroup();
    await this.release();
  }

  // Kills whatever is left in the container's cgroup and waits (up to 10 s) until it is empty.
  async killCgroup() {
    const unified = this.cgroups.find((c) => c.includes('/unified/'));
    if (!unified || !existsSync(path.join(unified, 'cgroup.kill'))) return;
    try { writeFileSync(path.join(unified, 'cgroup.kill'), '1'); } catch { /* already empty */ }
    for (let attempt = 0; attempt < 100; attempt += 1) {
      let events = '';
      try { events = readFileSync(path.join(unified, 'cgroup.events'), 'utf8'); } catch { return; }
      if (/^populated 0$/m.test(events)) return;
      await pause(100);
    }
  }

  // What is left on the host once the container's processes are gone: its cgroups, nspawn's
  // propagation directory and the overlay mount (the disk itself stays in stateDir).
  async release() {
    for (const cgroup of this.cgroups) removeCgroup(cgroup);
    rmSync(`/run/systemd/nspawn/propagate/${this.name}`, { recursive: true, force: true });
    if (this.mounted) {
      // The last processes may still be closing their files for a moment after they are reaped.
      for (let attempt = 0; attempt < 50; attempt += 1) {
        if (spawnSync('umount', [this.mounted]).status === 0) break;
        await pause(100);
      }
      this.mounted = undefined;
    }
  }
}

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// cgroup directories are removed with rmdir, deepest first.
function removeCgroup(dir) {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir)) {
    const sub = path.join(dir, entry);
    if (statSync(sub).isDirectory()) removeCgroup(sub);
  }
  spawnSync('rmdir', [dir]);
}
