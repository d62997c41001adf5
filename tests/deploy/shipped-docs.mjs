// node tests/deploy/shipped-docs.mjs PACKAGE.deb: every document the package ships that another
// shipped file points at is in the package. Checked: the Markdown links of the shipped docs and
// the doc paths their text names (docs/….md, ws/README.md, docs/grafana/…), resolved as the
// package lays them out under /usr/share/doc/netgraph (compressed: NAME.gz); every
// /usr/share/doc/netgraph/… path any shipped text file names (the configuration file, the units);
// CHANGELOG.md and LICENSE are there as Debian names them, changelog.gz and copyright;
// and each unit's Documentation= (its file: paths and man: pages). Exits 1 naming each that is not.
import { execFileSync } from 'node:child_process';
import { gunzipSync } from 'node:zlib';
import path from 'node:path';

const deb = process.argv[2];
if (!deb) {
  console.error('usage: node tests/deploy/shipped-docs.mjs PACKAGE.deb');
  process.exit(2);
}
const docRoot = 'usr/share/doc/netgraph';
const files = new Set(execFileSync('sh', ['-c', 'dpkg-deb --fsys-tarfile "$1" | tar -t', 'sh', deb],
  { encoding: 'utf8' })
  .split('\n').filter((f) => f && !f.endsWith('/')).map((f) => f.replace(/^\.\//, '')));
const read = (file) => {
  const bytes = execFileSync('sh', ['-c', 'dpkg-deb --fsys-tarfile "$1" | tar -xO "./$2"', 'sh', deb, file],
    { maxBuffer: 64 << 20 });
  return file.endsWith('.gz') ? gunzipSync(bytes).toString('utf8') : bytes.toString('utf8');
};
// Files the package installs under Debian's names (packaging/CMakeLists.txt).
const debianNames = { [`${docRoot}/CHANGELOG.md`]: `${docRoot}/changelog`, [`${docRoot}/LICENSE`]: `${docRoot}/copyright` };
// A shipped file or directory at `target` (a path in the package), compressed or not.
const shipped = (named) => {
  const target = debianNames[named] ?? named;
  return files.has(target) || files.has(`${target}.gz`) ||
    [...files].some((f) => f.startsWith(`${target.replace(/\/$/, '')}/`));
};

const problems = [];
const docs = [...files].filter((f) => f.startsWith(`${docRoot}/`) && f.endsWith('.md.gz'));
for (const doc of docs) {
  const text = read(doc);
  const where = path.posix.dirname(doc);
  for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^(https?:|mailto:|#)/.test(target)) continue;
    const resolved = path.posix.normalize(path.posix.join(where, target.replace(/#.*$/, '')));
    if (!shipped(resolved)) problems.push(`${doc}: link ${target} (${resolved})`);
  }
  for (const [, named] of text.matchAll(/(?<![\w/.-])((?:docs|ws)\/[\w./-]*[\w/]|README\.md)(?![\w/-])/g)) {
    if (!/\.(md|json|png)$|\/$/.test(named) && !named.startsWith('docs/grafana')) continue;
    if (!shipped(path.posix.join(docRoot, named))) problems.push(`${doc}: names ${named}`);
  }
}
const texts = [...files].filter((f) => f.startsWith('etc/') || f.startsWith('lib/systemd/system/'));
for (const file of texts) {
  const text = read(file);
  for (const [, named] of text.matchAll(/\/(usr\/share\/doc\/netgraph\/[\w./-]*[\w])/g)) {
    if (!shipped(named)) problems.push(`${file}: names /${named}`);
  }
  for (const [, uris] of text.matchAll(/^Documentation=(.*)$/gm)) {
    for (const uri of uris.trim().split(/\s+/)) {
      const man = uri.match(/^man:([\w.-]+)\((\d)\)$/);
      const local = uri.match(/^file:\/\/(\/.*)$/);
      if (man && !shipped(`usr/share/man/man${man[2]}/${man[1]}.${man[2]}`)) problems.push(`${file}: ${uri}`);
      else if (local && !files.has(local[1].slice(1))) problems.push(`${file}: ${uri}`);
      else if (!man && !local) problems.push(`${file}: ${uri} (neither man: nor file:)`);
    }
  }
}
if (problems.length) {
  console.error(`shipped docs: ${problems.length} paths the package does not have:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log(`shipped docs: every link and path in ${docs.length} docs and ${texts.length} configuration files and units resolves in the package`);
