// Clients of the deployed site for the deployment tests, as real ones behave: HTTP requests from a
// loopback address of their own each (nginx's rate limit counts per address, so a load from several
// addresses is not refused with 429), and networkUpdated subscribers on both WebSocket protocols
// that reconnect when their connection closes and then read networkGraph again (ws/README.md,
// "Updates, sequence numbers and resynchronising").
import http from 'node:http';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';

export const siteUrl = 'http://127.0.0.1:8080';
const wsSite = 'ws://127.0.0.1:8080/graphql';

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// One GraphQL POST through nginx from `address` (kept-alive on `agent`); resolves with {status,
// body} or rejects with the transport error.
export function post(query, { variables, token, address = '127.0.0.1', agent } = {}) {
  const payload = JSON.stringify({ query, variables });
  return new Promise((resolve, reject) => {
    const request = http.request(`${siteUrl}/graphql`, {
      method: 'POST', localAddress: address, agent,
      headers: {
        'content-type': 'application/json', 'content-length': Buffer.byteLength(payload),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
    }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => { text += chunk; });
      response.on('end', () => {
        let body = null;
        try { body = JSON.parse(text); } catch { /* left null */ }
        resolve({ status: response.statusCode, body, text });
      });
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(payload);
  });
}

// A loop of requests from `address` until stop(): `next()` gives each request ({query, variables,
// token, check(body) -> true when the answer is the right one}). stop() resolves with {ok, failed}.
export function requestLoop({ address, pauseMs, next }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  let running = true;
  const tally = { ok: 0, failed: [] };
  const loop = (async () => {
    while (running) {
      const { query, variables, token, check } = next();
      try {
        const { status, body, text } = await post(query, { variables, token, address, agent });
        if (status === 200 && check(body)) tally.ok++;
        else tally.failed.push(`${address}: ${status} ${text.slice(0, 300)}`);
      } catch (error) {
        tally.failed.push(`${address}: ${error.code ?? ''} ${error.message}`);
      }
      await pause(pauseMs);
    }
  })();
  return { stop: async () => { running = false; await loop; agent.destroy(); return tally; } };
}

const NETWORK_UPDATED = 'subscription { networkUpdated { nodes { id type } } }';
const NETWORK_GRAPH = '{ networkGraph(limit: 1000) { nodes { id type } } }';

// A subscriber to networkUpdated that keeps every node id it learns: from the updates it receives,
// and from the networkGraph it reads (from `address`) after every connection, the first included.
// `connections` counts the connections it made; `failures` lists what went wrong beyond a closed
// connection, which it takes as a restart and reconnects after.
class Subscriber {
  constructor(address) {
    this.address = address;
    this.agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    this.updates = new Set();
    this.read = new Set();
    this.connections = 0;
    this.failures = [];
    this.closed = false;
  }

  knows(id) { return this.updates.has(id) || this.read.has(id); }

  noteUpdate(result) {
    for (const node of result?.data?.networkUpdated?.nodes ?? []) this.updates.add(node.id);
    if (result?.errors) this.failures.push(`update with errors: ${JSON.stringify(result.errors)}`);
  }

  // Reads networkGraph until an answer comes: the pool may be restarting too.
  async resynchronise() {
    for (let attempt = 0; !this.closed; attempt++) {
      try {
        const { status, body, text } = await post(NETWORK_GRAPH, { address: this.address, agent: this.agent });
        if (status === 200 && body?.data) {
          for (const node of body.data.networkGraph.nodes) this.read.add(node.id);
          return;
        }
        this.failures.push(`networkGraph after a reconnect: ${status} ${text.slice(0, 200)}`);
      } catch (error) {
        this.failures.push(`networkGraph after a reconnect: ${error.code ?? ''} ${error.message}`);
      }
      await pause(200);
    }
  }
}

// graphql-transport-ws, through the graphql-ws library's client, which retries for ever.
export class TransportSubscriber extends Subscriber {
  start() {
    this.client = createClient({
      url: wsSite, webSocketImpl: WebSocket, lazy: false, retryAttempts: Infinity,
      shouldRetry: () => true, retryWait: () => pause(200),
      on: {
        connected: () => { this.connections++; this.resynchronising = this.resynchronise(); },
      },
    });
    this.ready = new Promise((resolve) => {
      this.unsubscribe = this.client.subscribe({ query: NETWORK_UPDATED }, {
        next: (result) => { this.noteUpdate(result); resolve(); },
        error: (error) => this.failures.push(`subscription error: ${JSON.stringify(error)}`),
        complete: () => {},
      });
      this.client.on('connected', () => setTimeout(resolve, 300));
    });
    return this.ready;
  }

  async stop() {
    this.closed = true;
    this.unsubscribe?.();
    await this.client?.dispose();
    this.agent.destroy();
  }
}

// The legacy graphql-ws protocol (subscriptions-transport-ws), by hand: connection_init, then
// start; on close, connect again after 200 ms.
export class LegacySubscriber extends Subscriber {
  start() {
    this.ready = new Promise((resolve) => { this.onReady = resolve; });
    this.connect();
    return this.ready;
  }

  connect() {
    if (this.closed) return;
    const socket = new WebSocket(wsSite, 'graphql-ws');
    this.socket = socket;
    socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload: {} })));
    socket.on('message', (data) => {
      const message = JSON.parse(data.toString());
      if (message.type === 'connection_ack') {
        this.connections++;
        socket.send(JSON.stringify({ id: '1', type: 'start', payload: { query: NETWORK_UPDATED } }));
        this.resynchronising = this.resynchronise();
        setTimeout(() => this.onReady(), 300);
      } else if (message.type === 'data') {
        this.noteUpdate(message.payload);
      } else if (message.type === 'error' || message.type === 'connection_error') {
        this.failures.push(`legacy ${message.type}: ${JSON.stringify(message.payload)}`);
      }
    });
    socket.on('error', () => {});  // a close follows
    socket.on('close', () => { if (!this.closed) setTimeout(() => this.connect(), 200); });
  }

  async stop() {
    this.closed = true;
    this.socket?.close();
    this.agent.destroy();
  }
}
