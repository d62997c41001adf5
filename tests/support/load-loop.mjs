// A load loop for tests that change a running service (reload, restart): `{ __typename }` queries
// through nginx, `parallel` at a time, each loop pausing `pauseMs` between requests, until stop().
// stop() resolves with { ok, failed }: the count of good answers and a line for each failure.
import { graphql } from './stack.mjs';

export function loadLoop({ parallel = 4, pauseMs = 0 } = {}) {
  let running = true;
  const tally = { ok: 0, failed: [] };
  const loops = Array.from({ length: parallel }, async () => {
    while (running) {
      try {
        const { status, body } = await graphql('{ __typename }');
        if (status === 200 && body.data?.__typename === 'Query') tally.ok++;
        else tally.failed.push(`${status} ${JSON.stringify(body)}`);
      } catch (error) {
        tally.failed.push(String(error));
      }
      if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
  });
  return { stop: async () => { running = false; await Promise.all(loops); return tally; } };
}
