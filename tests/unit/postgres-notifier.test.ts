// Commits are told to the other server processes by pg_notify on one connection. A pg client handed a
// query while another already waits in its queue logs "Calling client.query() when the client is
// already executing a query is deprecated" (pg@9 will refuse): the notifier keeps one notify in flight
// and sends what committed meanwhile together in the next (issue 19 item 16).
import { describe, expect, it } from 'vitest';
import { Notifier } from '../../src/server/db/postgres-writes.ts';

const turn = () => new Promise((r) => setImmediate(r));

describe('the notifier of committed tables', () => {
  it('never has two notifies in flight, and loses no table', async () => {
    const sent: string[] = [];
    let inFlight = 0;
    let most = 0;
    const finish: Array<() => void> = [];
    const n = new Notifier('me', (payload) => {
      sent.push(payload);
      inFlight++;
      most = Math.max(most, inFlight);
      return new Promise<void>((resolve) => finish.push(() => { inFlight--; resolve(); }));
    });
    // Commits in five different turns while the first notify has not been answered.
    for (const t of ['a', 'b', 'c', 'd', 'e']) {
      n.committed([t]);
      await turn();
    }
    expect(most).toBe(1);
    expect(sent).toEqual(['me|a']);
    finish.shift()!();
    await turn(); await turn();
    expect(sent).toEqual(['me|a', 'me|b,c,d,e']);
    finish.shift()!();
    await turn(); await turn();
    expect(sent).toHaveLength(2);
    expect(most).toBe(1);
  });

  it('goes on after a failed notify', async () => {
    const sent: string[] = [];
    let fail = true;
    const errors: unknown[] = [];
    const original = console.error;
    console.error = (...a: unknown[]) => { errors.push(a); };
    try {
      const n = new Notifier('me', async (payload) => {
        sent.push(payload);
        if (fail) { fail = false; throw new Error('connection lost'); }
      });
      n.committed(['a']);
      await turn(); await turn();
      n.committed(['b']);
      await turn(); await turn();
      expect(sent).toEqual(['me|a', 'me|b']);
      expect(errors).toHaveLength(1);
    } finally {
      console.error = original;
    }
  });
});
