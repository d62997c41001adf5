// Bearer tokens for the Node peer's mutations, checked as netgraph checks them
// (core/auth/token_verifier.h): an ES256 compact JWS under the configured public key, with exp,
// nbf, iat, iss, aud and sub checked on every request. As netgraph does, a token whose signature was
// verified once is not verified again (its claims still are).
import { createPublicKey, verify } from 'node:crypto';
import { readFileSync } from 'node:fs';

const decode = (part) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));

// From the settings netgraph reads (NETGRAPH_JWT_*): a function from an Authorization header to
// { subject, email }, or null when the request is not authenticated.
export function bearerVerifier(env) {
  if (env.NETGRAPH_JWT_ALG !== 'ES256' || !env.NETGRAPH_JWT_PUBLIC_KEY_FILE) return () => null;
  const key = createPublicKey(readFileSync(env.NETGRAPH_JWT_PUBLIC_KEY_FILE));
  const issuer = env.NETGRAPH_JWT_ISSUER;
  const audience = env.NETGRAPH_JWT_AUDIENCE;
  const leeway = Number(env.NETGRAPH_JWT_LEEWAY_SECONDS ?? 60);
  const verified = new Map();

  function signedClaims(token) {
    const parts = token.split('.');
    if (parts.length !== 3 || parts[2] === '') return null;
    const header = decode(parts[0]);
    if (header.alg !== 'ES256' || (header.typ !== undefined && header.typ !== 'JWT') || header.crit) return null;
    const signed = Buffer.from(`${parts[0]}.${parts[1]}`);
    if (!verify('sha256', signed, { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(parts[2], 'base64url'))) return null;
    return decode(parts[1]);
  }

  return (authorization) => {
    const match = /^Bearer ([A-Za-z0-9_.-]+)$/.exec(authorization ?? '');
    if (!match || match[1].length > 8192) return null;
    let claims = verified.get(match[1]);
    if (!claims) {
      try { claims = signedClaims(match[1]); } catch { claims = null; }
      if (!claims) return null;
      if (verified.size >= 10000) verified.clear();
      verified.set(match[1], claims);
    }
    const now = Math.floor(Date.now() / 1000);
    const { exp, nbf, iat, iss, aud, sub, email } = claims;
    if (typeof exp !== 'number' || now >= exp + leeway) return null;
    if (nbf !== undefined && (typeof nbf !== 'number' || now < nbf - leeway)) return null;
    if (iat !== undefined && (typeof iat !== 'number' || iat > now + leeway)) return null;
    if (issuer && iss !== issuer) return null;
    if (audience && !(aud === audience || (Array.isArray(aud) && aud.includes(audience)))) return null;
    if (typeof sub !== 'string' || sub === '') return null;
    return { subject: sub, email };
  };
}
