import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { StrengthMeter } from './AuthCard';

afterEach(cleanup);

describe('StrengthMeter', () => {
  it.each([
    ['short', 'strength-meter--weak', 'Weak'],
    ['abcdefg1', 'strength-meter--medium', 'Medium'],
    ['Abcdef1!', 'strength-meter--strong', 'Strong'],
  ])('%s → %s', (pw, cls, word) => {
    const { container } = render(<StrengthMeter password={pw} />);
    const meter = container.querySelector('.strength-meter')!;
    expect(meter.classList.contains(cls)).toBe(true);
    expect(meter.textContent).toContain(word);
  });

  it('is hidden for an empty password', () => {
    const { container } = render(<StrengthMeter password="" />);
    expect(container.querySelector('.strength-meter')).toBeNull();
  });
});
