// Streaming tar (tar-stream 2): a backup is one plain .tar, readable with any `tar -tf`.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable, Writable } from 'node:stream';

interface Header { name: string; size?: number; mode?: number; mtime?: Date; type?: string }
interface Pack extends Readable {
  entry(header: Header, callback: (err?: Error | null) => void): Writable;
  entry(header: Header, body: string | Buffer, callback?: (err?: Error | null) => void): void;
  finalize(): void;
}
interface Extract extends Writable {
  on(event: 'entry', listener: (header: Header, stream: Readable, next: (err?: Error) => void) => void): this;
  on(event: string, listener: (...args: any[]) => void): this;
}
const tarStream = createRequire(import.meta.url)('tar-stream') as { pack(): Pack; extract(): Extract };

export class TarWriter {
  private readonly pack = tarStream.pack();
  private readonly done: Promise<void>;

  constructor(file: string) {
    this.done = pipeline(this.pack, fs.createWriteStream(file, { flags: 'wx' }));
  }

  async addText(name: string, text: string): Promise<void> {
    await new Promise<void>((resolve, reject) => this.pack.entry({ name, mode: 0o644 }, text, (e) => (e ? reject(e) : resolve())));
  }

  async addFile(name: string, file: string): Promise<void> {
    const { size, mtime } = await fs.promises.stat(file);
    await new Promise<void>((resolve, reject) => {
      const entry = this.pack.entry({ name, size, mtime, mode: 0o644 }, (e) => (e ? reject(e) : resolve()));
      fs.createReadStream(file).on('error', reject).pipe(entry);
    });
  }

  async close(): Promise<void> {
    this.pack.finalize();
    await this.done;
  }
}

/** Calls `onEntry` for each file in order; `onEntry` writes or skips it (the stream must be consumed). */
export async function readTar(file: string, onEntry: (name: string, body: Readable) => Promise<void>): Promise<void> {
  const extract = tarStream.extract();
  extract.on('entry', (header, stream, next) => {
    const name = path.posix.normalize(header.name);
    if (header.type !== 'file' || name.startsWith('..') || path.posix.isAbsolute(name)) {
      stream.resume();
      stream.on('end', () => next());
      return;
    }
    onEntry(name, stream).then(() => next(), (e) => next(e));
  });
  await pipeline(fs.createReadStream(file), extract);
}
