// 贴标任务 (labelling task) on the document engine (issue 14; oms 022011–022016): products of a warehouse to be
// labelled, how many labels, by whom and by when; the labels are printed with the product label view (024211,
// Code 128 + QR). open (待贴标) → done (已完成, with the count actually labelled); cancelled from open.
// One product per task (the screen is one list: a product and its count are a row a labeller works through);
// no stock moves.
import { validationError } from '../../http/errors.ts';
import { defineDocument } from '../definition.ts';

export const markerTask = defineDocument({
  type: 'markerTask',
  title: '贴标任务',
  prefix: 'TB',
  table: 'markerTask',
  managed: true,
  indexes: [['productId']],
  statuses: { open: { label: '待贴标', color: 'blue' }, done: { label: '已完成', color: 'green' }, cancelled: { label: '已作废', color: 'red' } },
  initial: 'open',
  editable: ['open'],
  rights: { read: 'entrepot.markerTask', edit: 'entrepot.markerTask.edit' },
  header: {
    warehouseId: { type: 'reference', resource: 'warehouse', title: '仓库', required: true },
    productId: { type: 'reference', resource: 'product', title: '商品', required: true },
    qty: { type: 'integer', title: '贴标数量', required: true, min: 1, max: 1_000_000 },
    labeledQty: { type: 'integer', title: '已贴数量', readonly: true },
    assigneeId: { type: 'reference', resource: 'staff', title: '贴标员' },
    dueDate: { type: 'date', title: '要求完成日期' },
    remark: { type: 'string', title: '备注', maxLength: 500 },
  },
  lines: { table: 'markerTaskLine', parent: 'taskId', min: 0, max: 1, fields: { remark: { type: 'string', title: '备注', maxLength: 200 } } },
  hooks: {
    async validate({ header }) {
      header.labeledQty = null;
    },
  },
  transitions: {
    finish: {
      label: '贴标完成', from: ['open'], to: 'done', stamp: 'done', right: 'entrepot.markerTask.edit',
      input: { properties: { labeledQty: { type: 'integer', minimum: 0, maximum: 1_000_000, title: '已贴数量' } } },
      async run({ tenant, doc, input, audit }) {
        const labeled = input.labeledQty == null ? Number(doc.qty) : Number(input.labeledQty);
        if (labeled > Number(doc.qty)) throw validationError([{ field: 'labeledQty', message: `已贴数量 ${labeled} 超过贴标数量 ${Number(doc.qty)}` }]);
        await tenant.update('markerTask').set({ labeledQty: labeled }).where('id', '=', Number(doc.id)).execute();
        audit.push({ field: 'labeledQty', title: '已贴数量', from: null, to: String(labeled) });
        return { labeledQty: labeled };
      },
    },
    cancel: { label: '作废', from: ['open'], to: 'cancelled', stamp: 'cancelled', danger: true, right: 'entrepot.markerTask.edit', confirm: '确定作废贴标任务“{docNo}”？' },
  },
  audit: ['warehouseId', 'productId', 'qty', 'assigneeId', 'dueDate', 'remark'],
  listFilters: ['warehouseId', 'productId', 'assigneeId'],
  dateField: 'createdAt',
  route: '/entrepot/markerTask',
});
