// labels: print labels (product, location, document) for the row or the selected rows. The `api` answers
// the label data ({kindText, labels: [{title, code, name, lines, barcode, qr}]}, e.g. oms:024211 with
// {"kind": "product", "ids": "{ids}"}); the labels open in a printable sheet (A4 or 100 × 50 mm stock).
import { TagsOutlined } from '@ant-design/icons';
import { useState } from 'react';
import { OK } from '../../../core/codes';
import { LabelSheet, type LabelData } from '../labels/LabelSheet';
import { fillBody, fillText } from '../template';
import { actionCall } from './actionCall';
import { ActionButton } from './ActionButton';
import type { ActionDef, ActionProps, Row } from './types';

function LabelsAction({ action, record, selection, inline, scope }: ActionProps) {
  const [open, setOpen] = useState<{ heading: string; labels: LabelData[] } | null>(null);
  const bulk = action.bulk === true;
  const data: Row = bulk ? { ids: selection?.keys ?? [], rows: selection?.rows ?? [], count: selection?.keys.length ?? 0 } : (record ?? {});
  const fallback = bulk ? { ids: '{ids}' } : { ids: [`{${scope.rowKey}}`] };
  return (
    <>
      <ActionButton
        action={action}
        inline={inline}
        record={data}
        icon={<TagsOutlined />}
        disabled={bulk && !selection?.keys.length}
        onRun={async () => {
          const env = await actionCall<{ kindText?: string; labels: LabelData[] }>(String(action.api ?? ''), fillBody(action.body ?? fallback, data));
          if (env.code !== OK || !env.data) return;
          const heading = typeof action.heading === 'string' ? fillText(action.heading, data) : `${env.data.kindText ?? ''}标签`;
          setOpen({ heading, labels: env.data.labels });
        }}
      />
      {open && <LabelSheet heading={open.heading} labels={open.labels} onClose={() => setOpen(null)} />}
    </>
  );
}

const labels: ActionDef = {
  component: LabelsAction,
  check: (a, _s, path) => (typeof a.api === 'string' ? [] : [{ path: `${path}.api`, message: 'labels 操作缺少接口 api' }]),
};
export default labels;
