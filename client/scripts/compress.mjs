// Pre-compresses the built client (dist/) once, at build time: every text
// asset gets a .br (brotli, best quality) and a .gz (gzip -9) next to it when
// that is smaller. httpapi/static.go sends the variant the browser accepts, so
// the server never compresses per request. Node's zlib only: no dependency.
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const dist = new URL('../dist/', import.meta.url).pathname;
const TEXT = /\.(js|mjs|css|svg|json|webmanifest|txt|map|wasm)$/;
const MIN_BYTES = 1024;

async function* walk(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(p);
    else if (entry.isFile()) yield p;
  }
}

let raw = 0;
let br = 0;
let gz = 0;
for await (const file of walk(dist)) {
  if (!TEXT.test(file) || (await stat(file)).size < MIN_BYTES) continue;
  const body = await readFile(file);
  const b = brotliCompressSync(body, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
    },
  });
  const g = gzipSync(body, { level: 9 });
  if (b.length < body.length) await writeFile(`${file}.br`, b);
  if (g.length < body.length) await writeFile(`${file}.gz`, g);
  raw += body.length;
  br += Math.min(b.length, body.length);
  gz += Math.min(g.length, body.length);
  if (process.env.COMPRESS_VERBOSE) console.log(relative(dist, file), body.length, b.length, g.length);
}
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
console.log(`compressed dist: ${kb(raw)} raw → ${kb(br)} brotli, ${kb(gz)} gzip`);
