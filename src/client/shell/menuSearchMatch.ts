// Which screens a menu search finds: by title or by the pinyin initials of the title.
import { pinyinInitials } from './pinyinInitials';

export interface MenuHit {
  route: string;
  title: string;
  group: string;
}

/** Screens matching `query` by title or pinyin initials, best first (a match at the start first). */
export function searchMenu(items: readonly MenuHit[], query: string, limit = 12): MenuHit[] {
  const q = query.trim().toLowerCase();
  if (!q) return items.slice(0, limit);
  const scored: [number, MenuHit][] = [];
  for (const it of items) {
    const title = it.title.toLowerCase();
    const initials = pinyinInitials(it.title);
    let score = -1;
    if (title.startsWith(q) || initials.startsWith(q)) score = 0;
    else if (title.includes(q) || initials.includes(q)) score = 1;
    else if (it.group.includes(q)) score = 2;
    if (score >= 0) scored.push([score, it]);
  }
  return scored.sort((a, b) => a[0] - b[0]).slice(0, limit).map(([, it]) => it);
}
