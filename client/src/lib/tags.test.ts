import { describe, expect, it } from 'vitest';
import { normalizeTag } from './tags';

describe('normalizeTag (as the server, domain.NormalizeTag)', () => {
  it.each([
    ['chess', 'chess'],
    ['#Chess', 'chess'],
    ['  #AI_club ', 'ai_club'],
    ['हिन्दी', 'हिन्दी'],
    ['cafe\u0301', 'café'],
    ['é'.repeat(50), 'é'.repeat(50)],
  ])('%s → %s', (raw, tag) => {
    expect(normalizeTag(raw)).toBe(tag);
  });

  it.each(['', '#', '2026', 'two words', 'c#', 'a-b', 'é'.repeat(51)])('%s is no tag', (raw) => {
    expect(normalizeTag(raw)).toBeNull();
  });
});
