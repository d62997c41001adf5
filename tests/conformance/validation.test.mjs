// Differential test of netgraph's GraphQL validation against graphql-js 16 (the npm `graphql`
// package this repository pins): every document of the corpus goes through
// `netgraphctl graphql validate` and through graphql-js's parse + validate on the same schema, and
// the two must agree on whether it is valid (always) and on the errors, messages and locations
// (for at least 95% of the documents; the disagreements are printed). Also: `netgraphctl graphql
// print-schema` against graphql-js's printSchema, and validate's exit statuses.
//
// Corpus: tests/conformance/validation/schemas/*.graphql and documents/*.graphql. A documents
// file holds many documents, each introduced by a line "### <name>" (a GraphQL comment); a line
// "# schema: <name>" before the first one picks the schema (default: test). The schema "service"
// is netgraph's own, core/api/schema.graphql.
//
// Environment: NETGRAPH_BUILD_DIR, the build holding bin/netgraphctl (default: <repo>/build).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';

import { buildSchema, GraphQLError, parse, printSchema, validate } from 'graphql';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../..');
const corpus = path.join(here, 'validation');
const buildDir = process.env.NETGRAPH_BUILD_DIR ?? path.join(repo, 'build');
const netgraphctl = path.join(buildDir, 'bin', 'netgraphctl');
const concurrency = 4;

const schemaFiles = {
  service: path.join(repo, 'core/api/schema.graphql'),
};
for (const file of readdirSync(path.join(corpus, 'schemas'))) {
  if (file.endsWith('.graphql')) {
    schemaFiles[path.basename(file, '.graphql')] = path.join(corpus, 'schemas', file);
  }
}

function loadCases() {
  const cases = [];
  const files = readdirSync(path.join(corpus, 'documents')).filter((f) => f.endsWith('.graphql'));
  for (const file of files.sort()) {
    const lines = readFileSync(path.join(corpus, 'documents', file), 'utf8').split('\n');
    let schema = 'test';
    let current = null;
    for (const line of lines) {
      const header = /^### ([^\r]+)\r?$/.exec(line);
      if (header) {
        current = { name: `${file}: ${header[1].trim()}`, schema, lines: [] };
        cases.push(current);
      } else if (current) {
        current.lines.push(line);
      } else {
        const choice = /^# schema: (\S+)/.exec(line);
        if (choice) schema = choice[1];
      }
    }
  }
  for (const c of cases) c.source = c.lines.join('\n');
  return cases;
}

function plain(errors) {
  return errors.map((e) => {
    const error = { message: e.message };
    if (e.locations && e.locations.length > 0) {
      error.locations = e.locations.map(({ line, column }) => ({ line, column }));
    }
    return error;
  });
}

// graphql-js's answer: its parse error, or its validation errors (or what validate threw).
function graphqlJs(schema, source) {
  let document;
  try {
    document = parse(source);
  } catch (error) {
    if (error instanceof GraphQLError) return plain([error]);
    throw error;
  }
  try {
    return plain(validate(schema, document));
  } catch (error) {
    if (error instanceof GraphQLError) return plain([error]);
    throw error;
  }
}

function netgraph(schemaFile, source) {
  return new Promise((resolve, reject) => {
    const child = spawn(netgraphctl, ['graphql', 'validate', '--schema', schemaFile, '-']);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0 && code !== 1) {
        reject(new Error(`netgraphctl exited ${code}: ${stderr}`));
        return;
      }
      const errors = JSON.parse(stdout);
      if ((code === 0) !== (errors.length === 0)) {
        reject(new Error(`netgraphctl exited ${code} with ${errors.length} errors`));
        return;
      }
      resolve(errors);
    });
    child.stdin.end(source);
  });
}

async function mapConcurrently(items, limit, fn) {
  const results = new Array(items.length);
  let next = 0;
  async function worker() {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]);
    }
  }
  await Promise.all(Array.from({ length: limit }, worker));
  return results;
}

test('netgraph validates like graphql-js', async () => {
  assert.ok(existsSync(netgraphctl), `no ${netgraphctl}: build it, or set NETGRAPH_BUILD_DIR`);
  const schemas = {};
  for (const [name, file] of Object.entries(schemaFiles)) {
    schemas[name] = buildSchema(readFileSync(file, 'utf8'));
  }
  const cases = loadCases();
  assert.ok(cases.length >= 300, `the corpus has ${cases.length} documents, fewer than 300`);

  const outcomes = await mapConcurrently(cases, concurrency, async (c) => {
    assert.ok(schemas[c.schema], `${c.name}: unknown schema ${c.schema}`);
    const expected = graphqlJs(schemas[c.schema], c.source);
    const actual = await netgraph(schemaFiles[c.schema], c.source);
    return { case: c, expected, actual };
  });

  const verdictMismatches = outcomes.filter(
    (o) => (o.expected.length === 0) !== (o.actual.length === 0),
  );
  const errorMismatches = outcomes.filter((o) => {
    try {
      assert.deepStrictEqual(o.actual, o.expected);
      return false;
    } catch {
      return true;
    }
  });
  const invalid = outcomes.filter((o) => o.expected.length > 0).length;
  console.log(
    `${outcomes.length} documents (${invalid} invalid): verdicts agree on ` +
      `${outcomes.length - verdictMismatches.length}, errors agree on ` +
      `${outcomes.length - errorMismatches.length}`,
  );
  for (const o of errorMismatches) {
    console.log(`\n--- ${o.case.name}\n${o.case.source.trim()}`);
    console.log(`graphql-js: ${JSON.stringify(o.expected)}`);
    console.log(`netgraph:   ${JSON.stringify(o.actual)}`);
  }
  assert.equal(verdictMismatches.length, 0, 'valid/invalid verdicts differ');
  assert.ok(
    errorMismatches.length <= outcomes.length * 0.05,
    `errors differ on ${errorMismatches.length} of ${outcomes.length} documents`,
  );
});

test('print-schema prints like graphql-js', () => {
  for (const [name, file] of Object.entries(schemaFiles)) {
    const args = ['graphql', 'print-schema', ...(name === 'service' ? [] : ['--schema', file])];
    const run = spawnSync(netgraphctl, args, { encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, printSchema(buildSchema(readFileSync(file, 'utf8'))) + '\n', name);
  }
});

test('validate exits 2 on a bad schema or bad usage', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'netgraph-validation-'));
  try {
    const schemaFile = path.join(dir, 'bad.graphql');
    writeFileSync(schemaFile, 'type Query { a: Missing }');
    const badSchema = spawnSync(netgraphctl, ['graphql', 'validate', '--schema', schemaFile], {
      input: '{ a }',
      encoding: 'utf8',
    });
    assert.equal(badSchema.status, 2);
    assert.equal(badSchema.stderr, `${schemaFile}:1:17: Unknown type "Missing".\n`);
  } finally {
    rmSync(dir, { recursive: true });
  }
  const noSchema = spawnSync(netgraphctl, ['graphql', 'validate'], { encoding: 'utf8' });
  assert.equal(noSchema.status, 2);
});
