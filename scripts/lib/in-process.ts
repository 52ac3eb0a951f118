// What the in-process benchmarks (bench:dashboard, bench:closing, bench:finance, bench:reports) share:
// a percentile of sorted timings, a company day (UTC+8) relative to today, and one call through the
// server's own HTTP stack without a socket, timed.
import type { Server } from '../../src/server/server.ts';

/** The p-th percentile of timings sorted ascending. */
export const pct = (xs: number[], p: number): number => xs[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)]!;

/** The demo company's day (UTC+8) `offset` days from today, as YYYY-MM-DD. */
export const companyDay = (offset: number): string => new Date(Date.now() + 8 * 3_600_000 + offset * 86_400_000).toISOString().slice(0, 10);

/** One call injected into the server, its time, and its data; any answer but OK throws, naming the code. */
export async function call(server: Server, token: string, family: string, code: string, body: unknown): Promise<{ ms: number; data: any }> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const t0 = performance.now();
  const res = await server.app.inject({ method: 'POST', url: `/${family}/api/${code}`, headers: { token, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
  const ms = performance.now() - t0;
  const env = res.json() as { code: string; msg: string; data: unknown };
  if (env.code !== '200') throw new Error(`${family}:${code} → ${env.code} ${env.msg}`);
  return { ms, data: env.data };
}
