// The `detail` screen kind: one record (api.get by the route's :id, or the query parameter of that name)
// drawn as sections — descriptions, tabs, related lists, tables, the audit trail — with an action bar
// whose actions see the record. With `pick`, the record is chosen on the screen itself (a price query
// picks a product): the picker's value goes to the URL query, which loads the record.
import { Card, Empty, Form, Result, Spin } from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { ScreenProps } from '../../router/screenProps';
import { ActionBar } from '../actions/ActionBar';
import type { ActionScope } from '../actions/types';
import { usableActions } from '../actions/usable';
import { SectionList } from '../detail/SectionList';
import { prepareDetail } from '../detail/prepare';
import { useRenderEnv } from '../env';
import { widgets } from '../registries';
import type { SchemaProblem } from '../registry';
import { SchemaProblems } from '../SchemaProblems';
import type { DetailScreenPart, FilterSchema } from '../types';
import { placeholderOf, type WidgetDef } from '../widgets/types';
import { useRecord } from './useRecord';

/** The `pick` widget: its value is the URL query parameter `param` (digits as a number, as ids are). */
function Picker({ pick, param, value: raw }: { pick: FilterSchema; param: string; value: string | undefined }) {
  const [, setSearch] = useSearchParams();
  const value = raw !== undefined && /^\d{1,15}$/.test(raw) ? Number(raw) : raw;
  const box = useRef<HTMLDivElement>(null);
  // Nothing chosen yet: the caret waits in the picker, ready for a scanner.
  useEffect(() => {
    if (raw === undefined) box.current?.querySelector('input')?.focus();
  }, []); // eslint-disable-line react-hooks/exhaustive-deps
  const def = widgets.peek(pick.widget ?? 'input') as WidgetDef | undefined;
  if (!def) return null;
  const W = def.component;
  return (
    <Form layout="inline" className="renderer-detail-pick" style={{ marginBottom: 16 }}>
      <Form.Item label={pick.title} style={{ minWidth: 420 }}>
        <div ref={box}>
          <W
            schema={pick}
            mode="form"
            value={value}
            onChange={(v) =>
              // Replacing, not pushing: choosing another record is like changing a filter (the shell
              // keeps one tab for the page, and Back leaves the page rather than stepping through choices).
              setSearch(
                (prev) => {
                  const next = new URLSearchParams(prev);
                  if (v === undefined || v === null || v === '') next.delete(param);
                  else next.set(param, String(v));
                  return next;
                },
                { replace: true },
              )
            }
          />
        </div>
      </Form.Item>
    </Form>
  );
}

export default function DetailScreen({ meta, file }: ScreenProps) {
  const part = useMemo(() => file as unknown as DetailScreenPart, [file]);
  const env = useRenderEnv();
  const { id, record, reload, settled } = useRecord(part.api?.get, part.idParam);
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

  const pick = part.pick;
  if (pick) {
    // One card whatever the state, so the picker keeps its place (and its state) while records load.
    const loaded = problems && record && settled ? record : undefined;
    let body;
    if (!problems) body = <Spin style={{ display: 'block', margin: '48px auto' }} />;
    else if (id === undefined) body = <Empty description={placeholderOf(pick, true)} />;
    else if (record === undefined || !settled) body = <Spin style={{ display: 'block', margin: '48px auto' }} />;
    else if (record === null) body = <Result status="warning" title="记录不存在或已被删除" />;
    else body = <SectionList list={part.sections ?? []} base="sections" record={record} scope={scope} screenName={meta.file} />;
    const named = loaded && part.titleField && loaded[part.titleField] != null ? ` - ${String(loaded[part.titleField])}` : '';
    return (
      <Card
        variant="borderless"
        className="renderer-screen renderer-detail-screen"
        title={`${file.title}${named}`}
        extra={loaded ? <ActionBar list={actionList} env={env} scope={scope} record={loaded} /> : undefined}
      >
        {problems && <SchemaProblems problems={problems} />}
        {problems && <Picker pick={pick} param={part.idParam ?? 'id'} value={id} />}
        {body}
      </Card>
    );
  }
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
