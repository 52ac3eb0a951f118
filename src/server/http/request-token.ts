// Where a call's access token is read from. The `token` header (or `Authorization: Bearer`) always; the
// query string only for the image read 980106, which browsers load through <img src> and cannot give a
// header (spec §7) — a token in any other URL would land in logs, histories and Referer headers; the body
// only for 990104/990106, whose retry puts it there (spec §7).
import type { FastifyRequest } from 'fastify';
import type { Family } from '../../core/catalog.ts';

const TOKEN_IN_QUERY = new Set(['storage:980106']);
const TOKEN_IN_BODY = new Set(['auth:990104', 'auth:990106']);

export function headerToken(req: FastifyRequest): string | null {
  const t = req.headers.token;
  if (typeof t === 'string' && t) return t;
  const auth = req.headers.authorization;
  if (typeof auth === 'string' && auth.startsWith('Bearer ')) return auth.slice(7);
  return null;
}

export function requestToken(req: FastifyRequest, family: Family, code: string): string | null {
  const header = headerToken(req);
  if (header) return header;
  const key = `${family}:${code}`;
  const query = req.query as Record<string, unknown> | undefined;
  if (TOKEN_IN_QUERY.has(key) && typeof query?.token === 'string' && query.token) return query.token;
  const body = req.body as Record<string, unknown> | undefined;
  if (TOKEN_IN_BODY.has(key) && body && typeof body === 'object' && typeof body.token === 'string' && body.token) return body.token;
  return null;
}
