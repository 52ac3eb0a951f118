// The `detail` screen kind: one record (api.get by the route's :id) drawn as sections — descriptions,
// tabs, related lists, the audit trail — with an action bar whose actions see the record.
import { Card, Result, Spin } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import type { ScreenProps } from '../../router/screenProps';
import { ActionBar } from '../actions/ActionBar';
import type { ActionScope } from '../actions/types';
import { usableActions } from '../actions/usable';
import { SectionList } from '../detail/SectionList';
import { prepareDetail } from '../detail/prepare';
import { useRenderEnv } from '../env';
import type { SchemaProblem } from '../registry';
import { SchemaProblems } from '../SchemaProblems';
import type { DetailScreenPart } from '../types';
import { useRecord } from './useRecord';

export default function DetailScreen({ meta, file }: ScreenProps) {
  const part = useMemo(() => file as unknown as DetailScreenPart, [file]);
  const env = useRenderEnv();
  const { record, reload } = useRecord(part.api?.get, part.idParam);
  const [problems, setProblems] = useState<SchemaProblem[] | null>(null);
  useEffect(() => {
    let live = true;
    void prepareDetail(part).then((p) => live && setProblems(p));
    return () => {
      live = false;
    };
  }, [part]);
  const scope: ActionScope = useMemo(() => ({ forms: part.forms, rowKey: 'id', refresh: reload }), [part.forms, reload]);
  // Recomputed once the schema's action types have loaded (problems set), or a cold load shows no buttons.
  const actionList = useMemo(() => usableActions(part.actions, 'actions', env, { forms: part.forms }), [part, env, problems]);

  if (!problems || record === undefined) return <Spin style={{ display: 'block', margin: '48px auto' }} />;
  if (record === null) return <Result status="warning" title="记录不存在或已被删除" />;
  const suffix = part.titleField && record[part.titleField] != null ? ` - ${String(record[part.titleField])}` : '';
  return (
    <Card
      variant="borderless"
      className="renderer-screen renderer-detail-screen"
      title={`${file.title}${suffix}`}
      extra={<ActionBar list={actionList} env={env} scope={scope} record={record} />}
    >
      <SchemaProblems problems={problems} />
      <SectionList list={part.sections ?? []} base="sections" record={record} scope={scope} screenName={meta.file} />
    </Card>
  );
}
