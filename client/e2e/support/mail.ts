// Reads the one-time codes the server "sends": with no SMTP configured it
// writes each message as <UTC stamp>-<recipient>.eml into $CAMPUS_DATA_DIR/mail/.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The file-name key the server uses for a recipient (mail.fileKey). */
export function fileKey(address: string): string {
  return address.trim().toLowerCase().replace(/[^a-z0-9.@_+-]/g, '_').slice(0, 200);
}

/** Undoes quoted-printable soft breaks and escapes. */
function decodeQuotedPrintable(s: string): string {
  return s.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
}

/** Text of every base64 body part, decoded. */
function base64Parts(raw: string): string[] {
  const out: string[] = [];
  const re = /Content-Transfer-Encoding:\s*base64\s*\r?\n(?:[^\r\n]+\r?\n)*\r?\n([A-Za-z0-9+/=\r\n]+)/gi;
  for (const m of raw.matchAll(re)) out.push(Buffer.from(m[1]!.replace(/\s+/g, ''), 'base64').toString('utf8'));
  return out;
}

/** The 6-digit code in a message: after "code is:", else the first lone 6-digit number of the body. */
export function extractCode(raw: string): string | null {
  const texts = [decodeQuotedPrintable(raw), ...base64Parts(raw)];
  for (const t of texts) {
    const m = /code is:\s*(?:<[^>]*>\s*)*(\d{6})\b/i.exec(t);
    if (m) return m[1]!;
  }
  for (const t of texts) {
    const body = t.split(/\r?\n\r?\n/).slice(1).join('\n');
    const m = /(?<![\d-])(\d{6})(?![\d-])/.exec(body);
    if (m) return m[1]!;
  }
  return null;
}

export function newestMessage(dataDir: string, address: string): { name: string; raw: string } | null {
  const dir = join(dataDir, 'mail');
  if (!existsSync(dir)) return null;
  const suffix = `-${fileKey(address)}.eml`;
  const names = readdirSync(dir)
    .filter((n) => n.endsWith(suffix))
    .sort();
  const name = names[names.length - 1];
  return name ? { name, raw: readFileSync(join(dir, name), 'utf8') } : null;
}

/**
 * Waits for a message to `address` newer than `after` (a file name from an
 * earlier call) and returns its code and file name.
 */
export async function waitForCode(
  dataDir: string,
  address: string,
  opts: { after?: string; timeoutMs?: number } = {},
): Promise<{ code: string; name: string }> {
  const deadline = Date.now() + (opts.timeoutMs ?? 15_000);
  while (Date.now() < deadline) {
    const msg = newestMessage(dataDir, address);
    if (msg && (!opts.after || msg.name > opts.after)) {
      const code = extractCode(msg.raw);
      if (code) return { code, name: msg.name };
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`No code e-mailed to ${address} within the time limit`);
}
