// Runs one autocannon load in a child process, so the load generator does not share the server's event
// loop (autocannon changes its behaviour inside worker threads, so a process it is). Plain JavaScript:
// the child needs no TypeScript loader. Input: the LoadSpec (scripts/bench-api.ts) as the first IPC
// message; output: one LoadResult message.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const autocannon = require('autocannon');

async function run(spec) {
  let bad = 0;
  let badSample = null;
  let next = 0;
  const bodies = Array.isArray(spec.bodies) && spec.bodies.length ? spec.bodies : null;
  const prefix = spec.expectPrefix;
  const result = await autocannon({
    url: spec.url,
    connections: spec.connections,
    duration: spec.duration,
    requests: [{
      method: spec.method,
      headers: spec.headers,
      body: bodies ? bodies[0] : spec.body,
      // Rotating bodies: each request asks for something else (defeats any response cache).
      ...(bodies ? { setupRequest: (req) => ({ ...req, body: bodies[next++ % bodies.length] }) } : {}),
      // Our envelope answers HTTP 200 for errors too: a body that is not a success counts as bad.
      ...(prefix ? { onResponse: (_status, body) => {
        if (String(body).startsWith(prefix)) return;
        bad++;
        badSample ??= String(body).slice(0, 200);
      } } : {}),
    }],
  });
  return {
    requests: result.requests.total,
    rps: result.requests.average,
    p50: result.latency.p50,
    p90: result.latency.p90,
    p99: result.latency.p99,
    max: result.latency.max,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    bad,
    badSample,
  };
}

process.once('message', (spec) => {
  run(spec).then(
    (r) => process.send(r, () => process.exit(0)),
    (e) => { console.error(e); process.exit(1); },
  );
});
