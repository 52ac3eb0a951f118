// list: a list in a modal or drawer, bound to the row it was opened from — the accounts holding a
// role, the stock of a product. `bind` maps filter fields to row fields ({"roleId": "id"} sends
// filters.roleId = row.id); `params` is a body template for codes that take the record at the top
// level ({"id": "{id}"}). The inner list is a full ListView (filters, export, its own actions, column
// preferences under list.name, default `<list code>@<action title>`).
import { UnorderedListOutlined } from '@ant-design/icons';
import { Drawer, Modal } from 'antd';
import { useMemo, useState } from 'react';
import { readPath } from '../../../core/conditions';
import { ListView } from '../list/ListView';
import { fillBody, fillText } from '../template';
import type { ListAction } from '../types';
import { ActionButton } from './ActionButton';
import type { ActionDef, ActionProps, Row } from './types';

export function boundFilters(bind: Record<string, string> | undefined, row: Row | undefined): Record<string, unknown> | undefined {
  if (!bind) return undefined;
  const out: Record<string, unknown> = {};
  for (const [filterField, rowField] of Object.entries(bind)) out[filterField] = readPath(row, rowField);
  return out;
}

function ListActionView({ action, record, inline, scope }: ActionProps) {
  const a = action as ListAction;
  const [open, setOpen] = useState(false);
  const fixedFilters = useMemo(() => boundFilters(a.bind, record), [a.bind, record]);
  const fixedParams = useMemo(() => (a.params ? (fillBody(a.params, record) as Record<string, unknown>) : undefined), [a.params, record]);
  const heading = typeof a.heading === 'string' ? fillText(a.heading, record) : a.title;
  const close = () => {
    setOpen(false);
    // What the inner list changed may change what the outer one shows (e.g. its dynamic columns).
    if (a.refreshOnClose) scope.refresh();
  };
  const body = open && a.list ? (
    <ListView part={a.list} listName={a.list.name ?? `${a.list.api.list}@${a.title}`} fixedFilters={fixedFilters} fixedParams={fixedParams} />
  ) : null;
  return (
    <>
      <ActionButton action={action} inline={inline} record={record} icon={<UnorderedListOutlined />} onRun={() => setOpen(true)} />
      {open &&
        (a.mode === 'drawer' ? (
          <Drawer open title={heading} width={a.width ?? 800} onClose={close} destroyOnHidden>
            {body}
          </Drawer>
        ) : (
          <Modal open title={heading} width={a.width ?? 800} onCancel={close} footer={null} destroyOnHidden>
            {body}
          </Modal>
        ))}
    </>
  );
}

const list: ActionDef = {
  component: ListActionView,
  check: (a, _s, path) => {
    const l = (a as ListAction).list;
    if (!l || typeof l !== 'object' || !l.api?.list || !Array.isArray(l.columns)) return [{ path: `${path}.list`, message: 'list 操作缺少列表 list（api.list 与 columns）' }];
    return [];
  },
};
export default list;
