// A release: the client (vite) and the server (one esbuild bundle, plain JavaScript: no TypeScript
// compiler or tsx when it runs) with its own copy of schemas/, in dist/releases/<id>/. The folder is
// built under a temporary name and renamed into place, then dist/current is switched to it by renaming a
// new symlink over the old one; a process already running keeps serving its own release, so a build
// never rewrites files a running process serves. The last KEEP releases stay for processes still on them.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { build as esbuild } from 'esbuild';

export const ROOT = path.resolve(import.meta.dirname, '../..');
export const RELEASES_DIR = path.join(ROOT, 'dist/releases');
export const CURRENT = path.join(ROOT, 'dist/current');
const KEEP = 5;

/** What a release is built from: a newer file here makes the current release stale. */
export const SOURCES = ['index.html', 'vite.config.ts', 'package.json', 'package-lock.json', 'src', 'schemas', 'scripts/lib/build-release.ts', 'scripts/china-geo.ts', 'scripts/client-catalog.ts'];
/** Files the bundle loads by path at run time (worker threads), copied next to it. */
const WORKERS = ['src/server/db/checkpoint-worker.mjs', 'src/server/files/spreadsheet-worker.mjs'];

export interface ReleaseInfo {
  id: string;
  builtAt: string;
  /** newest modification time of SOURCES when the build started */
  sourceStamp: number;
}

function newestMtime(abs: string): number {
  const stat = fs.statSync(abs, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  return fs.readdirSync(abs).reduce((max, name) => Math.max(max, newestMtime(path.join(abs, name))), stat.mtimeMs);
}

export const sourceStamp = (): number => Math.floor(Math.max(...SOURCES.map((p) => newestMtime(path.join(ROOT, p)))));

export function currentRelease(): ReleaseInfo | undefined {
  try {
    return JSON.parse(fs.readFileSync(path.join(CURRENT, 'release.json'), 'utf8')) as ReleaseInfo;
  } catch {
    return undefined;
  }
}

/** Missing, or built from older sources than the working tree's. */
export function releaseIsStale(): boolean {
  const current = currentRelease();
  return !current || !fs.existsSync(path.join(CURRENT, 'server/main.js')) || current.sourceStamp < sourceStamp();
}

/** Bundles the server into `outDir`/main.js (+ its worker files). Tests call this alone (no client). */
export async function buildServer(outDir: string): Promise<string> {
  const outfile = path.join(outDir, 'main.js');
  await esbuild({
    entryPoints: [path.join(ROOT, 'src/server/main.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // node_modules stay where npm put them: the bundle resolves them by walking up from dist/
    packages: 'external',
    define: { __TRADE_RELEASE__: 'true' },
    sourcemap: 'linked',
    logLevel: 'warning',
  });
  for (const file of WORKERS) fs.copyFileSync(path.join(ROOT, file), path.join(outDir, path.basename(file)));
  return outfile;
}

/** Copies what a release reads at run time besides its bundle. */
export function copySchemas(releaseDir: string): void {
  fs.cpSync(path.join(ROOT, 'schemas'), path.join(releaseDir, 'schemas'), { recursive: true });
}

async function buildClient(outDir: string): Promise<void> {
  const { build } = await import('vite');
  await build({ configFile: path.join(ROOT, 'vite.config.ts'), root: ROOT, logLevel: 'warn', build: { outDir, emptyOutDir: true } });
}

function pointCurrentAt(id: string): void {
  const temp = `${CURRENT}.tmp-${process.pid}`;
  fs.rmSync(temp, { force: true });
  fs.symlinkSync(path.join('releases', id), temp, 'dir');
  fs.renameSync(temp, CURRENT); // atomic: a reader sees the old release or the new one
}

function pruneOld(keepId: string): void {
  const ids = fs.readdirSync(RELEASES_DIR).filter((n) => !n.includes('.tmp-')).sort();
  for (const id of ids.slice(0, Math.max(0, ids.length - KEEP))) {
    if (id !== keepId) fs.rmSync(path.join(RELEASES_DIR, id), { recursive: true, force: true });
  }
}

export async function buildRelease(log: (line: string) => void = console.log): Promise<ReleaseInfo> {
  const stamp = sourceStamp();
  const now = new Date();
  const id = `${now.toISOString().replace(/[-:]/g, '').replace(/\..*/, '').replace('T', '-')}-${crypto.randomBytes(2).toString('hex')}`;
  const temp = path.join(RELEASES_DIR, `${id}.tmp-${process.pid}`);
  fs.mkdirSync(temp, { recursive: true });
  try {
    log(`构建客户端 → dist/releases/${id}/client`);
    await buildClient(path.join(temp, 'client'));
    log(`构建服务器 → dist/releases/${id}/server/main.js`);
    await buildServer(path.join(temp, 'server'));
    copySchemas(temp);
    const info: ReleaseInfo = { id, builtAt: now.toISOString(), sourceStamp: stamp };
    fs.writeFileSync(path.join(temp, 'release.json'), `${JSON.stringify(info, null, 2)}\n`);
    fs.renameSync(temp, path.join(RELEASES_DIR, id));
    pointCurrentAt(id);
    pruneOld(id);
    log(`完成：dist/current → releases/${id}`);
    return info;
  } catch (e) {
    fs.rmSync(temp, { recursive: true, force: true });
    throw e;
  }
}
