// The server's clock for rules that turn on time passing (a shared link's expiry). It is Date — an
// integration test in the server's own process moves it with vi.setSystemTime — plus, outside production,
// an offset in milliseconds read from the file TEST_HOOK_CLOCK_FILE names: an end-to-end test moves a
// server running as another process forward by writing that file, instead of sleeping for days.
import fs from 'node:fs';

const CLOCK_FILE = process.env.NODE_ENV === 'production' ? '' : (process.env.TEST_HOOK_CLOCK_FILE ?? '');

function offsetMs(): number {
  if (!CLOCK_FILE) return 0;
  try {
    const n = Number(fs.readFileSync(CLOCK_FILE, 'utf8').trim());
    return Number.isFinite(n) ? n : 0;
  } catch {
    return 0; // no file yet: no offset
  }
}

/** Now, as the server's time-bound rules see it. */
export function serverNow(): Date {
  return new Date(Date.now() + offsetMs());
}
