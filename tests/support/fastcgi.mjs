// A minimal FastCGI client (responder role; a connection per request, or kept for many), for tests
// that talk to a netgraph-fcgi pool directly rather than through nginx.
import net from 'node:net';

const VERSION = 1;
const BEGIN_REQUEST = 1;
const END_REQUEST = 3;
const PARAMS = 4;
const STDIN = 5;
const STDOUT = 6;
const RESPONDER = 1;

// The records of one stream of `type` for request `id` (0: a management record) carrying `content`.
export function record(type, content = Buffer.alloc(0), id = 1) {
  const chunks = [];
  for (let offset = 0; offset < content.length || chunks.length === 0; offset += 65535) {
    const part = content.subarray(offset, offset + 65535);
    const header = Buffer.alloc(8);
    header.writeUInt8(VERSION, 0);
    header.writeUInt8(type, 1);
    header.writeUInt16BE(id, 2);
    header.writeUInt16BE(part.length, 4);
    chunks.push(header, part);
    if (content.length === 0) break;
  }
  return Buffer.concat(chunks);
}

export function nameValue(name, value) {
  const length = (n) => {
    if (n < 128) return Buffer.from([n]);
    const b = Buffer.alloc(4);
    b.writeUInt32BE((n | 0x80000000) >>> 0);
    return b;
  };
  const n = Buffer.from(name);
  const v = Buffer.from(value);
  return Buffer.concat([length(n.length), length(v.length), n, v]);
}

// The records of one request; `keep` sets FCGI_KEEP_CONN (the pool then keeps the connection).
// `query` is the URL's query string, still encoded.
export function encodeRequest({ method = 'POST', path = '/graphql', query = '', headers = {}, body = '' }, keep) {
  const payload = Buffer.from(body);
  const params = {
    REQUEST_METHOD: method,
    DOCUMENT_URI: path,
    SCRIPT_NAME: path,
    REQUEST_URI: query ? `${path}?${query}` : path,
    QUERY_STRING: query,
    CONTENT_LENGTH: String(payload.length),
    SERVER_PROTOCOL: 'HTTP/1.1',
  };
  for (const [name, value] of Object.entries(headers)) {
    const key = name.toLowerCase();
    if (key === 'content-type') params.CONTENT_TYPE = value;
    else params[`HTTP_${key.toUpperCase().replaceAll('-', '_')}`] = value;
  }
  const begin = Buffer.alloc(8);
  begin.writeUInt16BE(RESPONDER, 0);
  begin.writeUInt8(keep ? 1 : 0, 2);
  const head = Buffer.concat([
    record(BEGIN_REQUEST, begin),
    record(PARAMS, Buffer.concat(Object.entries(params).map(([k, v]) => nameValue(k, v)))),
    record(PARAMS),
  ]);
  const stdin = Buffer.concat([...(payload.length ? [record(STDIN, payload)] : []), record(STDIN)]);
  return { head, stdin };
}

// Reads records from `socket`; calls onResponse({status, headers, body}) at each END_REQUEST.
function readResponses(socket, onResponse) {
  let buffer = Buffer.alloc(0);
  let stdout = [];
  socket.on('data', (data) => {
    buffer = Buffer.concat([buffer, data]);
    while (buffer.length >= 8) {
      const type = buffer.readUInt8(1);
      const length = buffer.readUInt16BE(4);
      const padding = buffer.readUInt8(6);
      if (buffer.length < 8 + length + padding) break;
      const content = buffer.subarray(8, 8 + length);
      buffer = buffer.subarray(8 + length + padding);
      if (type === STDOUT) stdout.push(content);
      if (type === END_REQUEST) {
        const text = Buffer.concat(stdout).toString('utf8');
        stdout = [];
        const split = text.indexOf('\r\n\r\n');
        const responseHeaders = {};
        for (const line of text.slice(0, split).split('\r\n')) {
          const colon = line.indexOf(':');
          responseHeaders[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
        }
        const status = Number((responseHeaders.status ?? '200').split(' ')[0]);
        onResponse({ status, headers: responseHeaders, body: text.slice(split + 4) });
      }
    }
  });
}

// Sends one request to the pool at unix socket `socketPath`; resolves to {status, headers, body}.
// With `hold` (a promise), the body is sent only once it settles: the request is then in flight,
// accepted by a worker, for as long as the caller wants.
export function fastcgiRequest(socketPath, { hold, ...request }) {
  const { head, stdin } = encodeRequest(request, false);
  return new Promise((resolve, reject) => {
    const socket = net.createConnection(socketPath, async () => {
      socket.write(head);
      if (hold) await hold;
      socket.write(stdin);
    });
    readResponses(socket, (response) => {
      socket.end();
      resolve(response);
    });
    socket.on('error', reject);
  });
}

// A connection to the pool kept open across requests (FCGI_KEEP_CONN), as nginx's keep-alive keeps
// them. Resolves once connected to {request(options), close()}: request takes fastcgiRequest's
// options, one request at a time, and resolves to its response; it rejects if the pool closes the
// connection first.
export function fastcgiConnection(socketPath) {
  return new Promise((resolve, reject) => {
    let waiting = null;  // {resolve, reject} of the request in flight
    let closed = false;
    const socket = net.createConnection(socketPath, () => resolve({
      request({ hold, ...request }) {
        if (closed) return Promise.reject(new Error('the pool closed the connection'));
        const { head, stdin } = encodeRequest(request, true);
        return new Promise((resolveRequest, rejectRequest) => {
          waiting = { resolve: resolveRequest, reject: rejectRequest };
          socket.write(head);
          if (hold) hold.then(() => socket.write(stdin));
          else socket.write(stdin);
        });
      },
      close() { socket.destroy(); },
    }));
    readResponses(socket, (response) => {
      const settle = waiting;
      waiting = null;
      settle?.resolve(response);
    });
    const end = (error) => {
      closed = true;
      waiting?.reject(error ?? new Error('the pool closed the connection'));
      waiting = null;
    };
    socket.on('error', (error) => { end(error); reject(error); });
    socket.on('close', () => end());
  });
}

// POSTs a GraphQL request (JSON in, JSON out) to the pool at `socketPath`, with a bearer token when
// given; resolves to {status, body} with the body parsed.
export async function fastcgiGraphql(socketPath, query, { token } = {}) {
  const response = await fastcgiRequest(socketPath, {
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      ...(token && { authorization: `Bearer ${token}` }),
    },
    body: JSON.stringify({ query }),
  });
  return { status: response.status, body: JSON.parse(response.body) };
}
