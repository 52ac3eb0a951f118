// Demo data of the basic-settings module (called by seed.ts for company demo): the company's own record,
// a company title, e-mail templates and a few customs codes.
import type { DB } from './connection.ts';

export async function seedSettings(db: DB, companyId: number): Promise<void> {
  const now = new Date().toISOString();
  const s = { companyId, version: 1, createdAt: now, updatedAt: now };
  await db.updateTable('company').set({
    nameEn: 'Demo Trading Co., Ltd.', address: '上海市浦东新区世纪大道 100 号', phone: '021-68886666',
    email: 'info@demo-trading.example', website: 'https://demo-trading.example', taxNo: '91310115MA1K000001',
  }).where('id', '=', companyId).execute();
  await db.insertInto('companyRise').values({
    ...s, name: '演示贸易有限公司', nameEn: 'Demo Trading Co., Ltd.', taxNo: '91310115MA1K000001',
    address: '上海市浦东新区世纪大道 100 号', addressEn: 'No. 100 Century Avenue, Pudong, Shanghai, China', phone: '021-68886666',
    bankName: '中国银行上海分行', bankAccount: '4367 0000 1234 5678', swiftCode: 'BKCHCNBJ300', isDefault: 1, enabled: 1,
  }).execute();
  await db.insertInto('emailTemplate').values([
    {
      ...s, code: 'orderConfirm', name: '订单确认', format: 'html', enabled: 1,
      subject: '订单确认：{orderNo}',
      body: '<p>{clientName}，您好：</p><p>您的订单 <b>{orderNo}</b> 已确认，金额 {amount}，预计 {deliveryDate} 发货。</p><p>{companyName}</p>',
    },
    {
      ...s, code: 'paymentReminder', name: '付款提醒', format: 'text', enabled: 1,
      subject: '付款提醒：发票 {invoiceNo}',
      body: '{clientName}，您好：\n\n发票 {invoiceNo} 的应付金额 {amount} 将于 {dueDate} 到期，请及时安排付款。\n\n{companyName}',
    },
  ]).execute();
  const customs: Array<[string, string, string, number, number, number]> = [
    // hsCode, name, unit, import tax, VAT, export rebate (× 1e4)
    ['8471300000', '便携式自动数据处理设备', '台', 0, 1300, 1300],
    ['8516500000', '微波炉', '台', 1000, 1300, 1300],
    ['9403609900', '其他木家具', '件', 0, 1300, 1300],
    ['6402999900', '其他橡胶或塑料制外底及鞋面的鞋靴', '双', 2400, 1300, 1300],
  ];
  await db.insertInto('customsCode').values(customs.map(([hsCode, name, unit, importTaxRate, vatRate, exportRebateRate]) => ({
    ...s, hsCode, name, unit, importTaxRate, vatRate, exportRebateRate, enabled: 1,
  }))).execute();
}
