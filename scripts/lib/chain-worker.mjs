// Runs chained requests in a child process (the load generator must not share the server's event loop):
// each of `connections` loops repeats one unit of work — a first request, then requests whose bodies
// take the `data.id` of the answer before (the string "$prevId" in a template) — until `duration`
// seconds have passed. A unit counts as done when every answer is a success envelope; its latency is
// the whole chain's. Plain JavaScript: the child needs no TypeScript loader.
// Input (first IPC message): ChainSpec of scripts/lib/load.ts; output: one ChainResult message.
import http from 'node:http';

function call(agent, base, headers, path, body) {
  return new Promise((resolve, reject) => {
    const url = new URL(path, base);
    const payload = Buffer.from(body);
    const req = http.request({ agent, hostname: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { ...headers, 'content-length': payload.length } }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(payload);
  });
}

const pct = (sorted, p) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : 0);

async function run(spec) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: spec.connections });
  const latencies = [];
  let bad = 0;
  let errors = 0;
  let badSample = null;
  const started = Date.now();
  const stopAt = started + spec.duration * 1000;
  async function loop(c) {
    const firsts = spec.firstBodies[c % spec.firstBodies.length];
    for (let n = 0; Date.now() < stopAt && !(n >= spec.maxUnits); n++) {
      const t0 = performance.now();
      try {
        let answer = await call(agent, spec.base, spec.headers, spec.first, firsts[n % firsts.length]);
        let ok = answer.startsWith('{"code":"200"');
        for (const step of spec.then) {
          if (!ok) break;
          const prevId = JSON.parse(answer).data.id;
          answer = await call(agent, spec.base, spec.headers, step.path, step.template.replaceAll('"$prevId"', String(prevId)));
          ok = answer.startsWith('{"code":"200"');
        }
        if (ok) latencies.push(performance.now() - t0);
        else {
          bad++;
          badSample ??= answer.slice(0, 300);
        }
      } catch (e) {
        errors++;
        badSample ??= String(e);
      }
    }
  }
  await Promise.all(Array.from({ length: spec.connections }, (_, c) => loop(c)));
  const seconds = (Date.now() - started) / 1000;
  agent.destroy();
  latencies.sort((x, y) => x - y);
  return {
    units: latencies.length, seconds, perSec: latencies.length / seconds,
    p50: Math.round(pct(latencies, 50)), p99: Math.round(pct(latencies, 99)), max: Math.round(latencies.at(-1) ?? 0),
    bad, errors, badSample,
  };
}

process.once('message', (spec) => {
  run(spec).then(
    (r) => process.send(r, () => process.exit(0)),
    (e) => { console.error(e); process.exit(1); },
  );
});
