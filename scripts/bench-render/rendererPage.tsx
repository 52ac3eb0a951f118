// bench:render — our renderer: the list drawn by ListView from a schema.
import { ListView } from '../../src/client/renderer/list/ListView';
import type { ListPart } from '../../src/client/renderer/types';
import { STATUS_OPTIONS } from './data';
import { n, SCROLL_Y } from './params';

export const part: ListPart = {
  name: 'bench',
  api: { list: 'cdm:012101' },
  pageSize: n,
  pageSizeOptions: [n],
  scrollY: SCROLL_Y,
  columns: [
    { field: 'code', title: '商品编码', width: 140, sortable: true },
    { field: 'name', title: '商品名称', width: 180 },
    { field: 'status', title: '状态', type: 'enum', options: STATUS_OPTIONS, width: 100 },
    { field: 'enabled', title: '启用', type: 'boolean', width: 80 },
    { field: 'qty', title: '数量', type: 'number', width: 100 },
    { field: 'amount', title: '金额', type: 'money', currencyField: 'currencyId', width: 130 },
    { field: 'day', title: '日期', type: 'date', width: 110 },
    { field: 'createdAt', title: '创建时间', type: 'datetime', width: 170 },
  ],
};

export default function rendererPage() {
  return <ListView part={part} listName="bench" />;
}

