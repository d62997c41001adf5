// GraphiQL for netgraph, served by nginx at GET /graphql to browsers (Accept: text/html). Queries
// and mutations go over HTTP POST to /graphql; subscriptions over graphql-ws to the same URL, with
// the Authorization header from GraphiQL's header editor sent in connection_init (browsers cannot
// set headers on a WebSocket upgrade; netgraph-ws reads the token there, ws/README.md).
import React from 'react';
import { createRoot } from 'react-dom/client';
import { GraphiQL } from 'graphiql';
import { getOperationAST, parse } from 'graphql';
import { createClient } from 'graphql-ws';
import 'graphiql/graphiql.css';

const httpUrl = new URL('/graphql', location.href).href;
const wsUrl = httpUrl.replace(/^http/, 'ws');

// One graphql-ws client per Authorization value, so a changed header takes effect at once.
const wsClients = new Map();
function wsClient(authorization) {
  const key = authorization ?? '';
  if (!wsClients.has(key)) {
    wsClients.set(key, createClient({
      url: wsUrl,
      lazy: true,
      retryAttempts: Infinity,
      connectionParams: authorization ? { Authorization: authorization } : {},
    }));
  }
  return wsClients.get(key);
}

function headerValue(headers, name) {
  for (const [key, value] of Object.entries(headers ?? {})) {
    if (key.toLowerCase() === name) return String(value);
  }
  return undefined;
}

// From the query text itself: GraphiQL's documentAST option lags the editor by its 100 ms debounce,
// so a subscription run right after typing would go over HTTP.
function isSubscription(params) {
  try {
    return getOperationAST(parse(params.query), params.operationName)?.operation === 'subscription';
  } catch {
    return false;  // the server reports the syntax error
  }
}

async function fetcher(params, options = {}) {
  if (isSubscription(params)) {
    return wsClient(headerValue(options.headers, 'authorization')).iterate(params);
  }
  const response = await fetch(httpUrl, {
    method: 'POST',
    headers: {
      ...options.headers,
      'content-type': 'application/json',
      accept: 'application/graphql-response+json, application/json',
    },
    body: JSON.stringify(params),
  });
  return response.json();
}

const defaultQuery = `# netgraph's GraphQL API. Set a token under "Headers" below:
#   { "Authorization": "Bearer <token>" }
# Subscriptions (networkUpdated) run over the WebSocket at the same URL.
{
  networkGraph(limit: 5) {
    nodes { id type labels }
    links { source target type }
  }
}
`;

createRoot(document.getElementById('graphiql')).render(
  React.createElement(GraphiQL, { fetcher, defaultQuery, shouldPersistHeaders: false }),
);
