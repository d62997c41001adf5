#!/usr/bin/env node
// graphql-js (the npm `graphql` package this repository pins) on the same documents, schema and
// in-memory data as graphql_bench: parse, parse + validate, and execute of a pre-parsed,
// pre-validated document (also with JSON.stringify of the result, which the engine's figures
// always include). Root fields resolve to the prebuilt objects of data/service_data.json.
//
//   node bench/graphql-js.mjs [--json] [--seconds 1]
//
// Prints ns per operation, wall-clock and CPU, for each document and phase (JSON with --json).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';

import { buildSchema, execute, parse, validate } from 'graphql';

const { values: args } = parseArgs({
  options: { json: { type: 'boolean', default: false }, seconds: { type: 'string', default: '1' } },
});
const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..');
const readJson = (file) => JSON.parse(readFileSync(path.join(here, 'data', file), 'utf8'));

const schema = buildSchema(readFileSync(path.join(repo, 'core/api/schema.graphql'), 'utf8'));
const data = readJson('service_data.json');
const rootValue = {
  networkGraph: () => data.networkGraph,
  getUserPortfolio: () => data.getUserPortfolio,
  allVouchers: () => data.allVouchers,
};

// Nanoseconds per call of `fn`, wall-clock and CPU (the process's user + system time, so the
// garbage collector's threads count): a warm-up, then batches until `seconds` have passed.
function measure(fn) {
  const seconds = Number(args.seconds);
  const warmUntil = process.hrtime.bigint() + BigInt(Math.round(seconds * 0.3e9));
  while (process.hrtime.bigint() < warmUntil) fn();
  let iterations = 0;
  let batch = 1;
  const cpuStart = process.cpuUsage();
  const start = process.hrtime.bigint();
  const end = start + BigInt(Math.round(seconds * 1e9));
  let now = start;
  while (now < end) {
    for (let i = 0; i < batch; i++) fn();
    iterations += batch;
    batch = Math.min(batch * 2, 1 << 16);
    now = process.hrtime.bigint();
  }
  const cpu = process.cpuUsage(cpuStart);
  return {
    wall_ns: Number(now - start) / iterations,
    cpu_ns: ((cpu.user + cpu.system) * 1000) / iterations,
  };
}

const results = {};
for (const { name, query, variables } of readJson('documents.json').documents) {
  const document = parse(query);
  const errors = validate(schema, document);
  if (errors.length > 0) throw new Error(`${name} does not validate: ${errors[0].message}`);
  const run = () => execute({ schema, document, rootValue, variableValues: variables });
  const result = run();
  if (result.errors) throw new Error(`${name} does not execute cleanly: ${JSON.stringify(result.errors)}`);
  results[name] = {
    parse: measure(() => parse(query)),
    parse_validate: measure(() => validate(schema, parse(query))),
    execute: measure(run),
    execute_stringify: measure(() => JSON.stringify(run())),
  };
}

if (args.json) {
  console.log(JSON.stringify({ node: process.version, results }, null, 1));
} else {
  console.log(`graphql-js ${JSON.parse(readFileSync(path.join(repo, 'node_modules/graphql/package.json'), 'utf8')).version} on node ${process.version} (ns per operation)`);
  for (const [name, phases] of Object.entries(results)) {
    console.log(name.padEnd(16), Object.entries(phases)
      .map(([k, v]) => `${k} ${v.wall_ns.toFixed(0)} (cpu ${v.cpu_ns.toFixed(0)})`).join('  '));
  }
}
