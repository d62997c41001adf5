// The operator's steps, as docs/operations.md writes them: each shell block there that follows a
// comment `<!-- tests/deploy: NAME -->` is run here line by line, as root in the container
// (container.mjs), so the docs say exactly what the deployment tests do. A line may be replaced
// where the test must do it its own way (the operator's editor, the path of the .deb).
import { copyFileSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { siteUrl } from './clients.mjs';

export const envFile = '/etc/netgraph/netgraph.env';
const repo = path.resolve(import.meta.dirname, '../..');

export const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// The lines of the block NAME (comments and blank lines dropped; a trailing "\" joins lines).
export function docsBlock(name, file = path.join(repo, 'docs/operations.md')) {
  const text = readFileSync(file, 'utf8');
  const marker = text.indexOf(`<!-- tests/deploy: ${name} -->`);
  if (marker < 0) throw new Error(`no block "${name}" in ${file}`);
  const start = text.indexOf('```sh\n', marker) + '```sh\n'.length;
  const end = text.indexOf('\n```', start);
  return text.slice(start, end).replace(/\\\n\s*/g, '').split('\n')
    .map((line) => line.replace(/\s+#\s.*$/, '').trim())
    .filter((line) => line && !line.startsWith('#'));
}

// Runs block NAME in /root. `replace(line)` may return another command (a string), a function to
// run instead, or nothing to run the line as written. Returns each line's output.
export async function runDocsBlock(container, name, replace = () => undefined) {
  const outputs = [];
  for (const line of docsBlock(name)) {
    const instead = replace(line);
    if (typeof instead === 'function') {
      outputs.push(await instead());
      continue;
    }
    const command = instead ?? line;
    const run = container.run('sh', '-c', `cd /root && ${command}`);
    if (run.status !== 0) {
      throw new Error(`docs/operations.md, "${name}": ${command} failed (${run.status}):\n${run.stdout}\n${run.stderr}\n${journal(container)}`);
    }
    outputs.push(run.stdout);
  }
  return outputs;
}

// The .deb at the path the docs' `apt-get install ./netgraph_VERSION_amd64.deb` names: copied into
// /root, unattended (-y), and, on an upgrade, keeping the operator's edited configuration file.
export function aptInstallLine(container, deb, line) {
  if (!/^apt-get install \.\/netgraph_\S+\.deb\b/.test(line)) return undefined;
  copyFileSync(deb, container.file(`/root/${path.basename(deb)}`));
  return line.replace(/\.\/netgraph_\S+\.deb/, `./${path.basename(deb)}`)
    .replace('apt-get install', 'apt-get install -y -qq -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold');
}

// The operator's edit of /etc/netgraph/netgraph.env: `settings` after the file as shipped.
export function configure(container, shipped, settings) {
  const lines = Object.entries(settings).map(([name, value]) => `${name}=${value}`);
  container.write(envFile, `${shipped}\n# Set by the operator\n${lines.join('\n')}\n`, 0o640);
}

export function shippedConfiguration(container) {
  return readFileSync(container.file(envFile), 'utf8');
}

export async function waitForHealth(container, timeoutMs = 60000) {
  await container.waitFor(async () => (await fetch(`${siteUrl}/health`).catch(() => null))?.status === 200,
    '/health 200 through nginx', timeoutMs);
}

// The journal of the netgraph units, for a failure's message.
export function journal(container) {
  return container.run('journalctl', '-u', 'netgraph-migrate', '-u', 'netgraph-fcgi', '-u', 'netgraph-ws',
    '--no-pager', '-n', '150').stdout;
}
