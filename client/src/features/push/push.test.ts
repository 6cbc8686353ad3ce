import { describe, expect, it } from 'vitest';
import { base64UrlToBytes } from './push';

describe('base64UrlToBytes', () => {
  it.each([
    ['', []],
    ['AA', [0]],
    ['_-8', [255, 239]],
    ['AQID', [1, 2, 3]],
    ['AQIDBA', [1, 2, 3, 4]],
  ])('%s', (s, want) => {
    expect(Array.from(base64UrlToBytes(s))).toEqual(want);
  });

  it('decodes a 65-byte VAPID key', () => {
    const key = 'BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4';
    const bytes = base64UrlToBytes(key);
    expect(bytes.length).toBe(65);
    expect(bytes[0]).toBe(4);
  });
});
