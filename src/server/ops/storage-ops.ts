// 980107 upload and 980106 image read: the binding only — the calls into src/server/domain/storage/media.ts
// (uploads typed by their bytes and recorded in `media` for the caller's company; reads through its scope).
import type { OpHandler } from '../catalog/context.ts';
import { mediaImage, uploadMedia } from '../domain/storage/media.ts';
import type { OpsDeps } from './index.ts';

export function storageOps(_deps: OpsDeps): Record<string, OpHandler> {
  return {
    'storage.upload': { run: (ctx) => uploadMedia(ctx) },
    'storage.image': { run: (ctx) => mediaImage(ctx) },
  };
}
