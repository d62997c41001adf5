// --version on every binary, and the same version in /health's JSON.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { baseUrl, repo } from '../support/stack.mjs';
import { binDir } from '../support/daemon.mjs';

// project(netgraph VERSION x.y.z) in the top-level CMakeLists.txt.
const projectVersion = readFileSync(path.join(repo, 'CMakeLists.txt'), 'utf8')
  .match(/project\(netgraph VERSION (\d+\.\d+\.\d+)/)[1];

function versionOf(binary) {
  const run = spawnSync(path.join(binDir, binary), ['--version'], { encoding: 'utf8', env: {} });
  assert.equal(run.status, 0, `${binary} --version: ${run.stderr}`);
  const match = run.stdout.match(new RegExp(`^${binary} (\\S+)\\n$`));
  assert.ok(match, `${binary} --version printed ${JSON.stringify(run.stdout)}`);
  return match[1];
}

test('every binary answers --version with the release version (cmake/ReleaseVersion.cmake), and exits 0', () => {
  const versions = ['netgraph-fcgi', 'netgraph-ws', 'netgraphctl'].map(versionOf);
  for (const version of versions) {
    // A git checkout: the tag's version, or the commits since it and the commit the build was
    // configured at, or without a tag the project() version with the commit count and commit.
    assert.match(version, new RegExp(`^${projectVersion.replaceAll('.', '\\.')}` +
      '(~(rc|beta|alpha)\\d+)?(\\+\\d+\\.g[0-9a-f]{12}|\\+0~git\\d+\\.g[0-9a-f]{12})?$'));
  }
  assert.equal(new Set(versions).size, 1, `one version for all: ${versions}`);
});

test('--version needs no configuration: it answers even where the service would refuse to start', () => {
  const run = spawnSync(path.join(binDir, 'netgraph-fcgi'), ['--version'], {
    encoding: 'utf8', env: { NETGRAPH_LOG_LEVEL: 'loud', NETGRAPH_WORKERS: 'many' },
  });
  assert.equal(run.status, 0);
  assert.equal(run.stderr, '');
});

test('an unknown option is a usage error (2) that lists the options', () => {
  for (const binary of ['netgraph-fcgi', 'netgraph-ws']) {
    const run = spawnSync(path.join(binDir, binary), ['--verison'], { encoding: 'utf8', env: {} });
    assert.equal(run.status, 2, binary);
    assert.match(run.stderr, /--check-config \| --print-config \| --version \| --help/);
  }
});

test('/health reports the version the binaries report', async () => {
  const response = await fetch(`${baseUrl}/health`);
  assert.equal(response.status, 200);
  const body = await response.json();
  assert.equal(body.version, versionOf('netgraph-fcgi'));
});
