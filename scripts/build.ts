// `npm run build`: a new release in dist/releases/<id> (client + compiled server), then dist/current
// points at it (scripts/lib/build-release.ts). `--if-stale` (npm start): only when dist/current is
// missing or older than the sources.
import { buildRelease, currentRelease, releaseIsStale } from './lib/build-release.ts';

const ifStale = process.argv.includes('--if-stale');
if (ifStale && !releaseIsStale()) {
  console.log(`构建已是最新：dist/current → releases/${currentRelease()!.id}`);
} else {
  await buildRelease();
}
