// Demo rows of the data-management families of cdm 0105 … 0191 (called by seed.ts for company demo, after
// its client C001 and supplier S001 exist), so a new user finds each of those lists filled: brands,
// packaging specs, C001's delivery addresses, contacts of C001 and S001, the company's bank accounts,
// payment terms, shipping methods, tax rates, ports and two number rules. (Units of measure are seeded for
// every company by seed.ts.) The number rules repeat the built-in rule of their series, so the demo
// company's document numbers stay what the tests and the README show until someone changes a rule.
import type { DB } from './connection.ts';

export async function seedMasterFamilies(db: DB, companyId: number): Promise<void> {
  const now = new Date().toISOString();
  const s = { companyId, version: 1, createdAt: now, updatedAt: now };
  const idOf = async (table: string, code: string) =>
    Number((await db.selectFrom(table).select('id').where('companyId', '=', companyId).where('code', '=', code).executeTakeFirstOrThrow()).id);

  await db.insertInto('brand').values([
    { ...s, code: 'HD', name: '华东五金', nameEn: 'Huadong Hardware', enabled: 1, remark: '紧固件自有品牌' },
    { ...s, code: 'JY', name: '金鹰', nameEn: 'Golden Eagle', enabled: 1 },
    { ...s, code: 'OR', name: '欧瑞', nameEn: 'Aurora', enabled: 1, remark: '杯具代理品牌' },
    { ...s, code: 'LX', name: '利信', nameEn: 'Lixin', enabled: 0, remark: '已停止合作' },
  ]).execute();

  // sizes in mm (cm × 10), weights in g (kg × 1000)
  await db.insertInto('packingSpec').values([
    { ...s, name: '紧固件标准箱 1000 个', qtyPerCarton: 1000, cartonLength: 400, cartonWidth: 300, cartonHeight: 250, grossWeight: 12_500, netWeight: 12_000, enabled: 1 },
    { ...s, name: '保温杯 24 只装', qtyPerCarton: 24, cartonLength: 450, cartonWidth: 320, cartonHeight: 280, grossWeight: 9_600, netWeight: 8_400, enabled: 1 },
    { ...s, name: '咖啡杯 12 只装', qtyPerCarton: 12, cartonLength: 360, cartonWidth: 270, cartonHeight: 200, grossWeight: 4_200, netWeight: 3_600, enabled: 1, remark: '内衬珍珠棉' },
  ]).execute();

  const c001 = await idOf('client', 'C001');
  await db.insertInto('clientAddress').values([
    { ...s, clientId: c001, contact: '李小姐', phone: '0571-86668888', province: '浙江省', city: '杭州市', district: '上城区', address: '解放路 188 号百货大楼仓库', postcode: '310009', isDefault: 1 },
    { ...s, clientId: c001, contact: '王先生', phone: '0571-85556666', province: '浙江省', city: '杭州市', district: '萧山区', address: '经济技术开发区建设一路 66 号 3 号库', isDefault: 0, remark: '大件货物送此处' },
  ]).execute();

  const s001 = await idOf('supplier', 'S001');
  await db.insertInto('partyContact').values([
    { ...s, partyKind: 'client', clientId: c001, name: '李小姐', title: '采购经理', phone: '0571-86668888', mobile: '13805710001', email: 'li@hzbh.example', isPrimary: 1 },
    { ...s, partyKind: 'client', clientId: c001, name: '赵会计', title: '财务', phone: '0571-86668890', email: 'finance@hzbh.example', isPrimary: 0, remark: '对账、开票联系' },
    { ...s, partyKind: 'supplier', supplierId: s001, name: '陈经理', title: '销售经理', phone: '0574-88886666', mobile: '13905740002', email: 'chen@hdwj.example', isPrimary: 1 },
  ]).execute();

  const cny = await idOf('currency', 'CNY');
  const usd = await idOf('currency', 'USD');
  await db.insertInto('companyBankAccount').values([
    { ...s, name: '中行基本户', accountName: '演示贸易有限公司', bankName: '中国银行上海分行', accountNo: '4367 0000 1234 5678', currencyId: cny, swiftCode: 'BKCHCNBJ300', isDefault: 1, enabled: 1 },
    { ...s, name: '招行一般户', accountName: '演示贸易有限公司', bankName: '招商银行上海浦东支行', accountNo: '1219 0888 0010 666', currencyId: cny, isDefault: 0, enabled: 1 },
    { ...s, name: '中行美元户', accountName: 'Demo Trading Co., Ltd.', bankName: '中国银行上海分行', accountNo: '4367 0000 1234 9999', currencyId: usd, swiftCode: 'BKCHCNBJ300', isDefault: 1, enabled: 1, remark: '外币收汇' },
  ]).execute();

  await db.insertInto('paymentTerm').values([
    { ...s, code: 'PREPAY', name: '款到发货', basis: 'advance', days: 0, enabled: 1 },
    { ...s, code: 'NET30', name: '发票后 30 天', basis: 'invoice', days: 30, enabled: 1 },
    { ...s, code: 'M30', name: '月结 30 天', basis: 'monthEnd', days: 30, enabled: 1 },
    { ...s, code: 'D7', name: '发货后 7 天', basis: 'delivery', days: 7, enabled: 1 },
  ]).execute();

  await db.insertInto('shippingMethod').values([
    { ...s, code: 'TRUCK', name: '汽车运输', sort: 1, enabled: 1 },
    { ...s, code: 'FCL', name: '海运整柜', sort: 2, enabled: 1 },
    { ...s, code: 'LCL', name: '海运拼箱', sort: 3, enabled: 1 },
    { ...s, code: 'AIR', name: '空运', sort: 4, enabled: 1 },
    { ...s, code: 'EXPRESS', name: '快递', sort: 5, enabled: 1 },
    { ...s, code: 'PICKUP', name: '客户自提', sort: 6, enabled: 1 },
  ]).execute();

  // rates × 1e4
  await db.insertInto('taxRate').values([
    { ...s, name: '增值税 13%（销项）', rate: 1300, kind: 'output', isDefault: 1, enabled: 1 },
    { ...s, name: '增值税 9%（销项）', rate: 900, kind: 'output', isDefault: 0, enabled: 1 },
    { ...s, name: '增值税 13%（进项）', rate: 1300, kind: 'input', isDefault: 1, enabled: 1 },
    { ...s, name: '小规模 3%（进项）', rate: 300, kind: 'input', isDefault: 0, enabled: 1 },
    { ...s, name: '出口零税率', rate: 0, kind: 'output', isDefault: 0, enabled: 1 },
  ]).execute();

  await db.insertInto('port').values([
    { ...s, code: 'CNSHA', name: '上海港', nameEn: 'Shanghai', countryCode: 'CN', country: '中国', kind: 'port', enabled: 1 },
    { ...s, code: 'CNNGB', name: '宁波港', nameEn: 'Ningbo', countryCode: 'CN', country: '中国', kind: 'port', enabled: 1 },
    { ...s, code: 'CNPVG', name: '上海浦东国际机场', nameEn: 'Shanghai Pudong International Airport', countryCode: 'CN', country: '中国', kind: 'airport', enabled: 1 },
    { ...s, code: 'USLAX', name: '洛杉矶', nameEn: 'Los Angeles', countryCode: 'US', country: '美国', kind: 'port', enabled: 1 },
    { ...s, code: 'DEHAM', name: '汉堡', nameEn: 'Hamburg', countryCode: 'DE', country: '德国', kind: 'port', enabled: 1 },
    { ...s, code: 'CNYW', name: '义乌', nameEn: 'Yiwu', countryCode: 'CN', country: '中国', kind: 'inland', enabled: 1, remark: '小商品集散地' },
  ]).execute();

  await db.insertInto('numberRule').values([
    { ...s, series: 'SO', prefix: 'SO', datePart: 'yyyymmdd', serialWidth: 4, enabled: 1, remark: '与内置规则相同，可在此修改' },
    { ...s, series: 'CG', prefix: 'CG', datePart: 'yyyymmdd', serialWidth: 4, enabled: 1, remark: '与内置规则相同，可在此修改' },
  ]).execute();
}
