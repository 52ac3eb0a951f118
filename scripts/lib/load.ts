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
