// How a report's group keys are labelled, by dimension: the periods (day, week, month) from a calendar day,
// and the master records (client, supplier, product, category, staff, warehouse, presale plan) from their ids. Which dimensions a
// report offers, and which label columns it shows, is its screen schema's (screen-groupings.ts).
import type { Tenant } from '../../catalog/tenant.ts';
import { labelsById, type Group } from './common.ts';

export const PERIODS = new Set(['day', 'week', 'month']);
export const NONE = '（未指定）';

/** The group key of a calendar day "YYYY-MM-DD" for a period: the day, the Monday of its week, its month. */
export function periodKey(period: string, day: string): string {
  if (period === 'month') return day.slice(0, 7);
  if (period === 'week') {
    const d = new Date(`${day}T00:00:00Z`);
    const back = (d.getUTCDay() + 6) % 7; // Monday = 0
    return new Date(d.getTime() - back * 86_400_000).toISOString().slice(0, 10);
  }
  return day;
}

const MASTER: Record<string, { table: string; columns: string[]; prefix: string }> = {
  client: { table: 'client', columns: ['code', 'name'], prefix: 'client' },
  supplier: { table: 'supplier', columns: ['code', 'name'], prefix: 'supplier' },
  staff: { table: 'staff', columns: ['code', 'name'], prefix: 'staff' },
  warehouse: { table: 'warehouse', columns: ['code', 'name'], prefix: 'warehouse' },
  category: { table: 'category', columns: ['code', 'name'], prefix: 'category' },
  plan: { table: 'presalePlan', columns: ['code', 'name'], prefix: 'plan' },
  product: { table: 'product', columns: ['code', 'name', 'specification', 'unitSmall'], prefix: 'product' },
};

/**
 * Sets each group's labels: for a period `<period>` (and `label`); for a record `<dim>Id`, `<dim>Code`,
 * `<dim>Name` (products also specification and unitSmall) — key "0" is the group of rows without one.
 */
export async function labelGroups(tenant: Tenant, dim: string, groups: Group[]): Promise<void> {
  if (PERIODS.has(dim)) {
    for (const g of groups) g.labels = { [dim]: g.key, label: dim === 'week' ? `${g.key} 周` : g.key };
    return;
  }
  const m = MASTER[dim];
  if (!m) throw new Error(`报表汇总方式 ${dim} 没有取名的办法`);
  const labels = await labelsById(tenant, m.table, groups.map((g) => Number(g.key)).filter((id) => id > 0), m.columns);
  for (const g of groups) {
    const id = Number(g.key);
    const l = id > 0 ? labels.get(id) : undefined;
    const name = id > 0 ? (l?.name ?? g.key) : NONE;
    g.labels = { [`${m.prefix}Id`]: id > 0 ? id : null, [`${m.prefix}Code`]: l?.code ?? null, [`${m.prefix}Name`]: name, label: String(name) };
    if (dim === 'product') Object.assign(g.labels, { specification: l?.specification ?? null, unitSmall: l?.unitSmall ?? null, label: l ? `${String(l.code)} ${String(l.name)}` : NONE });
  }
}
