// Labelling tasks (贴标任务) and the vertical lift's queue (智能升降柜任务) over HTTP, on SQLite and PostgreSQL:
// a labelling task is made, its product label printed (Code 128 + QR), finished with the count labelled
// (never more than asked); lift tasks queue by priority, go called → at the port → done through the lift's
// driver (the manual one: the operator says so; a fake device driver that does not answer is refused and
// changes nothing), one tray of a lift at its port at a time; two operators calling one tray: one call.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { manualDriver, setElevatorDriver } from '../../src/server/domain/floor/elevator.ts';
import { ok, startTestServer, type TestServer } from './helpers.ts';

const MT = { list: '022011', get: '022012', save: '022013', finish: '022014', cancel: '022015' };
const ZN = { list: '022021', get: '022022', save: '022023', call: '022024', atPort: '022025', finish: '022026', cancel: '022027' };

let t: TestServer;
let admin: string;
let wh: number;
let productId: number;

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.login();
  wh = (await ok(t.call('cdm', '011003', { code: 'TBW', name: '贴标仓' }, admin))).id;
  productId = (await ok(t.call('cdm', '010203', { code: 'TB001', name: '贴标商品', unitSmall: '个', barcode: '6900000000017' }, admin))).id;
});
afterAll(async () => t?.close());
afterEach(() => setElevatorDriver(manualDriver));

describe('labelling tasks', () => {
  it('made, printed, finished with the count labelled', async () => {
    expect((await ok(t.call('oms', '022002', { keyword: '6900000000017' }, admin))).list[0]).toMatchObject({ id: productId, code: 'TB001' });
    const bad = await t.call('oms', MT.save, { warehouseId: wh, productId, qty: 0 }, admin);
    expect(bad.code).toBe('COMMON_VALIDATION_4000');
    const mt = await ok(t.call('oms', MT.save, { warehouseId: wh, productId, qty: 120, dueDate: '2026-11-30' }, admin));
    expect(await ok(t.call('oms', MT.get, { id: mt.id }, admin))).toMatchObject({ status: 'open', statusText: '待贴标', productCode: 'TB001', qty: 120, labeledQty: null });
    const label = (await ok(t.call('oms', '024211', { kind: 'product', ids: [productId] }, admin))).labels[0];
    expect(label).toMatchObject({ code: 'TB001', barcode: '6900000000017' });
    expect(label.qr).toMatch(/^P\d+-\d+\./);
    expect((await t.call('oms', MT.finish, { id: mt.id, labeledQty: 121 }, admin)).msg).toContain('已贴数量 121 超过贴标数量 120');
    expect((await ok(t.call('oms', MT.get, { id: mt.id }, admin))).status).toBe('open');
    expect(await ok(t.call('oms', MT.finish, { id: mt.id, labeledQty: 118 }, admin))).toMatchObject({ status: 'done', labeledQty: 118 });
    const list = await ok(t.call('oms', MT.list, { page: 1, pageSize: 10, status: 'done' }, admin));
    expect(list.list.map((r: any) => [r.docNo, r.labeledQty, r.statusText])).toEqual([[mt.docNo, 118, '已完成']]);
    expect((await t.call('oms', MT.cancel, { id: mt.id }, admin)).code).toBe('DOCUMENT_STATUS_4131');
  });
});

describe('vertical lift tasks', () => {
  const task = async (tray: string, priority?: number) => ok(t.call('oms', ZN.save, { warehouseId: wh, elevatorCode: 'vl-1', trayNo: tray, mode: 'pick', productId, qty: 3, priority }, admin));

  it('queue by priority; called → at the port → done; one tray of a lift at its port at a time', async () => {
    const a = await task('t01');
    const b = await task('T02', 1);
    const queue = await ok(t.call('oms', ZN.list, { page: 1, pageSize: 10, status: 'queued', elevatorCode: 'VL-1' }, admin));
    expect(queue.list.map((r: any) => [r.trayNo, r.priority]).sort((x: any, y: any) => x[1] - y[1])).toEqual([['T02', 1], ['T01', 5]]);
    expect(await ok(t.call('oms', ZN.call, { id: b.id }, admin))).toMatchObject({ status: 'called', driver: 'manual', deviceState: 'called' });
    // the lift's port holds T02: T01 waits
    const busy = await t.call('oms', ZN.call, { id: a.id }, admin);
    expect(busy.code).toBe('ELEVATOR_BUSY_4278');
    expect(busy.msg).toBe(`升降柜 VL-1 的托盘 T02 正在口位（任务 ${b.docNo}），请先完成该托盘的作业再呼叫下一个`);
    expect((await t.call('oms', ZN.finish, { id: b.id }, admin)).code).toBe('DOCUMENT_STATUS_4131');
    expect(await ok(t.call('oms', ZN.atPort, { id: b.id }, admin))).toMatchObject({ status: 'arrived', statusText: '已到位' });
    expect(await ok(t.call('oms', ZN.finish, { id: b.id }, admin))).toMatchObject({ status: 'done' });
    await ok(t.call('oms', ZN.call, { id: a.id }, admin));
    await ok(t.call('oms', ZN.cancel, { id: a.id }, admin));
  });

  it('a device driver that does not bring the tray: refused, nothing changed', async () => {
    const calls: string[] = [];
    setElevatorDriver({ ...manualDriver, name: 'fake', callTray: async (c) => { calls.push(c.trayNo); return 'queued'; } });
    const z = await task('T09');
    const r = await t.call('oms', ZN.call, { id: z.id }, admin);
    expect(r.msg).toContain('升降柜 VL-1 未完成操作（设备报告：排队中）');
    expect(calls).toEqual(['T09']);
    expect((await ok(t.call('oms', ZN.get, { id: z.id }, admin))).status).toBe('queued');
  });

  it('two operators calling one tray: one call goes through', async () => {
    const z = await task('T10');
    const [r1, r2] = await Promise.all([t.call('oms', ZN.call, { id: z.id }, admin), t.call('oms', ZN.call, { id: z.id }, admin)]);
    expect([r1.code, r2.code].sort()).toEqual(['200', 'DOCUMENT_STATUS_4131']);
  });
});
