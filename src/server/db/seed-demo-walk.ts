// The demo company's walkable data (README "Demo logins"): what a new user needs to walk every built
// flow end to end — a warehouse with zones and locations, products with units, categories and default
// locations, two suppliers, and documents in each state (purchase orders draft / confirmed / partly
// received / received, an inbound plan with its open task, receiving notes draft and posted, putaways
// draft and posted, purchase invoices draft and posted). It is written through the server's own
// endpoints as the demo admin, so every number, stock balance, ledger row and audit entry is what the
// same clicks would have made — nothing a user could not have made themselves.
//
// `npm start` (and the end-to-end suite, which starts the same server) seeds it into a new database;
// integration tests keep the bare demo company (seed.ts) so that they count only their own rows.

import type { FastifyInstance } from 'fastify';
import { DEMO_PASSWORD } from './seed.ts';
import { seedDemoSales } from './seed-demo-sales.ts';
import { seedDemoFinance } from './seed-demo-finance.ts';

type Row = Record<string, any>;
/** An endpoint's answer (`data`): a record, a page of them (`list`) or a document with its `lines`. */
type Answer = Row & { list: Row[]; lines: Row[] };

export const DEMO_LOCATIONS = [
  { lcCode: 'C-01-01', zone: 'C', row: '01', level: '01', type: 'storage' },
  { lcCode: 'C-01-02', zone: 'C', row: '01', level: '02', type: 'storage' },
  { lcCode: 'C-02-01', zone: 'C', row: '02', level: '01', type: 'storage' },
  { lcCode: 'D-01-01', zone: 'D', row: '01', level: '01', type: 'storage' },
  { lcCode: 'D-01-02', zone: 'D', row: '01', level: '02', type: 'storage' },
  { lcCode: 'R-01-01', zone: 'R', row: '01', level: '01', type: 'receiving' },
] as const;

export const DEMO_PRODUCTS = [
  { code: 'DM-1001', name: '不锈钢六角螺栓 M8×30', specification: 'M8×30 304', unitSmall: '个', unitMid: '盒', unitBig: '箱', midQty: 50, bigQty: 1000, price: '0.35', category: 'FAST', location: 'C-01-01' },
  { code: 'DM-1002', name: '不锈钢六角螺母 M8', specification: 'M8 304', unitSmall: '个', unitMid: '盒', unitBig: '箱', midQty: 100, bigQty: 2000, price: '0.12', category: 'FAST', location: 'C-01-02' },
  { code: 'DM-1003', name: '平垫圈 M8', specification: 'M8 镀锌', unitSmall: '个', unitBig: '箱', midQty: 1, bigQty: 5000, price: '0.03', category: 'FAST', location: 'C-02-01' },
  { code: 'DM-2001', name: '真空保温杯 400ml', specification: '400ml 钛灰', unitSmall: '个', unitMid: '盒', unitBig: '箱', midQty: 6, bigQty: 24, price: '12.50', category: 'CUP', location: 'D-01-01' },
  { code: 'DM-2002', name: '骨瓷咖啡杯 300ml', specification: '300ml 米白', unitSmall: '个', unitBig: '箱', midQty: 1, bigQty: 12, price: '8.80', category: 'CUP', location: 'D-01-02' },
  // sold by the piece only: no big or mid pack (a line of it has one quantity box)
  { code: 'DM-2003', name: '硅胶杯盖', specification: '直径 8cm', unitSmall: '个', midQty: 1, bigQty: 1, price: '0.35', category: 'CUP', location: 'D-01-02' },
] as const;

export async function seedDemoWalk(app: FastifyInstance): Promise<void> {
  const login = await app.inject({ method: 'POST', url: '/auth/public/990103', payload: { type: 0, companyCode: 'demo', userName: 'admin', password: DEMO_PASSWORD } });
  const token = String((login.json() as { data?: { accessToken?: string } }).data?.accessToken ?? '');
  if (!token) throw new Error(`演示数据：管理员登录失败 ${login.body}`);
  const call = async (family: 'cdm' | 'oms', code: string, body: Row): Promise<Answer> => {
    const res = await app.inject({ method: 'POST', url: `/${family}/api/${code}`, headers: { token }, payload: body });
    const env = res.json() as { code: string; msg: string; data: Answer };
    if (env.code !== '200') throw new Error(`演示数据：${family}:${code} 失败：${env.code} ${env.msg}`);
    return env.data;
  };

  const warehouses = (await call('cdm', '011001', { page: 1, pageSize: 10 })).list;
  const warehouseId = Number(warehouses.find((w) => w.code === 'WH01')!.id);
  const locationIds: Record<string, number> = {};
  for (const l of DEMO_LOCATIONS) locationIds[l.lcCode] = Number((await call('cdm', '011103', { warehouseId, ...l })).id);

  const categoryIds: Record<string, number> = {};
  categoryIds.FAST = Number((await call('cdm', '010403', { code: 'FAST', name: '紧固件' })).id);
  categoryIds.CUP = Number((await call('cdm', '010403', { code: 'CUP', name: '杯具' })).id);

  const productIds: number[] = [];
  for (const p of DEMO_PRODUCTS) {
    const { category, location, ...fields } = p;
    const id = Number((await call('cdm', '010203', { ...fields, categoryId: categoryIds[category] })).id);
    productIds.push(id);
    await call('cdm', '011203', { productId: id, warehouseId, locationId: locationIds[location] });
  }
  const [bolt, nut, washer, cup, mug] = productIds as [number, number, number, number, number, number];

  const suppliers = (await call('cdm', '011601', { page: 1, pageSize: 10 })).list;
  const hardware = Number(suppliers.find((s) => s.code === 'S001')!.id);
  const cups = Number((await call('cdm', '011603', { code: 'S002', name: '温州永诚杯具有限公司', contact: '周女士', phone: '0571-85551234', paymentDays: 45, enabled: true })).id);

  const order = (supplierId: number, lines: Array<[number, number, string]>, remark: string) =>
    call('oms', '020203', { supplierId, warehouseId, expectedDate: '2026-12-15', remark, lines: lines.map(([productId, qty, price]) => ({ productId, qty, price })) });
  const confirm = (o: Row) => call('oms', '020205', { id: o.id, version: o.version });
  const linesOf = async (o: Row) => (await call('oms', '020202', { id: o.id })).lines;

  // 草稿: an order still being typed.
  await order(hardware, [[bolt, 2000, '0.33'], [nut, 2000, '0.11']], '演示：草稿');
  // 已确认: ready to be received (receiving note or inbound plan).
  await confirm(await order(cups, [[cup, 48, '12.00'], [mug, 24, '8.50']], '演示：已确认，待收货'));
  // 已确认 with a confirmed inbound plan: its inbound task waits for receiving.
  const planned = await order(hardware, [[washer, 10000, '0.03']], '演示：已做入库计划');
  await confirm(planned);
  const plannedLines = await linesOf(planned);
  const plan = await call('oms', '021203', { orderId: planned.id, expectedDate: '2026-12-10', lines: plannedLines.map((l) => ({ orderLineId: l.id, qty: l.qty })) });
  await call('oms', '021204', { id: plan.id, version: plan.version });
  // 部分收货: one line short; a posted receiving note, put away, invoiced; and a draft note for the rest.
  const partly = await order(hardware, [[bolt, 1000, '0.33'], [nut, 2000, '0.11']], '演示：部分收货');
  await confirm(partly);
  const [pb, pn] = await linesOf(partly);
  const received = await call('oms', '021403', { orderId: partly.id, post: true, lines: [{ orderLineId: pb!.id, countedQty: 1000 }, { orderLineId: pn!.id, countedQty: 1500 }] });
  await call('oms', '021503', { receivingNoteId: received.id, post: true });
  const note = await call('oms', '021402', { id: received.id });
  await call('oms', '020303', { supplierId: hardware, invoiceNo: 'FP-DEMO-0001', post: true, lines: note.lines.map((l) => ({ receivingLineId: l.id, qty: l.qty ?? l.countedQty })) });
  await call('oms', '021403', { orderId: partly.id, lines: [{ orderLineId: pn!.id, countedQty: 300 }] });
  // 已收货: fully received and posted; its putaway waits (draft) and its invoice is a draft.
  const full = await order(cups, [[cup, 24, '12.00']], '演示：已收货，待上架');
  await confirm(full);
  const [fl] = await linesOf(full);
  const fullNote = await call('oms', '021403', { orderId: full.id, post: true, lines: [{ orderLineId: fl!.id, countedQty: 24 }] });
  await call('oms', '021503', { receivingNoteId: fullNote.id });
  const fullLines = (await call('oms', '021402', { id: fullNote.id })).lines;
  await call('oms', '020303', { supplierId: cups, invoiceNo: 'FP-DEMO-0002', lines: fullLines.map((l) => ({ receivingLineId: l.id, qty: l.qty ?? l.countedQty })) });

  await seedDemoSales(call, warehouseId, Object.fromEntries(DEMO_PRODUCTS.map((p, i) => [p.code, productIds[i]!])));
  await seedDemoFinance(call);
}
