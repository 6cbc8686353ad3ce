import { describe, expect, it } from 'vitest';
import { toggledProfileLike } from './connectState';
import {
  capitalize,
  coerceProficiency,
  draftFromProfile,
  draftToPayload,
  initialProfileLike,
  normalizeProfile,
  parseInterests,
  profileYear,
} from './model';

describe('profile year (docs/product.md §2.14)', () => {
  it("is '20' followed by the third slash-separated part of the university ID", () => {
    expect(profileYear('BWU/BCA/20/123')).toBe('2020');
    expect(profileYear('BWU/BSC/21/9')).toBe('2021');
    expect(profileYear('BWU/BSC/07/9')).toBe('2007');
  });
  it('falls back to 2024 without a usable third part', () => {
    expect(profileYear('')).toBe('2024');
    expect(profileYear(undefined)).toBe('2024');
    expect(profileYear('BWU/BCA')).toBe('2024');
    expect(profileYear('BWU/BCA//123')).toBe('2024');
    expect(profileYear('BWU/BCA/xx/123')).toBe('2024');
  });
  it('keeps a third part that already is a four-digit year', () => {
    expect(profileYear('BWU/BCA/2022/1')).toBe('2022');
  });
});

describe('profile model', () => {
  it('capitalises the role', () => {
    expect(capitalize('student')).toBe('Student');
    expect(capitalize('faculty')).toBe('Faculty');
    expect(capitalize('')).toBe('');
  });

  it('splits interests on commas, trimmed, empties dropped (docs/product.md §5)', () => {
    expect(parseInterests(' Chess, Photography, , Robotics ,')).toEqual(['Chess', 'Photography', 'Robotics']);
    expect(parseInterests('')).toEqual([]);
  });

  it('coerces skill proficiency to a number within 0–100, default 50', () => {
    expect(coerceProficiency('80')).toBe(80);
    expect(coerceProficiency(120)).toBe(100);
    expect(coerceProficiency(-3)).toBe(0);
    expect(coerceProficiency('abc')).toBe(50);
    expect(coerceProficiency(undefined)).toBe(50);
    expect(coerceProficiency(49.6)).toBe(50);
  });

  it('normalizes the server profile, tolerating missing pieces', () => {
    const p = normalizeProfile({
      _id: 'u2',
      name: 'Nila Das',
      avatar: '/media/a.png',
      role: 'student',
      universityId: 'BWU/BSC/21/2',
      coverPhoto: { url: '/media/c.png' },
      education: { degree: 'B.Sc.', institution: 'BWU' },
      skills: [{ name: 'Go', proficiency: '70' }, { name: '' }, { name: 'SQL' }],
      achievements: [{ title: 'Winner', year: 2023 }],
      interests: ['Chess', ' '],
      profileLikes: ['u1', 'u3'],
      postsCount: 4,
      friendsCount: 2,
    });
    expect(p.id).toBe('u2');
    expect(p.avatar.url).toBe('/media/a.png');
    expect(p.education).toEqual({ degree: 'B.Sc.', institution: 'BWU', years: '' });
    expect(p.skills).toEqual([
      { name: 'Go', proficiency: 70 },
      { name: 'SQL', proficiency: 50 },
    ]);
    expect(p.achievements).toEqual([{ title: 'Winner', description: '', year: '2023' }]);
    expect(p.interests).toEqual(['Chess']);
    expect(p.likesCount).toBe(2);
    expect(p.postsCount).toBe(4);
    expect(normalizeProfile(null).name).toBe('User');
  });

  it('takes the initial like count and flag from profileLikes (docs/product.md §4)', () => {
    const p = normalizeProfile({ id: 'u2', profileLikes: ['u1', 'u3'], likesCount: 2 });
    expect(initialProfileLike(p, 'u1')).toEqual({ count: 2, liked: true });
    expect(initialProfileLike(p, 'u9')).toEqual({ count: 2, liked: false });
    const noList = normalizeProfile({ id: 'u2', likesCount: 5, isLikedByViewer: true });
    expect(initialProfileLike(noList, 'u1')).toEqual({ count: 5, liked: true });
  });

  it('profile like: liked → count − 1 (never below 0), else count + 1', () => {
    expect(toggledProfileLike({ count: 3, liked: true })).toEqual({ count: 2, liked: false });
    expect(toggledProfileLike({ count: 0, liked: true })).toEqual({ count: 0, liked: false });
    expect(toggledProfileLike({ count: 3, liked: false })).toEqual({ count: 4, liked: true });
  });

  it('copies the draft from the profile and turns it into the PATCH payload', () => {
    const p = normalizeProfile({
      id: 'u1',
      name: 'Kiran',
      skills: [{ name: 'Go', proficiency: 70 }],
      interests: ['Chess', 'Photography'],
    });
    const d = draftFromProfile(p);
    expect(d.interests).toBe('Chess, Photography');
    d.skills.push({ name: '  ', proficiency: 10 }, { name: 'SQL', proficiency: 55 });
    d.achievements.push({ title: '', description: '', year: '' }, { title: 'Cup', description: 'won', year: '2023' });
    d.interests = 'Chess, , Robotics';
    d.name = '  Kiran Mehta ';
    const payload = draftToPayload(d);
    expect(payload.name).toBe('Kiran Mehta');
    expect(payload.skills).toEqual([
      { name: 'Go', proficiency: 70 },
      { name: 'SQL', proficiency: 55 },
    ]);
    expect(payload.achievements).toEqual([{ title: 'Cup', description: 'won', year: '2023' }]);
    expect(payload.interests).toEqual(['Chess', 'Robotics']);
    // The draft is a copy: editing it leaves the profile alone.
    expect(p.skills).toHaveLength(1);
  });
});
