// A TCP relay in front of PostgreSQL that a test breaks the ways a network does. It imports nothing
// of the stack's helpers, so the fault suite (tests/faults/suite.mjs), which runs a stack of its own,
// uses it as the integration tests do.
import net from 'node:net';

// Listens on `port` (0: any free one) on loopback and forwards to `target`'s host and port (a
// postgresql:// URL, by default the stack's DATABASE_URL). Resolves to the relay:
// - url: `target` with the relay's port, for the process under test;
// - cut(): drops every open connection, as a failover or a network break does; resolves once each
//   of them has closed (new ones, a client reconnecting at once, may already be open by then);
// - partition(): forwards nothing more in either direction and answers nothing on new connections,
//   closing none: the peers see silence, not a refusal, as in a network partition;
// - heal(): ends the partition and lets the held bytes through, as TCP's retransmissions would;
// - close(): nothing listens any more (the database is unreachable); reopen() listens again;
// - connections(): how many client connections are open.
export async function databaseRelay({ target = process.env.DATABASE_URL, port = 0 } = {}) {
  const targetUrl = new URL(target);
  const pairs = new Set();
  let partitioned = false;
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(targetUrl.port), targetUrl.hostname);
    const pair = { client, upstream };
    pairs.add(pair);
    client.pipe(upstream);
    upstream.pipe(client);
    // After pipe(), which resumes its source.
    if (partitioned) { client.pause(); upstream.pause(); }
    const end = () => { pairs.delete(pair); client.destroy(); upstream.destroy(); };
    for (const socket of [client, upstream]) {
      socket.on('error', end);
      socket.on('close', end);
    }
  });
  const listen = (on) => new Promise((resolve) => server.listen(on, '127.0.0.1', resolve));
  await listen(port);
  const url = new URL(targetUrl);
  url.port = String(server.address().port);
  const listening = server.address().port;
  const cut = () => Promise.all([...pairs].map(({ client, upstream }) => Promise.all([client, upstream].map(
    (socket) => (socket.closed ? undefined : new Promise((resolve) => { socket.once('close', resolve); socket.destroy(); }))))));
  return {
    url: url.toString(),
    cut,
    partition() {
      partitioned = true;
      for (const { client, upstream } of pairs) { client.pause(); upstream.pause(); }
    },
    heal() {
      partitioned = false;
      for (const { client, upstream } of pairs) { client.resume(); upstream.resume(); }
    },
    close() {
      const closed = new Promise((resolve) => server.close(resolve));
      partitioned = false;
      cut();
      return closed;
    },
    reopen: () => listen(listening),
    connections: () => pairs.size,
  };
}
