// What the client learns about its session (990104): rights, company, account, warehouse, currencies,
// personnel and the company's flags — everything the shell needs after login or reload.
import type { CallContext } from '../catalog/context.ts';
import { TypedTenant, typed } from '../db/typed.ts';
import { heldRights } from './caller.ts';

const parseList = (raw: unknown): string[] => {
  try { return JSON.parse(String(raw ?? '[]')) as string[]; } catch { return []; }
};

export async function sessionObject(ctx: CallContext, allRightCodes: () => string[]) {
  const caller = ctx.caller!;
  const t = TypedTenant.of(ctx.tenant);
  const company = await typed(ctx.db).selectFrom('company').selectAll().where('id', '=', caller.company.id).executeTakeFirstOrThrow();
  const account = await t.select('account').selectAll().where('id', '=', caller.accountId).executeTakeFirstOrThrow();
  const staff = account.staffId ? await t.select('staff').select(['name']).where('id', '=', account.staffId).executeTakeFirst() : undefined;
  const warehouse = account.warehouseId ? await t.select('warehouse').select(['id', 'code', 'name']).where('id', '=', account.warehouseId).executeTakeFirst() : undefined;
  const currencies = await t.select('currency').select(['id', 'code', 'currencyName', 'currencyCharacter', 'isBase']).where('enabled', '=', 1).orderBy('id').execute();
  const base = currencies.find((c) => c.id === company.currencyId) ?? currencies[0];
  const personnel = await t.select('staff').select(['id', 'name', 'code', 'departmentId']).where('enabled', '=', 1).orderBy('code').execute();
  const currencyList = currencies.map((c) => ({ id: c.id, code: c.code, currencyName: c.currencyName, currencyCharacter: c.currencyCharacter, isBase: !!c.isBase }));
  return {
    functionRights: heldRights(caller, allRightCodes),
    companyName: company.name,
    companyCode: company.code,
    companyId: company.id,
    employeeName: staff?.name ?? account.userName,
    defaultLanguage: company.defaultLanguage,
    timeZone: Number(company.timeZone),
    userName: account.userName,
    accountId: account.id,
    warehouseCode: warehouse?.code ?? null,
    warehouseName: warehouse?.name ?? null,
    warehouseId: warehouse?.id ?? null,
    purchasePriceId: account.purchasePriceId ?? null,
    salePriceId: account.salePriceId ?? null,
    currencyList,
    currencyMap: Object.fromEntries(currencyList.map((c) => [c.id, c])),
    currencyId: base?.id ?? null,
    currencyCharacter: base?.currencyCharacter ?? '',
    receMultiple: Number(company.receMultiple),
    addRooType: Number(company.addRooType),
    limitMultiple: Number(company.limitMultiple),
    ceilingMultiple: Number(company.ceilingMultiple),
    containerType: parseList(company.containerTypes),
    personnel: personnel.map((p) => ({ id: p.id, name: p.name, code: p.code, departmentId: p.departmentId })),
    flags: caller.company.flags,
  };
}
