// Bundles the browser pages (the graph page at / and GraphiQL at /graphql) into static files that
// nginx serves: node web/build.mjs OUT_DIR. Output: OUT_DIR/ui/{graph,graphiql}.{js,css,html} and
// graph-layout.js, the graph page's layout worker.
// Everything comes from the pinned npm packages; nothing is loaded from elsewhere at run time.
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const source = import.meta.dirname;
const out = path.resolve(process.argv[2] ?? path.join(source, '..', 'build', 'web'));
const ui = path.join(out, 'ui');
mkdirSync(ui, { recursive: true });

await build({
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
});
copyFileSync(path.join(source, 'graph.css'), path.join(ui, 'graph.css'));
copyFileSync(path.join(source, 'index.html'), path.join(ui, 'graph.html'));
copyFileSync(path.join(source, 'graphiql.html'), path.join(ui, 'graphiql.html'));
writeFileSync(path.join(out, 'stamp'), `${new Date().toISOString()}\n`);
