// 智能升降柜任务 (vertical-lift task) on the document engine (issue 14; oms 022021–022028): the queue of trays
// an automated vertical lift is to bring to its port, each with the line to pick from it or put into it.
// queued (排队中) → called (已呼叫: the driver was asked for the tray) → arrived (已到位) → done (已完成);
// cancelled while queued or called. Each step goes through the lift's driver (domain/floor/elevator.ts; today
// the manual one: the operator sets the state) and, like every engine transition, is one conditional
// UPDATE on the status — two operators pressing 呼叫 at once call the tray once. The queue is the list in
// priority order (then oldest first); one tray per lift is at the port at a time (a second call is refused
// while another tray of that lift is called or arrived). No stock moves here: the goods move by the
// picking order or putaway the work belongs to.
import { bizError, validationError } from '../../http/errors.ts';
import type { Row } from '../../domain/procurement/common.ts';
import { elevatorDriver, type TrayState } from '../../domain/floor/elevator.ts';
import { defineDocument, type TransitionRun } from '../definition.ts';
import { TypedTenant } from '../../db/typed.ts';

const STATE: Record<TrayState, string> = { queued: '排队中', called: '已呼叫', arrived: '已到位', done: '已完成', cancelled: '已作废' };

/** Runs the driver's step; refused when the driver reports another state than the transition's. */
async function drive(t: TransitionRun, step: 'callTray' | 'arrived' | 'release'): Promise<Row> {
  const driver = elevatorDriver();
  const call = { elevatorCode: String(t.doc.elevatorCode), trayNo: String(t.doc.trayNo), taskNo: String(t.doc.docNo) };
  const state = await driver[step](call);
  const want = t.def.transitions[t.name]!.to as TrayState;
  if (state !== want) throw validationError([{ field: 'status', message: `升降柜 ${call.elevatorCode} 未完成操作（设备报告：${STATE[state] ?? state}）` }]);
  return { driver: driver.name, deviceState: state };
}

export const elevatorTask = defineDocument({
  type: 'elevatorTask',
  title: '智能升降柜任务',
  prefix: 'ZN',
  table: 'elevatorTask',
  managed: true,
  indexes: [['elevatorCode']],
  statuses: { queued: { label: STATE.queued, color: 'default' }, called: { label: STATE.called, color: 'orange' }, arrived: { label: STATE.arrived, color: 'blue' }, done: { label: STATE.done, color: 'green' }, cancelled: { label: STATE.cancelled, color: 'red' } },
  initial: 'queued',
  editable: ['queued'],
  rights: { read: 'entrepot.intelligentElevator', edit: 'entrepot.intelligentElevator.edit' },
  header: {
    warehouseId: { type: 'reference', resource: 'warehouse', title: '仓库', required: true },
    elevatorCode: { type: 'string', title: '升降柜', required: true, maxLength: 30 },
    trayNo: { type: 'string', title: '托盘号', required: true, maxLength: 30 },
    mode: { type: 'enum', title: '作业', required: true, values: [{ value: 'pick', label: '拣货' }, { value: 'put', label: '存放' }], default: 'pick' },
    productId: { type: 'reference', resource: 'product', title: '商品', required: true },
    qty: { type: 'integer', title: '数量', required: true, min: 1, max: 1_000_000 },
    priority: { type: 'integer', title: '优先级', min: 1, max: 9, default: 5, description: '1 最先' },
    sourceNo: { type: 'string', title: '来源单号', maxLength: 30 },
    remark: { type: 'string', title: '备注', maxLength: 500 },
  },
  lines: { table: 'elevatorTaskLine', parent: 'taskId', min: 0, max: 1, fields: { remark: { type: 'string', title: '备注', maxLength: 200 } } },
  hooks: {
    async validate({ header }) {
      header.elevatorCode = String(header.elevatorCode).trim().toUpperCase();
      header.trayNo = String(header.trayNo).trim().toUpperCase();
      if (!header.elevatorCode || !header.trayNo) throw validationError([{ field: header.elevatorCode ? 'trayNo' : 'elevatorCode', message: '请填写升降柜与托盘号' }]);
      header.priority ??= 5;
    },
  },
  transitions: {
    call: {
      label: '呼叫', from: ['queued'], to: 'called', stamp: 'called', right: 'entrepot.intelligentElevator.edit',
      async run(t) {
        // one tray of a lift at its port at a time
        const busy = await TypedTenant.of(t.tenant).select('elevatorTask').select(['docNo', 'trayNo']).where('elevatorCode', '=', String(t.doc.elevatorCode)).where('status', 'in', ['called', 'arrived'])
          .where('id', '<>', Number(t.doc.id)).where('trayNo', '<>', String(t.doc.trayNo)).limit(1).executeTakeFirst();
        if (busy) throw bizError('ELEVATOR_BUSY_4278', { elevator: String(t.doc.elevatorCode), tray: String(busy.trayNo), docNo: String(busy.docNo) });
        return drive(t, 'callTray');
      },
    },
    atPort: { label: '已到位', from: ['called'], to: 'arrived', stamp: 'arrived', right: 'entrepot.intelligentElevator.edit', run: (t) => drive(t, 'arrived') },
    finish: { label: '作业完成', from: ['arrived'], to: 'done', stamp: 'done', right: 'entrepot.intelligentElevator.edit', run: (t) => drive(t, 'release') },
    cancel: { label: '作废', from: ['queued', 'called'], to: 'cancelled', stamp: 'cancelled', danger: true, right: 'entrepot.intelligentElevator.edit', confirm: '确定作废升降柜任务“{docNo}”？' },
  },
  audit: ['warehouseId', 'elevatorCode', 'trayNo', 'mode', 'productId', 'qty', 'priority', 'sourceNo'],
  listFilters: ['warehouseId', 'elevatorCode', 'productId', 'mode'],
  docNoAlso: ['trayNo', 'sourceNo'],
  dateField: 'createdAt',
  route: '/entrepot/intelligentElevator',
});
