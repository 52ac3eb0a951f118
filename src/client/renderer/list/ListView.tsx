// A list drawn from a ListPart: search form, sections fed by its conditions (a chart), toolbar, table
// with server-side paging/sort/filters (or tree rows), totals, row and bulk actions, per-user column
// preferences. Used by the list kind, by related lists of detail screens and by the `list` action.
// antd Table rather than ProTable: it draws large pages with virtual rows and lets us own column
// settings (saved per account on the server, widths included — DESIGN §6).

import { ReloadOutlined } from '@ant-design/icons';
import { Button, Space, Spin, Table } from 'antd';
import type { ColumnType, TablePaginationConfig } from 'antd/es/table';
import type { SorterResult } from 'antd/es/table/interface';
import { useCallback, useEffect, useMemo, useRef, useState, type Key, type MouseEvent, type ReactNode } from 'react';
import type { ActionScope } from '../actions/types';
import { usableActions, type UsableAction } from '../actions/usable';
import { cleanFilters } from '../data/listQuery';
import { SectionList } from '../detail/SectionList';
import { applyPrefs, EMPTY_PREFS, isCustomised, moveColumn, setFixed, setHidden, setWidth, type ColumnPrefs } from '../data/columnConfig';
import { saveColumnPrefs } from '../data/columnConfigStore';
import { offeredOnRow } from '../document/serverActions';
import { holds, useRenderEnv, type RenderEnv } from '../env';
import { SchemaProblems } from '../SchemaProblems';
import { ACTIONS_TITLE } from '../texts';
import type { ListPart, SortOrder } from '../types';
import { availableColumns, buildColumns, columnDefaults } from './buildColumns';
import { ColumnSettings } from './ColumnSettings';
import { FilterBar } from './FilterBar';
import { filtersOf, prepareList, type Prepared } from './prepare';
import { ResizableHeaderCell } from './ResizableHeaderCell';
import { TotalsRow } from './TotalsRow';
import { parentKeys, pruneEmptyChildren, treeOf } from './tree';
import { useListData, type Row } from './useListData';
import { useSearchParams } from 'react-router-dom';

export interface ListViewProps {
  part: ListPart;
  /** Column preferences key (per account). */
  listName: string;
  /** Filters always sent (related lists). */
  fixedFilters?: Record<string, unknown>;
  /** Top-level body values always sent (a code that takes its record as {id}). */
  fixedParams?: Record<string, unknown>;
  /** Shown left of the toolbar. */
  title?: ReactNode;
  /** Schema path of the list part inside its screen (related lists), prefixed to problems. */
  path?: string;
  /** Drawn between the search form and the table (a report's chart), from what the list now shows. */
  renderAbove?: (view: ListAbove) => ReactNode;
}

/** What a list offers the part drawn above its table. */
export interface ListAbove {
  /** The conditions now applied ({...filters, keyword}). */
  conditions: Record<string, unknown>;
  rows: Row[];
  loading: boolean;
}

/** Pages above this many rows draw virtual rows unless the schema says otherwise. */
export const VIRTUAL_THRESHOLD = 100;
const SAVE_DELAY_MS = 400;
/** Row checkboxes need a name a screen reader can say (axe: form elements must have labels). */
const selectionLabel = () => ({ 'aria-label': '选择此行' }) as Record<string, string>;
const DEFAULT_PAGE_SIZES = [20, 50, 100, 200, 500, 1000];

function defaultScrollY(): number {
  const h = typeof window !== 'undefined' ? window.innerHeight : 800;
  return Math.max(320, h - 330);
}

/** Filter widgets whose values are ids or numbers, not text. */
const NUMERIC_WIDGETS = new Set(['select', 'treeSelect', 'lookup', 'number']);

export function ListView({ part, listName, fixedFilters, fixedParams, title, path, renderAbove }: ListViewProps) {
  const filters = useMemo(() => filtersOf(part), [part]);
  const [search] = useSearchParams();
  const queryKey = part.queryFilters ? search.toString() : '';
  const defaults = useMemo(() => {
    const d: Record<string, unknown> = {};
    for (const { filter } of filters) if (filter.defaultValue !== undefined) d[filter.field] = filter.defaultValue;
    // A link may open the list already filtered (/docRelate?docNo=CG…, /commodity/presellMore?planId=3):
    // the query's text as it is, or — for a choice or number filter — an id as the number it stands for
    // (the select then shows its label, and the server gets the integer its input declares).
    if (part.queryFilters) for (const { filter } of filters) {
      const v = search.get(filter.field);
      if (v === null || v === '') continue;
      // (a switch reads ?overdueOnly=true as on)
      d[filter.field] = filter.widget === 'switch' ? v === 'true' || v === '1' : NUMERIC_WIDGETS.has(filter.widget ?? 'input') && /^[1-9]\d{0,14}$/.test(v) ? Number(v) : v;
    }
    return d;
  }, [filters, queryKey]); // eslint-disable-line react-hooks/exhaustive-deps
  // The first page is asked for at once, while the column preferences and types load.
  const data = useListData(part, defaults, fixedFilters, fixedParams);
  // `autoRefresh`: the page again every N seconds, not while the tab is hidden
  const every = part.autoRefresh;
  const refreshData = data.refresh;
  useEffect(() => {
    if (!every) return;
    const timer = setInterval(() => {
      if (document.visibilityState !== 'hidden') refreshData();
    }, every * 1000);
    return () => clearInterval(timer);
  }, [every, refreshData]);
  // A new part (a report choosing another grouping) keeps the table and its search form, with what was
  // typed in it, on screen until the new part is ready; the first one shows a spinner.
  const [prepared, setPrepared] = useState<{ part: ListPart; listName: string; value: Prepared } | null>(null);
  useEffect(() => {
    let live = true;
    void prepareList(part, listName).then((p) => live && setPrepared({ part, listName, value: p }));
    return () => {
      live = false;
    };
  }, [part, listName]);

  if (!prepared) return <Spin style={{ display: 'block', margin: '48px auto' }} />;
  return (
    <>
      <SchemaProblems problems={prepared.value.problems} prefix={path} />
      <ListBody
        part={prepared.part}
        listName={prepared.listName}
        title={title}
        filters={filters}
        defaults={defaults}
        prepared={prepared.value}
        data={data}
        renderAbove={renderAbove}
      />
    </>
  );
}

interface BodyProps {
  part: ListPart;
  listName: string;
  title?: ReactNode;
  filters: ReturnType<typeof filtersOf>;
  defaults: Record<string, unknown>;
  prepared: Prepared;
  data: ReturnType<typeof useListData>;
  renderAbove?: ListViewProps['renderAbove'];
}

function useColumnPrefs(initial: ColumnPrefs, listName: string, defaultsOf: () => ReturnType<typeof columnDefaults>) {
  const [prefs, setPrefs] = useState<ColumnPrefs>(initial);
  // Another list's preferences (the part was replaced while the table stayed).
  useEffect(() => setPrefs(initial), [initial]);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const pending = useRef<ColumnPrefs | null>(null);
  const flush = useCallback(() => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    if (pending.current) void saveColumnPrefs(listName, pending.current, defaultsOf());
    pending.current = null;
  }, [listName, defaultsOf]);
  // Save what is pending when the list goes away (closing the tab right after a change).
  useEffect(() => flush, [flush]);
  const change = useCallback(
    (next: ColumnPrefs, save = true) => {
      setPrefs(next);
      if (!save) return;
      pending.current = next;
      if (timer.current) clearTimeout(timer.current);
      timer.current = setTimeout(flush, SAVE_DELAY_MS);
    },
    [flush],
  );
  return [prefs, change] as const;
}

function ListBody({ part, listName, title, filters, defaults, prepared, data, renderAbove }: BodyProps) {
  const env = useRenderEnv();
  const rowKey = part.rowKey ?? 'id';
  // Columns made from the answer (dynamicColumns) change with it; other lists ignore the answer.
  const columnSource = part.dynamicColumns ? data.response : undefined;
  const available = useMemo(() => availableColumns(part, env, columnSource), [part, env, columnSource]);
  const colDefaults = useMemo(() => columnDefaults(available), [available]);
  const defaultsRef = useRef(colDefaults);
  defaultsRef.current = colDefaults;
  const [prefs, changePrefs] = useColumnPrefs(prepared.prefs, listName, useCallback(() => defaultsRef.current, []));
  const states = useMemo(() => applyPrefs(colDefaults, prefs), [colDefaults, prefs]);

  const [selected, setSelected] = useState<{ keys: Key[]; rows: Row[] }>({ keys: [], rows: [] });
  useEffect(() => setSelected({ keys: [], rows: [] }), [data.rows]);

  const totalRef = useRef(data.total);
  totalRef.current = data.total;
  const scope: ActionScope = useMemo(
    () => ({ api: part.api, forms: part.forms, rowKey, refresh: data.refresh, exportBody: data.exportBody, titles: fieldTitles(part), listTotal: () => totalRef.current }),
    [part, rowKey, data.refresh, data.exportBody],
  );

  const toolbar = useMemo(() => usableActions(part.toolbar, 'toolbar', env, part), [part, env]);
  const rowActions = useMemo(() => usableActions(part.rowActions, 'rowActions', env, part), [part, env]);
  const bulk = toolbar.some((a) => a.action.bulk === true);

  const prefsRef = useRef(prefs);
  prefsRef.current = prefs;
  // Live while dragging (not saved), saved once on release.
  const onResize = useCallback(
    (key: string, width: number, done: boolean) => changePrefs(setWidth(prefsRef.current, defaultsRef.current, key, width), done),
    [changePrefs],
  );

  const built = useMemo(
    () => buildColumns({ available, states, env, options: prepared.options, sort: data.query.sort, onResize }),
    [available, states, env, prepared.options, data.query.sort, onResize],
  );

  const actionColumn = useMemo<ColumnType<Row> | null>(() => {
    if (!rowActions.length) return null;
    return {
      key: '__actions',
      title: ACTIONS_TITLE,
      fixed: 'right',
      width: part.actionWidth ?? Math.max(90, rowActions.length * 58),
      render: (_: unknown, row: Row) => <RowActions row={row} list={rowActions} env={env} scope={scope} />,
    };
  }, [rowActions, env, scope, part.actionWidth]);

  const columns = useMemo(() => (actionColumn ? [...built.columns, actionColumn] : built.columns), [built.columns, actionColumn]);
  const scrollX = built.totalWidth + (actionColumn ? Number(actionColumn.width) : 0) + (bulk ? 48 : 0);
  const tree = useMemo(() => treeOf(part), [part]);
  const rows = useMemo(() => (tree ? pruneEmptyChildren(data.rows, tree.children) : data.rows), [tree, data.rows]);
  const [expanded, setExpanded] = useState<Key[]>([]);
  useEffect(() => {
    if (tree?.expandAll) setExpanded(parentKeys(rows, rowKey, tree.children));
  }, [tree, rows, rowKey]);
  const expandable = useMemo(
    () => (tree ? { childrenColumnName: tree.children, expandedRowKeys: expanded, onExpandedRowsChange: (keys: readonly Key[]) => setExpanded([...keys]) } : undefined),
    [tree, expanded],
  );
  const virtual = !tree && (part.virtual === true || ((part.virtual ?? 'auto') === 'auto' && rows.length > VIRTUAL_THRESHOLD));
  // Sections above the table see the conditions now applied as their record.
  const conditions = useMemo(() => {
    const c: Row = cleanFilters(data.query.filters);
    if (data.query.keyword) c.keyword = data.query.keyword;
    return c;
  }, [data.query.filters, data.query.keyword]);
  const scroll = useMemo(
    () => ({ x: scrollX, y: virtual ? (part.scrollY ?? defaultScrollY()) : part.scrollY }),
    [scrollX, virtual, part.scrollY],
  );

  const onTableChange = useCallback(
    (pagination: TablePaginationConfig, _f: unknown, sorter: SorterResult<Row> | SorterResult<Row>[]) => {
      const s = Array.isArray(sorter) ? sorter[0] : sorter;
      const col = s?.column ? built.shown.find((c) => (c.key ?? c.field) === s.columnKey) : undefined;
      data.setQuery((q) => {
        const sort = col && s?.order ? { field: col.field, order: s.order as SortOrder } : part.defaultSort;
        const sortChanged = JSON.stringify(sort ?? null) !== JSON.stringify(q.sort ?? null);
        const pageSize = pagination.pageSize ?? q.pageSize;
        const page = sortChanged || pageSize !== q.pageSize ? 1 : (pagination.current ?? q.page);
        const next = { ...q, page, pageSize };
        if (sort) next.sort = sort;
        else delete next.sort;
        return next;
      });
    },
    [built.shown, data, part.defaultSort],
  );

  const summary = useMemo(() => {
    const totals = part.totals;
    if (!totals?.fields.length) return undefined;
    // totals.all: a second row, 全部合计, with the server's totals over every row the conditions keep.
    const all = totals.all ? data.totals : undefined;
    // Called, not rendered as <TotalsRow/>: the table keeps a footer under virtual rows only when the
    // summary's top element is Table.Summary itself (fixed), not a component wrapping it.
    return (pageRows: readonly Row[]) =>
      TotalsRow({
        rows: pageRows,
        shown: built.shown,
        fields: totals.fields,
        label: totals.label,
        leading: bulk ? 1 : 0,
        trailing: actionColumn ? 1 : 0,
        env,
        fixed: virtual,
        page: totals.page !== false,
        all,
        allLabel: totals.allLabel,
        conditions,
      });
  }, [part.totals, built.shown, bulk, actionColumn, env, virtual, data.totals, conditions]);

  const components = useMemo(() => ({ header: { cell: ResizableHeaderCell } }), []);

  return (
    <div className="renderer-list">
      <FilterBar
        part={part}
        filters={filters}
        env={env}
        defaults={defaults}
        onSearch={(values, keyword) => data.setQuery((q) => ({ ...q, page: 1, filters: values, keyword }))}
      />
      {part.sections?.length ? <SectionList list={part.sections} base="sections" record={conditions} scope={scope} screenName={listName} /> : null}
      {renderAbove?.({ conditions, rows: data.rows, loading: data.loading })}
      <div style={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', marginBottom: 8, gap: 8 }}>
        <div style={{ fontWeight: 600 }}>
          {title}
          {bulk && selected.keys.length > 0 && <span style={{ fontWeight: 400, marginLeft: 8 }}>已选 {selected.keys.length} 项</span>}
        </div>
        <Space wrap>
          {toolbar
            .filter((a) => holds(a.action.when, env, null))
            .map(({ action, path, def }) => {
              const C = def.component;
              return <C key={path} action={action} path={path} scope={scope} selection={action.bulk ? selected : undefined} />;
            })}
          <Button icon={<ReloadOutlined />} aria-label="刷新" title="刷新" onClick={data.refresh} />
          <ColumnSettings
            available={available}
            states={states}
            customised={isCustomised(prefs)}
            onToggle={(key, hidden) => changePrefs(setHidden(prefs, colDefaults, key, hidden))}
            onMove={(from, to) => changePrefs(moveColumn(prefs, colDefaults, from, to))}
            onFix={(key, fixed) => changePrefs(setFixed(prefs, colDefaults, key, fixed))}
            onReset={() => changePrefs(EMPTY_PREFS)}
          />
        </Space>
      </div>
      <Table<Row>
        rowKey={rowKey}
        size="middle"
        columns={columns}
        dataSource={rows}
        loading={data.loading}
        virtual={virtual}
        scroll={scroll}
        components={components}
        summary={summary}
        onChange={onTableChange}
        onRow={part.rowTap && rowActions.length ? tapRow : undefined}
        rowClassName={part.rowTap && rowActions.length ? 'renderer-row-tap' : undefined}
        rowSelection={bulk ? { selectedRowKeys: selected.keys, onChange: (keys, selRows) => setSelected({ keys, rows: selRows }), fixed: 'left', getCheckboxProps: selectionLabel } : undefined}
        expandable={expandable}
        pagination={
          tree
            ? false
            : {
                current: data.query.page,
                pageSize: data.query.pageSize,
                total: data.total,
                showSizeChanger: { 'aria-label': '每页条数' },
                pageSizeOptions: part.pageSizeOptions ?? DEFAULT_PAGE_SIZES,
                showTotal: (t) => `共 ${t} 条`,
              }
        }
      />
    </div>
  );
}

/** Field key → Chinese title, from the list's columns and forms. */
function fieldTitles(part: ListPart): Record<string, string> {
  const out: Record<string, string> = {};
  for (const form of Object.values(part.forms ?? {})) for (const f of form.fields) out[f.field] = f.title;
  for (const c of part.columns) out[c.field] = c.title;
  return out;
}

/**
 * `rowTap`: a tap on the row is a tap on its first offered row action — the row's own buttons, links and
 * inputs keep their clicks. (The action's button is clicked, so its rights, `when` and confirm still apply.)
 */
function tapRow(): { onClick: (e: MouseEvent<HTMLElement>) => void } {
  return {
    onClick(e) {
      const target = e.target as HTMLElement;
      if (target.closest('button, a, input, textarea, label, .ant-checkbox-wrapper, .ant-select, .ant-dropdown')) return;
      e.currentTarget.querySelector<HTMLButtonElement>('[data-row-actions] button:not([disabled])')?.click();
    },
  };
}

function RowActions({ row, list, env, scope }: { row: Row; list: UsableAction[]; env: RenderEnv; scope: ActionScope }) {
  return (
    <Space size={0} wrap={false} data-row-actions="">
      {list
        // a document on the engine says per row which of these it offers now; other actions follow `when`
        .filter((a) => offeredOnRow(a.action, row, scope.forms) ?? holds(a.action.when, env, row))
        .map(({ action, path, def }) => {
          const C = def.component;
          return <C key={path} action={action} path={path} scope={scope} record={row} inline />;
        })}
    </Space>
  );
}
