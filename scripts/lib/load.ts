// Load generation for the benchmarks: one autocannon run in a child process (load-worker.mjs), so the
// load generator does not share the event loop with the server it measures.
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface LoadSpec {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  /** Bodies to rotate through, one per request (instead of body). */
  bodies?: string[];
  connections: number;
  duration: number;
  /** Responses whose body does not start with this count as bad (the envelope answers HTTP 200 for errors). */
  expectPrefix?: string;
}

export interface LoadResult {
  requests: number;
  rps: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  bad: number;
  /** The first answer that was not a success envelope. */
  badSample: string | null;
}

export function load(spec: LoadSpec): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(new URL('./load-worker.mjs', import.meta.url)), [], { execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let result: LoadResult | undefined;
    child.once('message', (m) => { result = m as LoadResult; });
    child.once('error', reject);
    child.once('exit', (code) => (result ? resolve(result) : reject(new Error(`autocannon 子进程退出（${code}）`))));
    child.send(spec);
  });
}

export async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<any> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return res.json();
}

/** Chained requests per connection (scripts/lib/chain-worker.mjs): a first request, then follow-ups. */
export interface ChainSpec {
  /** e.g. http://127.0.0.1:3000 */
  base: string;
  headers: Record<string, string>;
  /** path of the first request of a unit, e.g. /oms/api/021403 */
  first: string;
  /** bodies of the first request, one list per connection (connection c uses list c mod length, in turn) */
  firstBodies: string[][];
  /** follow-up requests: JSON templates in which the string "$prevId" becomes the answer before's data.id */
  then: Array<{ path: string; template: string }>;
  connections: number;
  duration: number;
  /** stop each connection after this many units (default: run for the duration) */
  maxUnits?: number;
}

export interface ChainResult {
  /** units whose every answer was a success */
  units: number;
  seconds: number;
  perSec: number;
  /** latency of a whole unit, ms */
  p50: number;
  p99: number;
  max: number;
  bad: number;
  errors: number;
  badSample: string | null;
}

export function chain(spec: ChainSpec): Promise<ChainResult> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(new URL('./chain-worker.mjs', import.meta.url)), [], { execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let result: ChainResult | undefined;
    child.once('message', (m) => { result = m as ChainResult; });
    child.once('error', reject);
    child.once('exit', (code) => (result ? resolve(result) : reject(new Error(`链式请求子进程退出（${code}）`))));
    child.send(spec);
  });
}
