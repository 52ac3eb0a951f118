// The media directory: originals under `${dataDir}/media/<random>.<ext>`, scaled images under
// `media/cache/`, partial writes under `media/tmp/` (renamed into place, so a reader never sees half a
// file). Only names this module generates ever reach the file system.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import type { SniffedType } from './sniff.ts';

/** Decompression-bomb guard: images above this many pixels are refused (sharp's default is 268M). */
export const MAX_INPUT_PIXELS = 100_000_000;

const STORED_NAME = /^[0-9a-f]{32}\.(png|jpg|gif|webp|pdf|xlsx|xls)$/;

export interface ImageInfo {
  width: number;
  height: number;
}

export interface ScaledImage {
  file: string;
  mime: string;
  ext: string;
}

type OutFormat = 'png' | 'jpeg' | 'webp';
const OUT: Record<string, { format: OutFormat; mime: string; ext: string }> = {
  png: { format: 'png', mime: 'image/png', ext: 'png' },
  jpeg: { format: 'jpeg', mime: 'image/jpeg', ext: 'jpg' },
  webp: { format: 'webp', mime: 'image/webp', ext: 'webp' },
  // Scaled GIFs become PNG stills (the first frame); size 0 serves the animated original.
  gif: { format: 'png', mime: 'image/png', ext: 'png' },
};

export class ImageDecodeError extends Error {}

export class MediaStore {
  readonly root: string;
  readonly cacheDir: string;
  readonly tmpDir: string;
  private ready: Promise<void> | null = null;
  private inflight = new Map<string, Promise<void>>();

  constructor(dataDir: string) {
    this.root = path.join(dataDir, 'media');
    this.cacheDir = path.join(this.root, 'cache');
    this.tmpDir = path.join(this.root, 'tmp');
  }

  ensureDirs(): Promise<void> {
    this.ready ??= (async () => {
      await fs.promises.mkdir(this.cacheDir, { recursive: true });
      await fs.promises.mkdir(this.tmpDir, { recursive: true });
      // Leftovers of a crash mid-write are older than any write in progress.
      const hourAgo = Date.now() - 3600_000;
      for (const name of await fs.promises.readdir(this.tmpDir)) {
        const p = path.join(this.tmpDir, name);
        const st = await fs.promises.stat(p).catch(() => null);
        if (st && st.mtimeMs < hourAgo) await fs.promises.rm(p, { force: true });
      }
    })().catch((e) => { this.ready = null; throw e; });
    return this.ready;
  }

  /** Absolute path of a stored original; refuses any name this module did not generate. */
  pathOf(storedName: string): string {
    if (!STORED_NAME.test(storedName)) throw new Error(`invalid stored media name: ${JSON.stringify(storedName).slice(0, 80)}`);
    return path.join(this.root, storedName);
  }

  private tmpPath(): string {
    return path.join(this.tmpDir, crypto.randomBytes(12).toString('hex'));
  }

  /** Writes bytes to `dest` atomically (temp file, then rename). */
  private async writeAtomic(dest: string, body: Buffer): Promise<void> {
    const tmp = this.tmpPath();
    try {
      await fs.promises.writeFile(tmp, body, { flag: 'wx' });
      await fs.promises.rename(tmp, dest);
    } catch (e) {
      await fs.promises.rm(tmp, { force: true });
      throw e;
    }
  }

  async writeOriginal(storedName: string, body: Buffer): Promise<void> {
    await this.ensureDirs();
    await this.writeAtomic(this.pathOf(storedName), body);
  }

  /** Removes an original and every scaled copy of it. */
  async remove(storedName: string): Promise<void> {
    await fs.promises.rm(this.pathOf(storedName), { force: true });
    const stem = storedName.replace(/\.[a-z]+$/, '');
    const cached = await fs.promises.readdir(this.cacheDir).catch(() => [] as string[]);
    await Promise.all(cached.filter((n) => n.startsWith(`${stem}_`)).map((n) => fs.promises.rm(path.join(this.cacheDir, n), { force: true })));
  }

  /**
   * Reads an image's header with sharp: the decoded format must be the sniffed one. Width and height
   * are as displayed (EXIF orientation applied).
   */
  async imageInfo(body: Buffer, type: SniffedType): Promise<ImageInfo> {
    let meta: sharp.Metadata;
    try {
      meta = await sharp(body, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' }).metadata();
    } catch (e) {
      throw new ImageDecodeError((e as Error).message);
    }
    if (meta.format !== type.sharpFormat || !meta.width || !meta.height) throw new ImageDecodeError(`format ${meta.format}`);
    const pageHeight = meta.pages && meta.pages > 1 && meta.pageHeight ? meta.pageHeight : meta.height;
    if (meta.width * pageHeight > MAX_INPUT_PIXELS) throw new ImageDecodeError('too many pixels');
    const swap = (meta.orientation ?? 1) >= 5;
    return swap ? { width: pageHeight, height: meta.width } : { width: meta.width, height: pageHeight };
  }

  /** The image scaled so its longest side is at most `size` (never enlarged), from the disk cache. */
  async scaled(storedName: string, sharpFormat: string, size: number): Promise<ScaledImage> {
    const out = OUT[sharpFormat];
    if (!out || size <= 0) throw new Error(`cannot scale ${sharpFormat} to ${size}`);
    const source = this.pathOf(storedName);
    const stem = storedName.replace(/\.[a-z]+$/, '');
    const file = path.join(this.cacheDir, `${stem}_${size}.${out.ext}`);
    if (!fs.existsSync(file)) {
      let job = this.inflight.get(file);
      if (!job) {
        job = this.render(source, file, out.format, size).finally(() => this.inflight.delete(file));
        this.inflight.set(file, job);
      }
      await job;
    }
    return { file, mime: out.mime, ext: out.ext };
  }

  private async render(source: string, dest: string, format: OutFormat, size: number): Promise<void> {
    await this.ensureDirs();
    let body: Buffer;
    try {
      let img = sharp(source, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' })
        .rotate()
        .resize({ width: size, height: size, fit: 'inside', withoutEnlargement: true });
      img = format === 'jpeg' ? img.jpeg({ quality: 82, mozjpeg: true }) : format === 'webp' ? img.webp({ quality: 82 }) : img.png({ compressionLevel: 8 });
      body = await img.toBuffer();
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT' || /no such file|missing/i.test(String((e as Error).message))) throw e;
      throw new ImageDecodeError((e as Error).message);
    }
    await this.writeAtomic(dest, body);
  }
}

const stores = new Map<string, MediaStore>();

/** One store per data directory (keeps its in-flight map shared by every call). */
export function mediaStore(dataDir: string): MediaStore {
  let s = stores.get(dataDir);
  if (!s) { s = new MediaStore(dataDir); stores.set(dataDir, s); }
  return s;
}
