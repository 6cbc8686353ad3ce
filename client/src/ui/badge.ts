import { UNREAD_BADGE_CAP } from '../constants';

/** docs/product.md §9: the unread badge caps at 9+. */
export function badgeText(n: number): string {
  return n > UNREAD_BADGE_CAP ? `${UNREAD_BADGE_CAP}+` : String(n);
}
