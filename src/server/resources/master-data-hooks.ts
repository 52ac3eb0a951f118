// What the data-management families of issue 33 item 4 (cdm 0105 … 0191, docs/master-data-groups.md) do
// beyond the generic rules:
// - one default per party: a client's default delivery address, a client's or supplier's primary contact,
//   the default bank account of a currency, the default tax rate of a kind — the row marked default takes
//   the flag from the others of its party in the same transaction (on PostgreSQL under a transaction lock
//   per party, so two clerks marking two rows at once leave one default); an import leaving a party with
//   two is refused; a client's first address and a party's first contact become the default themselves;
// - brands and units are kept as names on products (product.brand, unitBig/unitMid/unitSmall): renaming
//   one renames it on the products that use it, and one in use cannot be removed (it can be switched off);
// - a contact names the party its kind says (a client's contact no supplier), a carton's net weight is no
//   more than its gross weight, a port's or airport's code is a UN/LOCODE of its country, a default
//   account or tax rate is enabled, and a number rule names a series and a prefix of its own.
import Decimal from 'decimal.js';
import { sql } from 'kysely';
import type { CallContext } from '../catalog/context.ts';
import type { Tenant } from '../catalog/tenant.ts';
import type { DB } from '../db/connection.ts';
import { checkNumberRule, decorateNumberRules } from '../domain/master-data/number-rules.ts';
import { bizError, validationError, type FieldError } from '../http/errors.ts';
import type { ResourceHooks, SaveEvent } from './hooks.ts';
import type { Row } from './query.ts';

const isOn = (v: unknown) => v === 1 || v === true || v === '1';
const bump = () => ({ version: sql`${sql.ref('version')} + 1`, updatedAt: new Date().toISOString() });

interface DefaultRule {
  /** the table (camelCase) and its flag column */
  table: string;
  flag: string;
  /** the columns naming the party within the company (none: the company itself) */
  party: (merged: Row) => Record<string, unknown>;
  /** a party's first row becomes its default by itself */
  firstIsDefault?: boolean;
  /** what an import leaving a party with two defaults is told */
  twice: (partyLabel: string) => string;
  /** the party's label in that message */
  label: (tenant: Tenant, party: Record<string, unknown>) => Promise<string>;
}

/** On PostgreSQL: one writer at a time per party (held to the end of the transaction). SQLite has one writer anyway. */
async function lockParty(ctx: CallContext, db: DB, tenant: Tenant, rule: DefaultRule, party: Record<string, unknown>): Promise<void> {
  if (ctx.database.dialect !== 'postgres') return;
  const key = `${rule.table}:${rule.flag}:${JSON.stringify(party)}`;
  await sql`select pg_advisory_xact_lock(${tenant.companyId}, hashtext(${key}))`.execute(db);
}

function whereParty<Q extends { where: (...a: any[]) => Q }>(q: Q, party: Record<string, unknown>): Q {
  let out = q;
  for (const [column, value] of Object.entries(party)) out = value === null || value === undefined ? out.where(column, 'is', null) : out.where(column, '=', value);
  return out;
}

/** afterSave: the row marked default takes the flag from the other rows of its party (or becomes the first default). */
function keepOneDefault(rule: DefaultRule): NonNullable<ResourceHooks['afterSave']> {
  return async ({ ctx, db, tenant, id, before, merged }) => {
    const party = rule.party(merged);
    if (!isOn(merged[rule.flag]) && !(rule.firstIsDefault && before === null)) return;
    await lockParty(ctx, db, tenant, rule, party);
    if (isOn(merged[rule.flag])) {
      await whereParty(tenant.update(rule.table).set({ [rule.flag]: 0, ...bump() }).where('id', '!=', Number(id)).where(rule.flag, '=', 1), party).execute();
      return;
    }
    // a party's first row: its default, unless another is already
    const other = await whereParty(tenant.select(rule.table).select('id').where('id', '!=', Number(id)).where(rule.flag, '=', 1), party).limit(1).executeTakeFirst();
    if (!other) await tenant.update(rule.table).set({ [rule.flag]: 1 }).where('id', '=', Number(id)).execute();
  };
}

/** afterWrite of an import: no party is left with two defaults. */
function noTwoDefaults(rule: DefaultRule, partyColumns: string[]): NonNullable<ResourceHooks['afterWrite']> {
  return async ({ tenant, op }) => {
    if (op !== 'import') return;
    let q = tenant.select(rule.table).where(rule.flag, '=', 1);
    q = q.select([...partyColumns, sql<number>`count(*)`.as('n')] as never).groupBy(partyColumns as never);
    const rows = (await q.having(sql`count(*)`, '>', 1).limit(1).execute()) as Row[];
    if (!rows.length) return;
    const party = Object.fromEntries(partyColumns.map((c) => [c, rows[0]![c]]));
    throw validationError([{ field: rule.flag, message: rule.twice(await rule.label(tenant, party)) }]);
  };
}

const labelOfRow = (table: string, column: string) => async (tenant: Tenant, id: unknown) => {
  if (id === null || id === undefined) return '';
  const row = (await tenant.select(table).select(column).where('id', '=', Number(id)).executeTakeFirst()) as Row | undefined;
  return row ? String(row[column]) : String(id);
};
const clientName = labelOfRow('client', 'name');
const supplierName = labelOfRow('supplier', 'name');
const currencyName = labelOfRow('currency', 'currencyName');

const ADDRESS_DEFAULT: DefaultRule = {
  table: 'clientAddress', flag: 'isDefault', firstIsDefault: true,
  party: (m) => ({ clientId: m.clientId }),
  label: (tenant, p) => clientName(tenant, p.clientId),
  twice: (who) => `客户“${who}”有多个默认收货地址，每个客户只能有一个默认地址`,
};
const CONTACT_PRIMARY: DefaultRule = {
  table: 'partyContact', flag: 'isPrimary', firstIsDefault: true,
  party: (m) => ({ partyKind: m.partyKind, clientId: m.partyKind === 'client' ? m.clientId : null, supplierId: m.partyKind === 'supplier' ? m.supplierId : null }),
  label: async (tenant, p) => (p.partyKind === 'client' ? `客户“${await clientName(tenant, p.clientId)}”` : `供应商“${await supplierName(tenant, p.supplierId)}”`),
  twice: (who) => `${who}有多个主联系人，每个往来单位只能有一个主联系人`,
};
const ACCOUNT_DEFAULT: DefaultRule = {
  table: 'companyBankAccount', flag: 'isDefault',
  party: (m) => ({ currencyId: m.currencyId }),
  label: (tenant, p) => currencyName(tenant, p.currencyId),
  twice: (who) => `${who}有多个默认账户，每个币种只能有一个默认账户`,
};
const TAX_DEFAULT: DefaultRule = {
  table: 'taxRate', flag: 'isDefault',
  party: (m) => ({ kind: m.kind }),
  label: async (_tenant, p) => (p.kind === 'input' ? '进项' : '销项'),
  twice: (who) => `${who}税率有多个默认税率，每种类型只能有一个默认税率`,
};

/**
 * A name products carry as text (a brand, a unit): renaming it renames it on the products that use it
 * (in one statement per column, each product's version bumped); removing one in use is refused.
 */
function namedOnProducts(resource: string, entity: string, columns: string[]): Pick<ResourceHooks, 'afterSave' | 'beforeRemove'> {
  return {
    async afterSave({ ctx, db, tenant, id, before, merged }) {
      if (!before || before.name === merged.name) return;
      let renamed = 0;
      for (const column of columns) {
        const res = await tenant.update('product').set({ [column]: merged.name, ...bump(), updatedBy: ctx.caller!.accountId }).where(column, '=', before.name).executeTakeFirst();
        renamed += Number(res.numUpdatedRows);
      }
      if (renamed) {
        await ctx.audit({
          action: 'update', entity: resource, recordId: Number(id), recordLabel: String(merged.name),
          changes: [{ field: 'products', title: `商品的${entity}`, from: before.name, to: `${merged.name}（${renamed} 处）` }],
        }, db);
      }
    },
    async beforeRemove(_ctx, _db, tenant, rows) {
      for (const row of rows) {
        let q = tenant.select('product').select('id');
        q = q.where((eb: any) => eb.or(columns.map((c) => eb(c, '=', row.name))));
        if (await q.limit(1).executeTakeFirst()) throw bizError('COMMON_REFERENCED_4010', { entity, label: String(row.name), refEntity: '商品' }, { id: row.id, refEntity: '商品' });
      }
    },
  };
}

const upper = (v: unknown) => (typeof v === 'string' ? v.toUpperCase() : v);
const decimalOf = (v: unknown): number | null => (v === null || v === undefined || v === '' ? null : Number(v));

/**
 * A contact names the party its kind says and no other: the other party's id sent with it is refused; one
 * left from before its kind changed (the form no longer sends the hidden field) is let go.
 */
async function contactParty({ values, merged }: SaveEvent): Promise<FieldError[]> {
  const supplier = merged.partyKind === 'supplier';
  const [own, other] = supplier ? ['supplierId', 'clientId'] : ['clientId', 'supplierId'];
  if (merged[own] === null || merged[own] === undefined) return [{ field: own, message: supplier ? '供应商联系人须选择供应商' : '客户联系人须选择客户' }];
  if (values[other] !== null && values[other] !== undefined) return [{ field: other, message: supplier ? '供应商联系人不能同时填写客户' : '客户联系人不能同时填写供应商' }];
  if (merged[other] !== null && merged[other] !== undefined) {
    values[other] = null;
    merged[other] = null;
  }
  return [];
}

const defaultIsEnabled = (what: string) => async ({ merged }: SaveEvent): Promise<FieldError[]> =>
  isOn(merged.isDefault) && !isOn(merged.enabled) ? [{ field: 'isDefault', message: `停用的${what}不能设为默认` }] : [];

export const MASTER_DATA_HOOKS: Record<string, ResourceHooks> = {
  dictItem: {
    // units of measure are their own data now (cdm 0106): a dictionary `unit` would be read by nothing
    async validate({ merged }) {
      return merged.dictCode === 'unit' ? [{ field: 'dictCode', message: '计量单位请在“商品 → 计量单位”中维护，不再使用字典 unit' }] : [];
    },
  },
  brand: namedOnProducts('brand', '品牌', ['brand']),
  measureUnit: namedOnProducts('measureUnit', '计量单位', ['unitBig', 'unitMid', 'unitSmall']),
  packingSpec: {
    async validate({ merged }) {
      const gross = decimalOf(merged.grossWeight);
      const net = decimalOf(merged.netWeight);
      return gross !== null && net !== null && net > gross ? [{ field: 'netWeight', message: '净重不能大于毛重' }] : [];
    },
    decorate(rows) {
      // one carton's volume in m³ (cm × cm × cm / 10^6), to 4 places; the sizes arrive as exact decimal text
      for (const row of rows) {
        const [l, w, h] = [row.cartonLength, row.cartonWidth, row.cartonHeight].map((v) => (v === null || v === undefined ? null : Math.round(Number(v) * 10)));
        row.cartonVolume = l && w && h ? (Math.round((l * w * h) / 1e5) / 1e4).toFixed(4) : null;
        row.cartonSize = l && w && h ? `${row.cartonLength} × ${row.cartonWidth} × ${row.cartonHeight}` : null;
      }
    },
  },
  clientAddress: {
    afterSave: keepOneDefault(ADDRESS_DEFAULT),
    afterWrite: noTwoDefaults(ADDRESS_DEFAULT, ['clientId']),
    decorate(rows) {
      for (const row of rows) row.fullAddress = [row.province, row.city, row.district, row.address].filter((x) => x !== null && x !== undefined && x !== '').join('');
    },
  },
  contact: {
    validate: contactParty,
    decorate(rows) {
      for (const row of rows) row.partyName = (row.partyKind === 'supplier' ? row.supplierName : row.clientName) ?? null;
    },
    afterSave: keepOneDefault(CONTACT_PRIMARY),
    afterWrite: noTwoDefaults(CONTACT_PRIMARY, ['partyKind', 'clientId', 'supplierId']),
  },
  bankAccount: {
    validate: defaultIsEnabled('账户'),
    afterSave: keepOneDefault(ACCOUNT_DEFAULT),
    afterWrite: noTwoDefaults(ACCOUNT_DEFAULT, ['currencyId']),
  },
  taxRate: {
    validate: defaultIsEnabled('税率'),
    afterSave: keepOneDefault(TAX_DEFAULT),
    decorate(rows) {
      for (const row of rows) row.ratePercent = row.rate === null || row.rate === undefined ? null : `${new Decimal(String(row.rate)).times(100).toString()}%`;
    },
    afterWrite: noTwoDefaults(TAX_DEFAULT, ['kind']),
  },
  port: {
    derive: ({ merged }) => ({ code: upper(merged.code), countryCode: upper(merged.countryCode) }),
    async validate({ merged }) {
      if (merged.kind !== 'port' && merged.kind !== 'airport') return [];
      const code = String(merged.code ?? '');
      const country = String(merged.countryCode ?? '');
      if (!/^[A-Z]{2}[A-Z2-9]{3}$/.test(code) || !code.startsWith(country)) {
        return [{ field: 'code', message: `港口与机场的编码应为 UN/LOCODE：5 位大写字母或数字，前两位是国家/地区代码（${country || 'CN'}），如 CNSHA` }];
      }
      return [];
    },
  },
  numberRule: {
    derive: ({ merged }) => ({ prefix: upper(merged.prefix) }),
    async validate({ tenant, id, merged }) {
      let q = tenant.select('numberRule').select(['id', 'series', 'prefix', 'enabled']);
      if (id !== null) q = q.where('id', '!=', id);
      return checkNumberRule(merged, (await q.execute()) as Row[]);
    },
    decorate: (rows) => decorateNumberRules(rows),
  },
};
