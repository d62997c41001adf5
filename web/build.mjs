// Bundles the browser pages (the graph page at / and GraphiQL at /graphql) into static files that
// nginx serves: node web/build.mjs OUT_DIR. Output: OUT_DIR/ui/{graph,graphiql}.{js,css,html} and
// graph-layout.js, the graph page's layout worker.
// Everything comes from the pinned npm packages; nothing is loaded from elsewhere at run time.
// OUT_DIR/ui/third-party.txt lists every npm package in the bundles with its version and licence
// (the Debian package's copyright file points at it); a licence that file does not name stops the
// build. Runs on Debian 12's Node.js (18) as well as on later ones.
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// The licences packaging/copyright has a paragraph for.
const LICENCES = new Set(['MIT', 'ISC', 'BSD-2-Clause', '0BSD', 'Apache-2.0']);

const source = path.dirname(fileURLToPath(import.meta.url));
const out = path.resolve(process.argv[2] ?? path.join(source, '..', 'build', 'web'));
const ui = path.join(out, 'ui');
mkdirSync(ui, { recursive: true });

const { metafile } = await build({
  entryPoints: {
    graph: path.join(source, 'graph.js'),
    'graph-layout': path.join(source, 'graph-layout.js'),
    graphiql: path.join(source, 'graphiql.jsx'),
  },
  outdir: ui,
  bundle: true,
  minify: true,
  format: 'iife',
  target: ['chrome110', 'firefox110', 'safari16'],
  define: { 'process.env.NODE_ENV': '"production"' },
  loader: { '.woff': 'file', '.woff2': 'file', '.svg': 'file' },
  legalComments: 'linked',
  logLevel: 'warning',
  metafile: true,
});

// Each bundled input under node_modules belongs to the innermost package directory of its path.
const packages = new Map();
for (const input of Object.keys(metafile.inputs)) {
  const match = input.match(/^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//);
  if (!match || packages.has(match[1])) continue;
  const manifest = JSON.parse(readFileSync(path.resolve(match[1], 'package.json'), 'utf8'));
  packages.set(match[1], { name: manifest.name, version: manifest.version, licence: manifest.license });
}
const listed = [...packages.values()].sort((a, b) => a.name.localeCompare(b.name));
const unlisted = listed.filter((p) => !LICENCES.has(p.licence));
if (unlisted.length) {
  console.error(`web/build.mjs: licences packaging/copyright does not name: ${
    unlisted.map((p) => `${p.name}@${p.version} (${p.licence})`).join(', ')}`);
  process.exit(1);
}
writeFileSync(path.join(ui, 'third-party.txt'),
  'npm packages bundled into these pages (name, version, licence; texts in\n' +
  '/usr/share/doc/netgraph/copyright):\n\n' +
  listed.map((p) => `${p.name} ${p.version} ${p.licence}`).join('\n') + '\n');
copyFileSync(path.join(source, 'graph.css'), path.join(ui, 'graph.css'));
copyFileSync(path.join(source, 'index.html'), path.join(ui, 'graph.html'));
copyFileSync(path.join(source, 'graphiql.html'), path.join(ui, 'graphiql.html'));
writeFileSync(path.join(out, 'stamp'), `${new Date().toISOString()}\n`);
