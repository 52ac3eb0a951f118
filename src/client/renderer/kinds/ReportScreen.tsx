// The `report` screen kind: filters, a grouping choice (by supplier / product / month...), a summary
// table with totals over every group (全部合计, computed by the server), an optional chart of the rows
// shown, and export. It is a list underneath: ListView draws the search form, table, paging, sort,
// totals and toolbar; the report adds the grouping — each grouping puts its own label columns before
// the report's measures and sends its value (groupBy) with every call, export included — and the chart.
// Switching the grouping keeps what was typed in the search form. Column preferences are kept per
// grouping (<name>.<grouping>).
import { Card, Radio, Space } from 'antd';
import { useMemo, useState } from 'react';
import type { ScreenProps } from '../../router/screenProps';
import { ListView } from '../list/ListView';
import { ReportChart } from '../report/ReportChart';
import type { SchemaProblem } from '../registry';
import { SchemaProblems } from '../SchemaProblems';
import type { ListPart, ReportGrouping, ReportScreenPart } from '../types';

const DEFAULT_GROUP_PARAM = 'groupBy';

/** The list one grouping of the report draws. Reports show 全部合计 unless the schema says otherwise. */
export function reportListPart(report: ReportScreenPart, grouping: ReportGrouping | undefined): ListPart {
  const { groupings: _g, groupParam: _p, defaultGrouping: _d, chart: _c, ...list } = report;
  const part: ListPart = { ...list, columns: [...(grouping?.columns ?? []), ...(report.columns ?? [])] };
  const sort = grouping?.defaultSort ?? report.defaultSort;
  if (sort) part.defaultSort = sort;
  else delete part.defaultSort;
  if (report.totals) part.totals = { all: true, ...report.totals };
  return part;
}

/** Mistakes of the report's own parts (the list's are found by ListView). */
export function reportProblems(report: ReportScreenPart): SchemaProblem[] {
  const problems: SchemaProblem[] = [];
  const groupings = report.groupings ?? [];
  if (!groupings.length) problems.push({ path: 'groupings', message: '报表至少需要一种汇总方式' });
  const seen = new Set<string>();
  groupings.forEach((g, i) => {
    if (seen.has(g.value)) problems.push({ path: `groupings[${i}].value`, message: `汇总方式 "${g.value}" 重复` });
    seen.add(g.value);
  });
  if (report.defaultGrouping && !seen.has(report.defaultGrouping)) problems.push({ path: 'defaultGrouping', message: `汇总方式 "${report.defaultGrouping}" 不存在` });
  const measures = new Set((report.columns ?? []).map((c) => c.field));
  (report.chart?.series ?? []).forEach((s, i) => {
    if (!measures.has(s.field)) problems.push({ path: `chart.series[${i}].field`, message: `图表字段 "${s.field}" 不是报表的列` });
  });
  for (const g of Object.keys(report.chart?.types ?? {})) {
    if (!seen.has(g)) problems.push({ path: `chart.types.${g}`, message: `汇总方式 "${g}" 不存在` });
  }
  return problems;
}

export default function ReportScreen({ meta, file }: ScreenProps) {
  const report = useMemo(() => file as unknown as ReportScreenPart, [file]);
  const groupings = report.groupings ?? [];
  const [chosen, setChosen] = useState(() => report.defaultGrouping ?? groupings[0]?.value ?? '');
  const grouping = groupings.find((g) => g.value === chosen) ?? groupings[0];
  const part = useMemo(() => reportListPart(report, grouping), [report, grouping]);
  const params = useMemo(() => (grouping ? { [report.groupParam ?? DEFAULT_GROUP_PARAM]: grouping.value } : undefined), [report.groupParam, grouping]);
  const problems = useMemo(() => reportProblems(report), [report]);
  const chart = report.chart;

  const title = (
    <Space wrap size={12}>
      <span>{file.title}</span>
      {groupings.length > 1 && (
        <Radio.Group
          className="renderer-report-groupings"
          size="small"
          optionType="button"
          buttonStyle="solid"
          value={grouping?.value}
          options={groupings.map((g) => ({ value: g.value, label: g.label }))}
          onChange={(e) => setChosen(String(e.target.value))}
        />
      )}
    </Space>
  );
  return (
    <Card variant="borderless" className="renderer-screen renderer-report-screen">
      <SchemaProblems problems={problems} />
      <ListView
        part={part}
        listName={`${report.name ?? meta.file}.${grouping?.value ?? ''}`}
        title={title}
        fixedParams={params}
        renderAbove={chart ? (view) => <ReportChart chart={chart} grouping={grouping?.value ?? ''} rows={view.rows} loading={view.loading} /> : undefined}
      />
    </Card>
  );
}
