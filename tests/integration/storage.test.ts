// 980107 upload and 980106 image read, as a client sees them: content sniffing, size limit, random
// names on disk, company scope, scaled images from the disk cache.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import * as XLSX from '@e965/xlsx';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers.ts';

let s: TestServer;
let demo: string;
let demo2: string;
let demoId: number;

beforeAll(async () => {
  s = await startTestServer();
  demo = await s.login('demo', 'admin', 'demo123');
  demo2 = await s.login('demo2', 'admin', 'demo123');
  demoId = Number((await s.database.db.selectFrom('company').select('id').where('code', '=', 'demo').executeTakeFirstOrThrow()).id);
});
afterAll(async () => s?.close());

/** A multipart/form-data body built by hand, the way a browser sends one file. */
function multipart(parts: Array<{ name: string; filename?: string; contentType?: string; content: Buffer | string }>) {
  const boundary = '----tboBoundary' + crypto.randomBytes(8).toString('hex');
  const chunks: Buffer[] = [];
  for (const p of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"`;
    if (p.filename !== undefined) head += `; filename="${p.filename}"`;
    head += '\r\n';
    if (p.contentType) head += `Content-Type: ${p.contentType}\r\n`;
    chunks.push(Buffer.from(head + '\r\n', 'utf8'), Buffer.isBuffer(p.content) ? p.content : Buffer.from(p.content), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

async function upload(server: TestServer, token: string | null, filename: string, content: Buffer | string, contentType = 'image/png') {
  const { payload, headers } = multipart([{ name: 'file', filename, contentType, content }]);
  return server.call('storage', '980107', undefined, token, { payload, headers });
}

function image(server: TestServer, mediaId: string, token: string | null | undefined) {
  const query: Record<string, string> = { mediaId };
  if (token !== undefined && token !== null) query.token = token;
  return server.raw('storage', '980106', undefined, null, { method: 'GET', query });
}

const envelope = (r: { body: string }) => JSON.parse(r.body) as { code: string; msg: string; data: unknown };

/** A PNG of random pixels (so it does not compress away). */
async function noisePng(width: number, height: number): Promise<Buffer> {
  return sharp(crypto.randomBytes(width * height * 3), { raw: { width, height, channels: 3 } }).png().toBuffer();
}

function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => path.join(d.parentPath ?? (d as unknown as { path: string }).path, d.name));
}

const mediaDir = () => path.join(s.config.dataDir, 'media');
async function mediaRows(server: TestServer = s): Promise<number> {
  const r = await server.database.db.selectFrom('media').select(server.database.db.fn.countAll().as('n')).executeTakeFirstOrThrow();
  return Number(r.n);
}

describe('upload (980107)', () => {
  let png: Buffer;
  let mediaId: string;

  beforeAll(async () => {
    png = await noisePng(400, 300);
  });

  it('stores a PNG under a generated name and returns its id, type, size and dimensions', async () => {
    const r = await upload(s, demo, '商品图片.png', png);
    expect(r.code).toBe('200');
    mediaId = r.data.mediaId;
    expect(mediaId).toMatch(/^[A-Za-z0-9]{22}$/);
    expect(r.data).toEqual({ mediaId, mime: 'image/png', size: png.length, width: 400, height: 300, originalName: '商品图片.png' });

    const row = await s.database.db.selectFrom('media').selectAll().where('id', '=', mediaId).executeTakeFirstOrThrow();
    expect(Number(row.companyId)).toBe(demoId);
    expect(row.sha256).toBe(crypto.createHash('sha256').update(png).digest('hex'));
    expect(row.storedName).toMatch(/^[0-9a-f]{32}\.png$/);
    const stored = path.join(mediaDir(), String(row.storedName));
    expect(fs.readFileSync(stored).equals(png)).toBe(true);
  });

  it('refuses an HTML, SVG or executable file renamed to .png, and stores nothing', async () => {
    const files = filesUnder(mediaDir()).length;
    const rows = await mediaRows();
    const fakes: Array<[string, string | Buffer]> = [
      ['logo.png', '<!doctype html><html><script>alert(1)</script></html>'],
      ['icon.png', '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"></svg>'],
      ['setup.png', Buffer.concat([Buffer.from('MZ'), crypto.randomBytes(200)])],
      ['notes.xlsx', 'just some text'],
    ];
    for (const [name, content] of fakes) {
      const r = await upload(s, demo, name, content);
      expect(r.code, name).toBe('STORAGE_TYPE_4041');
      expect(r.msg).toContain('PNG');
    }
    expect(filesUnder(mediaDir()).length).toBe(files);
    expect(await mediaRows()).toBe(rows);
  });

  it('refuses a zip that is not a spreadsheet and a damaged PNG', async () => {
    const rows = await mediaRows();
    // A zip with one entry (stored), not an Office document.
    const name = Buffer.from('evil.txt');
    const data = Buffer.from('hello');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0); local.writeUInt32LE(data.length, 18); local.writeUInt32LE(data.length, 22); local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0); central.writeUInt32LE(data.length, 20); central.writeUInt32LE(data.length, 24); central.writeUInt16LE(name.length, 28);
    const cdOffset = local.length + name.length + data.length;
    const eocd = Buffer.alloc(22);
    eocd.writeUInt32LE(0x06054b50, 0); eocd.writeUInt16LE(1, 8); eocd.writeUInt16LE(1, 10); eocd.writeUInt32LE(central.length + name.length, 12); eocd.writeUInt32LE(cdOffset, 16);
    const zip = Buffer.concat([local, name, data, central, name, eocd]);
    expect((await upload(s, demo, 'book.xlsx', zip, 'application/zip')).code).toBe('STORAGE_TYPE_4041');

    const damaged = png.subarray(0, Math.floor(png.length / 2));
    expect((await upload(s, demo, 'half.png', damaged)).code).toBe('STORAGE_DAMAGED_4047');
    expect(await mediaRows()).toBe(rows);
  });

  it('keeps path-like client names as display text only; files land in media/ under generated names', async () => {
    const before = new Set(filesUnder(s.config.dataDir));
    for (const name of ['../../etc/passwd.png', 'a/b\\c.png', '..\\..\\win.ini.png', '/abs/path.png']) {
      const r = await upload(s, demo, name, png);
      expect(r.code, name).toBe('200');
      expect(r.data.originalName ?? '').not.toMatch(/[\\/]/);
    }
    const added = filesUnder(s.config.dataDir).filter((f) => !before.has(f));
    expect(added.length).toBeGreaterThanOrEqual(4);
    for (const f of added) {
      const rel = path.relative(mediaDir(), f);
      expect(rel.startsWith('..'), f).toBe(false);
      expect(path.basename(f)).toMatch(/^[0-9a-f]{32}(_\d+)?\.(png|jpg|gif|webp)$/);
    }
    expect(filesUnder(path.dirname(s.config.dataDir)).some((f) => /passwd|win\.ini/.test(f))).toBe(false);
  });

  it('answers STORAGE_EMPTY_4045 for an empty file, a form without a file and a JSON body', async () => {
    expect((await upload(s, demo, 'empty.png', Buffer.alloc(0))).code).toBe('STORAGE_EMPTY_4045');
    const noFile = multipart([{ name: 'remark', content: 'hello' }]);
    expect((await s.call('storage', '980107', undefined, demo, noFile)).code).toBe('STORAGE_EMPTY_4045');
    expect((await s.call('storage', '980107', { file: 'x' }, demo)).code).toBe('STORAGE_EMPTY_4045');
  });

  it('answers a malformed multipart body with a business code, never 500', async () => {
    const noBoundary = await s.call('storage', '980107', undefined, demo, { payload: 'garbage', headers: { 'content-type': 'multipart/form-data' } });
    expect(noBoundary.code).not.toBe('200');
    expect(noBoundary.code).not.toBe('500');
    const { payload, headers } = multipart([{ name: 'file', filename: 'a.png', content: Buffer.alloc(100, 1) }]);
    const cut = await s.call('storage', '980107', undefined, demo, { payload: payload.subarray(0, 150), headers });
    expect(cut.code).not.toBe('200');
    expect(cut.code).not.toBe('500');
  });

  it('refuses a file over the size limit with a readable maximum and leaves nothing behind', async () => {
    const files = filesUnder(mediaDir()).length;
    const rows = await mediaRows();
    const big = Buffer.concat([png, Buffer.alloc(s.config.uploadMaxBytes + 1 - png.length)]);
    const r = await upload(s, demo, 'big.png', big);
    expect(r.code).toBe('STORAGE_SIZE_4042');
    expect(r.msg).toBe('文件过大，最大 10 MB');
    expect(filesUnder(mediaDir()).length).toBe(files);
    expect(await mediaRows()).toBe(rows);
    // Exactly at the limit is fine as far as size goes (these bytes are not an image).
    expect((await upload(s, demo, 'edge.bin', Buffer.alloc(s.config.uploadMaxBytes, 1))).code).toBe('STORAGE_TYPE_4041');
  });

  it('needs a valid token', async () => {
    expect((await upload(s, null, 'a.png', png)).code).toBe('5012');
    expect((await upload(s, 'not-a-token', 'a.png', png)).code).toBe('5012');
  });

  it('accepts JPEG, GIF, WebP, PDF, xlsx and xls by content, whatever they are called', async () => {
    const base = () => sharp({ create: { width: 120, height: 60, channels: 3, background: '#336699' } });
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([['商品', '数量'], ['螺丝', 10]]), '表1');
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');
    const cases: Array<[string, Buffer, string, number | null]> = [
      ['photo.png', await base().jpeg().toBuffer(), 'image/jpeg', 120],
      ['anim.dat', await base().gif().toBuffer(), 'image/gif', 120],
      ['pic', await base().webp().toBuffer(), 'image/webp', 120],
      ['报价单.pdf', pdf, 'application/pdf', null],
      ['库存.xlsx', XLSX.write(wb, { type: 'buffer', bookType: 'xlsx' }) as Buffer, 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', null],
      ['旧表.xls', XLSX.write(wb, { type: 'buffer', bookType: 'biff8' }) as Buffer, 'application/vnd.ms-excel', null],
    ];
    for (const [name, content, mime, width] of cases) {
      const r = await upload(s, demo, name, content, 'application/octet-stream');
      expect(r.code, name).toBe('200');
      expect(r.data.mime, name).toBe(mime);
      expect(r.data.width, name).toBe(width);
    }
  });
});

describe('image read (980106)', () => {
  let mediaId: string;
  let pdfId: string;
  let png: Buffer;

  beforeAll(async () => {
    png = await noisePng(400, 300);
    mediaId = (await upload(s, demo, '图片.png', png)).data.mediaId;
    pdfId = (await upload(s, demo, 'doc.pdf', Buffer.from('%PDF-1.4\n%%EOF\n'), 'application/pdf')).data.mediaId;
  });

  it('scales to 80 px by default and to the size asked for (longest side), inline and private', async () => {
    for (const [param, w, h] of [[mediaId, 80, 60], [`${mediaId}_80`, 80, 60], [`${mediaId}_160`, 160, 120], [`${mediaId}_40`, 40, 30]] as const) {
      const r = await image(s, param, demo);
      expect(r.statusCode).toBe(200);
      expect(r.headers['content-type']).toBe('image/png');
      expect(String(r.headers['content-disposition'])).toMatch(/^inline;/);
      expect(String(r.headers['cache-control'])).toContain('private');
      const meta = await sharp(r.rawPayload).metadata();
      expect([meta.format, meta.width, meta.height], param).toEqual(['png', w, h]);
    }
    const cached = fs.readdirSync(path.join(mediaDir(), 'cache'));
    expect(cached.some((n) => /_160\.png$/.test(n))).toBe(true);
  });

  it('never enlarges, and size 0 is the original file', async () => {
    const big = await image(s, `${mediaId}_1280`, demo);
    expect((await sharp(big.rawPayload).metadata()).width).toBe(400);
    const original = await image(s, `${mediaId}_0`, demo);
    expect(original.rawPayload.equals(png)).toBe(true);
    expect(original.headers['content-type']).toBe('image/png');
  });

  it('answers STORAGE_SIZE_PARAM_4044 for a size not on the list', async () => {
    for (const size of ['81', '99999', 'abc', '-1']) {
      const r = envelope(await image(s, `${mediaId}_${size}`, demo));
      expect(r.code, size).toBe('STORAGE_SIZE_PARAM_4044');
      expect(r.msg).toContain('160');
    }
  });

  it('needs a valid token (5012)', async () => {
    expect(envelope(await image(s, mediaId, null)).code).toBe('5012');
    expect(envelope(await image(s, mediaId, 'bad-token')).code).toBe('5012');
  });

  it("never serves another company's file: demo2 sees STORAGE_NOT_EXIST_4043", async () => {
    for (const p of [mediaId, `${mediaId}_0`, `${mediaId}_160`]) {
      const r = await image(s, p, demo2);
      expect(r.headers['content-type']).toMatch(/^application\/json/);
      expect(envelope(r)).toEqual({ code: 'STORAGE_NOT_EXIST_4043', msg: '文件不存在', data: null });
    }
  });

  it('answers STORAGE_NOT_EXIST_4043 for unknown and malformed ids', async () => {
    for (const p of ['A'.repeat(22), 'A'.repeat(22) + '_80', '../../etc/passwd', '..%2F..%2Fapp.sqlite', '', mediaId.slice(0, 21), `${mediaId}x`]) {
      expect(envelope(await image(s, p, demo)).code, p).toBe('STORAGE_NOT_EXIST_4043');
    }
    const noParam = await s.raw('storage', '980106', undefined, null, { method: 'GET', query: { token: demo } });
    expect(envelope(noParam).code).toBe('STORAGE_NOT_EXIST_4043');
  });

  it('serves a document only at size 0', async () => {
    expect(envelope(await image(s, pdfId, demo)).code).toBe('STORAGE_NOT_IMAGE_4046');
    expect(envelope(await image(s, `${pdfId}_160`, demo)).code).toBe('STORAGE_NOT_IMAGE_4046');
    const r = await image(s, `${pdfId}_0`, demo);
    expect(r.headers['content-type']).toBe('application/pdf');
    expect(r.body.startsWith('%PDF-')).toBe(true);
  });

  it('answers STORAGE_NOT_EXIST_4043 when the stored file has gone missing', async () => {
    const id = (await upload(s, demo, 'gone.png', await noisePng(30, 30))).data.mediaId;
    const row = await s.database.db.selectFrom('media').select('storedName').where('id', '=', id).executeTakeFirstOrThrow();
    fs.rmSync(path.join(mediaDir(), String(row.storedName)));
    expect(envelope(await image(s, `${id}_0`, demo)).code).toBe('STORAGE_NOT_EXIST_4043');
    expect(envelope(await image(s, `${id}_320`, demo)).code).toBe('STORAGE_NOT_EXIST_4043');
  });
});

describe('configured upload limit', () => {
  let small: TestServer;
  beforeAll(async () => {
    small = await startTestServer({ UPLOAD_MAX_BYTES: String(64 * 1024) });
    expect(small.config.uploadMaxBytes).toBe(64 * 1024);
  });
  afterAll(async () => small?.close());

  it('uses UPLOAD_MAX_BYTES and names it in the message', async () => {
    const token = await small.login('demo', 'admin', 'demo123');
    const png = await noisePng(100, 100); // ~30 kB
    expect((await upload(small, token, 'ok.png', png)).code).toBe('200');
    const files = filesUnder(path.join(small.config.dataDir, 'media')).length;
    const big = await noisePng(200, 200); // ~120 kB
    const r = await upload(small, token, 'big.png', big);
    expect(r).toMatchObject({ code: 'STORAGE_SIZE_4042', msg: '文件过大，最大 64 KB' });
    expect(filesUnder(path.join(small.config.dataDir, 'media')).length).toBe(files);
    expect(await mediaRows(small)).toBe(1);
  });
});
