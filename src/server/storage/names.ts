// Media ids, the `{id}_{size}` parameter of 980106, display names and readable sizes.
import crypto from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
export const MEDIA_ID_LENGTH = 22;

/** 22 characters from [A-Za-z0-9] (~131 random bits): unguessable, and free of the `_` that separates the size. */
export function newMediaId(): string {
  let out = '';
  while (out.length < MEDIA_ID_LENGTH) {
    for (const b of crypto.randomBytes(32)) {
      // 248 = 4 × 62: rejecting larger bytes keeps every character equally likely.
      if (b < 248 && out.length < MEDIA_ID_LENGTH) out += ALPHABET[b % 62];
    }
  }
  return out;
}

/** A random file name for the disk; nothing the client sent is part of it. */
export function newStoredName(ext: string): string {
  return `${crypto.randomBytes(16).toString('hex')}.${ext}`;
}

/** Longest side in pixels; 0 = the original file. */
export const IMAGE_SIZES = [0, 40, 80, 160, 320, 640, 1280] as const;
export const DEFAULT_IMAGE_SIZE = 80;

export type MediaParam =
  | { ok: true; id: string; size: number }
  | { ok: false; reason: 'malformed' | 'size' };

const PARAM = /^([A-Za-z0-9]{22})(?:_(\d{1,6}))?$/;

export function parseMediaParam(raw: unknown): MediaParam {
  if (typeof raw !== 'string') return { ok: false, reason: 'malformed' };
  const m = PARAM.exec(raw.trim());
  if (!m) {
    // A well-formed id with a size that is not a number still deserves the size message.
    return /^[A-Za-z0-9]{22}_/.test(raw.trim()) ? { ok: false, reason: 'size' } : { ok: false, reason: 'malformed' };
  }
  const size = m[2] === undefined ? DEFAULT_IMAGE_SIZE : Number(m[2]);
  if (!(IMAGE_SIZES as readonly number[]).includes(size)) return { ok: false, reason: 'size' };
  return { ok: true, id: m[1], size };
}

/**
 * The client's file name, kept for display only: the last path segment, no control or bidi-override
 * characters, trimmed, at most 200 characters. null when nothing is left.
 */
export function sanitizeOriginalName(raw: unknown, max = 200): string | null {
  if (typeof raw !== 'string') return null;
  let name = raw.normalize('NFC');
  name = name.split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  name = name.replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g, '').trim();
  name = name.replace(/^\.+/, '').trim();
  const chars = Array.from(name);
  if (chars.length > max) name = chars.slice(0, max).join('');
  return name || null;
}

/** 10485760 → '10 MB'; 1536 → '1.5 KB'. */
export function formatBytes(n: number): string {
  const units = ['B', 'KB', 'MB', 'GB'];
  let v = n;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) { v /= 1024; i++; }
  const shown = Number.isInteger(v) ? String(v) : v.toFixed(1).replace(/\.0$/, '');
  return `${shown} ${units[i]}`;
}

/** The name a media file is downloaded under: the uploader's name, or its id; with `ext`, that extension. */
export function mediaDisplayName(row: { id: string; ext: string; originalName: string | null }, ext?: string): string {
  const name = row.originalName || `${row.id}.${row.ext}`;
  if (!ext || ext === row.ext) return name;
  return `${name.replace(/\.[^.]*$/, '') || row.id}.${ext}`;
}
