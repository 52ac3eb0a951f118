// The client the e2e server serves: `vite build --mode e2e` (which adds the test hook, see
// src/client/shell/testHooks.ts), never the production dist/client. Each build goes to its own folder
// named after the newest source change, so a test file whose server is running keeps its files even if
// someone edits the client meanwhile and another test file builds again. A lock directory keeps
// parallel test files from building the same thing twice.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '../../..');
const BUILDS_DIR = path.join(ROOT, 'dist/e2e-client');
const LOCK_DIR = path.join(ROOT, 'dist/.e2e-build.lock');
const SOURCES = ['index.html', 'vite.config.ts', 'package.json', 'src/client', 'src/core', 'schemas/screens', 'schemas/meta', 'schemas/endpoints'];
const KEEP_OLD_BUILDS_MS = 60 * 60_000;

function newestMtime(p: string): number {
  const abs = path.join(ROOT, p);
  const stat = fs.statSync(abs, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  return fs.readdirSync(abs).reduce((max, name) => Math.max(max, newestMtime(path.join(p, name))), stat.mtimeMs);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function withLock<T>(fn: () => T): Promise<T> {
  fs.mkdirSync(path.dirname(LOCK_DIR), { recursive: true });
  const deadline = Date.now() + 5 * 60_000;
  for (;;) {
    try {
      fs.mkdirSync(LOCK_DIR);
      break;
    } catch {
      // A crashed run may leave the lock behind: take it over when it is old.
      const age = Date.now() - (fs.statSync(LOCK_DIR, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > 5 * 60_000 || Date.now() > deadline) fs.rmSync(LOCK_DIR, { recursive: true, force: true });
      await sleep(500);
    }
  }
  try {
    return fn();
  } finally {
    fs.rmSync(LOCK_DIR, { recursive: true, force: true });
  }
}

function removeOldBuilds(keep: string): void {
  for (const name of fs.readdirSync(BUILDS_DIR)) {
    const dir = path.join(BUILDS_DIR, name);
    if (dir === keep) continue;
    const age = Date.now() - fs.statSync(dir).mtimeMs;
    if (age > KEEP_OLD_BUILDS_MS) fs.rmSync(dir, { recursive: true, force: true });
  }
}

function build(target: string): void {
  const temp = `${target}.tmp-${process.pid}`;
  execFileSync(
    process.execPath,
    [path.join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--mode', 'e2e', '--outDir', temp, '--emptyOutDir', '--logLevel', 'warn'],
    // A production build (React without dev checks, like the real one); only the mode differs.
    { cwd: ROOT, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } },
  );
  fs.renameSync(temp, target);
}

/** The folder of an e2e build of the current sources (built now if needed). */
export async function ensureClientBuilt(): Promise<string> {
  const stamp = String(Math.floor(Math.max(...SOURCES.map(newestMtime))));
  const target = path.join(BUILDS_DIR, stamp);
  const ready = () => fs.existsSync(path.join(target, 'index.html'));
  if (ready()) return target;
  await withLock(() => {
    if (ready()) return;
    fs.mkdirSync(BUILDS_DIR, { recursive: true });
    build(target);
    removeOldBuilds(target);
  });
  return target;
}
