// What an audit entry says was done, by code, with the label every screen shows (操作记录 on detail and
// document screens, the operation history, exports). The server's audit entries are typed by these
// codes, so an action without a label cannot be written.
export const AUDIT_ACTION_LABELS = {
  create: '新增',
  update: '修改',
  remove: '删除',
  import: '导入',
  state: '状态变更',
  confirm: '确认',
  post: '过账',
  cancel: '作废',
  close: '关闭',
  ship: '发运',
  arrive: '到港',
  startUnloading: '开始拆柜',
  unload: '拆柜完成',
  repeal: '撤销',
  reopen: '重新打开',
  // the outbound floor: a task given to a warehouse worker, a delivery signed for by the client
  assign: '分派',
  sign: '签收',
  // the outbound floor: a carton sealed, a loading list loaded
  seal: '封箱',
  load: '装车',
  // the client's carrier collected the goods (提货任务)
  collect: '提货',
  // a labelling task or a lift's work done; a lift's tray called and arrived at its port
  finish: '完成',
  call: '呼叫',
  atPort: '到位',
  // a posted receipt or payment undone (its allocations reversed)
  reverse: '冲销',
  // a price or credit bound passed by someone holding the right to (sales orders)
  override: '超限放行',
  // a confirmed sales order's line changed (quantity, price, discount) with a reason
  change: '订单变更',
  // an administrator ended the sessions of one device of an account (系统工具 → 设备)
  endSessions: '结束会话',
  // a file shared by a public link (/a/{id}), and the link revoked before it expired
  share: '分享',
  revoke: '撤销分享',
} as const;

export type AuditAction = keyof typeof AUDIT_ACTION_LABELS;

export const AUDIT_ACTION_OPTIONS: { value: AuditAction; label: string }[] = Object.entries(AUDIT_ACTION_LABELS).map(([value, label]) => ({ value: value as AuditAction, label }));
