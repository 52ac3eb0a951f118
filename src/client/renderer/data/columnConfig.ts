// Per-user column configuration (DESIGN §3.1, §6): what the user changed — per column key: hidden,
// width, fixed, order index — never a frozen copy of the column list. Merging it over the schema's
// columns therefore keeps columns added to the schema later (they appear at their schema place, next to
// their schema neighbour) and drops columns the schema no longer has. Pure functions; the list keeps
// the preferences in state and saves them through 023402.

export type Fixed = 'left' | 'right';

export interface ColumnPref {
  hidden?: boolean;
  width?: number;
  /** null: the user un-fixed a column the schema fixes. */
  fixed?: Fixed | null;
  order?: number;
}

export interface ColumnPrefs {
  v: 1;
  columns: Record<string, ColumnPref>;
}

/** The schema's default for one column. */
export interface ColumnDefault {
  key: string;
  hidden?: boolean;
  width?: number;
  fixed?: Fixed;
}

/** One column as drawn. */
export interface ColumnState {
  key: string;
  hidden: boolean;
  width?: number;
  fixed?: Fixed;
}

export const EMPTY_PREFS: ColumnPrefs = { v: 1, columns: {} };

function validPref(p: unknown): ColumnPref | null {
  if (!p || typeof p !== 'object') return null;
  const r = p as Record<string, unknown>;
  const out: ColumnPref = {};
  if (typeof r.hidden === 'boolean') out.hidden = r.hidden;
  if (typeof r.width === 'number' && Number.isFinite(r.width) && r.width >= 30 && r.width <= 2000) out.width = Math.round(r.width);
  if (r.fixed === 'left' || r.fixed === 'right' || r.fixed === null) out.fixed = r.fixed;
  if (typeof r.order === 'number' && Number.isInteger(r.order) && r.order >= 0) out.order = r.order;
  return Object.keys(out).length ? out : null;
}

/** Tolerant reading of a stored configContent: anything unreadable is "no preferences". */
export function parsePrefs(configContent: string | null | undefined): ColumnPrefs {
  if (!configContent) return EMPTY_PREFS;
  let raw: unknown;
  try {
    raw = JSON.parse(configContent);
  } catch {
    return EMPTY_PREFS;
  }
  const cols = raw && typeof raw === 'object' ? (raw as { columns?: unknown }).columns : undefined;
  if (!cols || typeof cols !== 'object' || Array.isArray(cols)) return EMPTY_PREFS;
  const out: ColumnPrefs = { v: 1, columns: {} };
  for (const [k, p] of Object.entries(cols as Record<string, unknown>)) {
    const v = validPref(p);
    if (v) out.columns[k] = v;
  }
  return out;
}

/** What is saved: preferences of columns the schema still has. */
export function serialisePrefs(prefs: ColumnPrefs, defaults: readonly ColumnDefault[]): string {
  const keys = new Set(defaults.map((d) => d.key));
  const columns: Record<string, ColumnPref> = {};
  for (const [k, p] of Object.entries(prefs.columns)) if (keys.has(k) && Object.keys(p).length) columns[k] = p;
  return JSON.stringify({ v: 1, columns });
}

/**
 * The columns as drawn. Ordered columns (the user reordered at some point) go by their order index;
 * a column without one (added to the schema after the user reordered) follows its schema predecessor.
 */
export function applyPrefs(defaults: readonly ColumnDefault[], prefs: ColumnPrefs): ColumnState[] {
  const state = (d: ColumnDefault): ColumnState => {
    const p = prefs.columns[d.key] ?? {};
    const fixed = p.fixed === undefined ? d.fixed : (p.fixed ?? undefined);
    const s: ColumnState = { key: d.key, hidden: p.hidden ?? d.hidden ?? false };
    const width = p.width ?? d.width;
    if (width !== undefined) s.width = width;
    if (fixed) s.fixed = fixed;
    return s;
  };
  const ordered = defaults
    .filter((d) => prefs.columns[d.key]?.order !== undefined)
    .sort((a, b) => prefs.columns[a.key]!.order! - prefs.columns[b.key]!.order!);
  const out: ColumnState[] = ordered.map(state);
  defaults.forEach((d, i) => {
    if (prefs.columns[d.key]?.order !== undefined) return;
    // After the nearest schema predecessor already placed; else at the front.
    let at = 0;
    for (let j = i - 1; j >= 0; j--) {
      const idx = out.findIndex((c) => c.key === defaults[j]!.key);
      if (idx >= 0) {
        at = idx + 1;
        break;
      }
    }
    out.splice(at, 0, state(d));
  });
  // Fixed columns must sit at their edge for the table to draw them: left ones first, right ones last.
  return [...out.filter((c) => c.fixed === 'left'), ...out.filter((c) => !c.fixed), ...out.filter((c) => c.fixed === 'right')];
}

function setPref(prefs: ColumnPrefs, key: string, patch: (p: ColumnPref) => void): ColumnPrefs {
  const next: ColumnPref = { ...(prefs.columns[key] ?? {}) };
  patch(next);
  const columns = { ...prefs.columns };
  if (Object.keys(next).length) columns[key] = next;
  else delete columns[key];
  return { v: 1, columns };
}

function defaultOf(defaults: readonly ColumnDefault[], key: string): ColumnDefault {
  return defaults.find((d) => d.key === key) ?? { key };
}

export function setHidden(prefs: ColumnPrefs, defaults: readonly ColumnDefault[], key: string, hidden: boolean): ColumnPrefs {
  const d = defaultOf(defaults, key);
  return setPref(prefs, key, (p) => {
    if (hidden === (d.hidden ?? false)) delete p.hidden;
    else p.hidden = hidden;
  });
}

export function setWidth(prefs: ColumnPrefs, defaults: readonly ColumnDefault[], key: string, width: number): ColumnPrefs {
  const d = defaultOf(defaults, key);
  const w = Math.max(30, Math.min(2000, Math.round(width)));
  return setPref(prefs, key, (p) => {
    if (w === d.width) delete p.width;
    else p.width = w;
  });
}

export function setFixed(prefs: ColumnPrefs, defaults: readonly ColumnDefault[], key: string, fixed: Fixed | null): ColumnPrefs {
  const d = defaultOf(defaults, key);
  return setPref(prefs, key, (p) => {
    if ((fixed ?? undefined) === d.fixed) delete p.fixed;
    else p.fixed = fixed;
  });
}

/** Move the column at `from` to `to` (indexes in the drawn order); stores the whole new order. */
export function moveColumn(prefs: ColumnPrefs, defaults: readonly ColumnDefault[], from: number, to: number): ColumnPrefs {
  const order = applyPrefs(defaults, prefs).map((c) => c.key);
  if (from < 0 || from >= order.length || to < 0 || to >= order.length || from === to) return prefs;
  const [moved] = order.splice(from, 1);
  order.splice(to, 0, moved!);
  let next = prefs;
  order.forEach((key, i) => {
    next = setPref(next, key, (p) => {
      p.order = i;
    });
  });
  return next;
}

export function isCustomised(prefs: ColumnPrefs): boolean {
  return Object.keys(prefs.columns).length > 0;
}
