// Small, valid PNG files for upload tests (the server checks magic bytes and
// decodes the pixels), generated here so the repository needs no binaries.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}

/** A width×height RGB PNG: a diagonal gradient between two colours. */
export function png(width: number, height: number, from: [number, number, number], to: [number, number, number]): Buffer {
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 3);
    for (let x = 0; x < width; x++) {
      const t = (x + y) / (width + height - 2 || 1);
      for (let c = 0; c < 3; c++) row[1 + x * 3 + c] = Math.round(from[c]! + (to[c]! - from[c]!) * t);
    }
    rows.push(row);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Writes a PNG into dir and returns its path. */
export function writePng(dir: string, name: string, width: number, height: number, from: [number, number, number], to: [number, number, number]): string {
  const path = join(dir, name);
  writeFileSync(path, png(width, height, from, to));
  return path;
}

/**
 * POST /api/posts as multipart, as the composer sends it: content, the files
 * under images and one imageAlts per image (issue 16). Answers the post's id.
 */
export async function postWithImages(
  baseURL: string,
  token: string,
  content: string,
  files: { name: string; data: Buffer }[],
  alts: string[] = [],
): Promise<{ status: number; id: string }> {
  const form = new FormData();
  form.append('content', content);
  form.append('visibility', 'public');
  for (const f of files) form.append('images', new Blob([new Uint8Array(f.data)], { type: 'image/png' }), f.name);
  files.forEach((_, i) => form.append('imageAlts', alts[i] ?? ''));
  const res = await fetch(`${baseURL}/api/posts`, { method: 'POST', headers: { Authorization: `Bearer ${token}` }, body: form });
  const json = (await res.json()) as { data?: { post?: { id?: string } } };
  return { status: res.status, id: json.data?.post?.id ?? '' };
}
