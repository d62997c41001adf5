// The graphql-http audit suite (the GraphQL-over-HTTP conformance test) against the stack through
// nginx: every audit must pass, with no error and no warning; notices (MAY) are reported.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { auditServer } from 'graphql-http';
import { graphqlUrl } from '../support/stack.mjs';

test('graphql-http audits: 0 errors, 0 warnings', async () => {
  const results = await auditServer({ url: graphqlUrl });
  const failing = results.filter((r) => r.status !== 'ok');
  for (const r of failing) console.log(`${r.status} ${r.id} ${r.name}: ${r.reason ?? ''}`);
  const counts = Object.groupBy ? Object.groupBy(results, (r) => r.status) : null;
  console.log(`${results.length} audits`, counts ? Object.fromEntries(Object.entries(counts).map(([k, v]) => [k, v.length])) : '');
  assert.ok(results.length >= 61, `all audits ran (${results.length})`);
  assert.deepEqual(failing.filter((r) => r.status === 'error').map((r) => r.id), []);
  assert.deepEqual(failing.filter((r) => r.status === 'warn').map((r) => r.id), []);
});
