// The data-management families of cdm 0105, 0106, 0108, 0115, 0118, 0119, 0149, 0160, 0170, 0180 and 0191
// (issue 33 item 4; docs/master-data-groups.md): brands, units of measure, packaging specs, clients'
// delivery addresses, contacts of clients and suppliers, the company's own bank accounts, payment terms,
// shipping methods, tax rates, ports and regions, and number rules of the document sequences.
//
// Units of measure were the dictionary `unit` (dict_item rows): they move here, one measure_unit row per
// dictionary item of each company (code and name the item's value and label, its order and switch kept),
// and the dictionary rows go — cdm 010214 and the `unit` dictionary of 013801 read measure_unit from now
// on, so a product form, an import or a report that named a unit by its label names the same unit.
//
// Decimals are integers in fixed minor units as everywhere: carton sizes in mm (cm × 10), weights in
// grams (kg × 1000), tax rates × 1e4. "One default per party" (a client's default address, a client's or
// supplier's primary contact, the default bank account of a currency, the default tax rate of a kind) is
// kept by the resources' hooks (src/server/resources/master-data-hooks.ts), not by an index: the row
// marked default takes the flag from the others in the same transaction.
import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.ts';
import { index, withId, withTenantStamps } from './columns.ts';

export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  // 0105 品牌
  await withTenantStamps(withId(db.schema.createTable('brand'), dialect))
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('name_en', 'text')
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('remark', 'text')
    .execute();
  await index(db, 'brand', ['company_id', 'code'], true);
  await index(db, 'brand', ['company_id', 'name'], true);

  // 0106 计量单位: decimals = how many decimal places a quantity in this unit may have (0: whole units)
  await withTenantStamps(withId(db.schema.createTable('measure_unit'), dialect))
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('decimals', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('remark', 'text')
    .execute();
  await index(db, 'measure_unit', ['company_id', 'code'], true);
  await index(db, 'measure_unit', ['company_id', 'name'], true);
  await index(db, 'measure_unit', ['company_id', 'sort']);
  const units = await db.selectFrom('dictItem').select(['companyId', 'value', 'label', 'sort', 'enabled', 'remark'])
    .where('dictCode', '=', 'unit').orderBy('companyId').orderBy('sort').orderBy('value').execute();
  const now = new Date().toISOString();
  const seen = new Set<string>();
  for (const u of units) {
    const code = String(u.value).trim().slice(0, 20);
    const name = String(u.label).trim().slice(0, 10);
    // two items of one company with the same label (or value) become one unit
    if (!code || !name || seen.has(`${u.companyId}:c:${code}`) || seen.has(`${u.companyId}:n:${name}`)) continue;
    seen.add(`${u.companyId}:c:${code}`);
    seen.add(`${u.companyId}:n:${name}`);
    await db.insertInto('measureUnit').values({
      companyId: u.companyId, version: 1, createdAt: now, updatedAt: now, code, name, decimals: 0,
      sort: Number(u.sort ?? 0), enabled: Number(u.enabled ?? 1) ? 1 : 0, remark: u.remark ?? null,
    }).execute();
  }
  await db.deleteFrom('dictItem').where('dictCode', '=', 'unit').execute();

  // 0108 包装规格
  await withTenantStamps(withId(db.schema.createTable('packing_spec'), dialect))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('qty_per_carton', 'integer', (c) => c.notNull())
    .addColumn('carton_length', 'bigint') // mm (cm × 10)
    .addColumn('carton_width', 'bigint')
    .addColumn('carton_height', 'bigint')
    .addColumn('gross_weight', 'bigint') // g (kg × 1000)
    .addColumn('net_weight', 'bigint')
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('remark', 'text')
    .execute();
  await index(db, 'packing_spec', ['company_id', 'name'], true);

  // 0115 客户收货地址
  await withTenantStamps(withId(db.schema.createTable('client_address'), dialect))
    .addColumn('client_id', 'integer', (c) => c.notNull().references('client.id'))
    .addColumn('contact', 'text')
    .addColumn('phone', 'text')
    .addColumn('province', 'text')
    .addColumn('city', 'text')
    .addColumn('district', 'text')
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('postcode', 'text')
    .addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('remark', 'text')
    .execute();
  await index(db, 'client_address', ['company_id', 'client_id', 'address'], true);
  await index(db, 'client_address', ['company_id', 'client_id', 'is_default']);

  // 0118 联系人 (of a client or of a supplier: party_kind says which id column holds the party)
  await withTenantStamps(withId(db.schema.createTable('party_contact'), dialect))
    .addColumn('party_kind', 'text', (c) => c.notNull())
    .addColumn('client_id', 'integer', (c) => c.references('client.id'))
    .addColumn('supplier_id', 'integer', (c) => c.references('supplier.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('title', 'text')
    .addColumn('phone', 'text')
    .addColumn('mobile', 'text')
    .addColumn('email', 'text')
    .addColumn('is_primary', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('remark', 'text')
    .execute();
  // one name per party (NULLs are distinct: a supplier's contact holds no client id)
  await index(db, 'party_contact', ['company_id', 'client_id', 'name'], true);
  await index(db, 'party_contact', ['company_id', 'supplier_id', 'name'], true);
  await index(db, 'party_contact', ['company_id', 'name']);

  // 0119 公司银行账户
  await withTenantStamps(withId(db.schema.createTable('company_bank_account'), dialect))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('account_name', 'text')
    .addColumn('bank_name', 'text', (c) => c.notNull())
    .addColumn('account_no', 'text', (c) => c.notNull())
    .addColumn('currency_id', 'integer', (c) => c.notNull().references('currency.id'))
    .addColumn('swift_code', 'text')
    .addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('remark', 'text')
    .execute();
  await index(db, 'company_bank_account', ['company_id', 'name'], true);
  await index(db, 'company_bank_account', ['company_id', 'account_no'], true);
  await index(db, 'company_bank_account', ['company_id', 'currency_id', 'is_default']);

  // 0149 付款条件
  await withTenantStamps(withId(db.schema.createTable('payment_term'), dialect))
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('basis', 'text', (c) => c.notNull()) // advance | delivery | invoice | monthEnd
    .addColumn('days', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('remark', 'text')
    .execute();
  await index(db, 'payment_term', ['company_id', 'code'], true);
  await index(db, 'payment_term', ['company_id', 'name'], true);

  // 0160 运输方式
  await withTenantStamps(withId(db.schema.createTable('shipping_method'), dialect))
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('remark', 'text')
    .execute();
  await index(db, 'shipping_method', ['company_id', 'code'], true);
  await index(db, 'shipping_method', ['company_id', 'name'], true);

  // 0170 税率 (rate × 1e4: 0.13 → 1300)
  await withTenantStamps(withId(db.schema.createTable('tax_rate'), dialect))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('rate', 'bigint', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull()) // output (销项) | input (进项)
    .addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('remark', 'text')
    .execute();
  await index(db, 'tax_rate', ['company_id', 'name'], true);
  await index(db, 'tax_rate', ['company_id', 'kind', 'rate'], true);

  // 0180 港口与地区
  await withTenantStamps(withId(db.schema.createTable('port'), dialect))
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('name_en', 'text')
    .addColumn('country_code', 'text', (c) => c.notNull())
    .addColumn('country', 'text')
    .addColumn('kind', 'text', (c) => c.notNull()) // port | airport | inland | region
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('remark', 'text')
    .execute();
  await index(db, 'port', ['company_id', 'code'], true);
  await index(db, 'port', ['company_id', 'country_code']);

  // 0191 单据编号规则: one row per number series (the built-in prefix of the documents it numbers)
  await withTenantStamps(withId(db.schema.createTable('number_rule'), dialect))
    .addColumn('series', 'text', (c) => c.notNull())
    .addColumn('prefix', 'text', (c) => c.notNull())
    .addColumn('date_part', 'text', (c) => c.notNull().defaultTo('yyyymmdd')) // yyyymmdd | yymmdd | yyyymm | none
    .addColumn('serial_width', 'integer', (c) => c.notNull().defaultTo(4))
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('remark', 'text')
    .execute();
  await index(db, 'number_rule', ['company_id', 'series'], true);
}
