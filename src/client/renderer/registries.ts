// The registries and the built-in types. Every type is lazily loaded: a screen fetches only the
// chunks of the types its schema names (the common light ones share a chunk). To add one: write the
// module (default export of the
// registry's value type) and register it here — or at start-up from anywhere:
//
//   columnTypes.register('percent', () => import('./columns/percent'));
//   widgets.register('colour', () => import('./widgets/colour'));
//   actions.register('approve', () => import('./actions/approve'));
//   sections.register('chart', () => import('./detail/chart'));

import type { ActionDef } from './actions/types';
import type { ChartPartDef } from './charts/types';
import type { ColumnTypeDef } from './columns/types';
import type { SectionDef } from './detail/types';
import type { LineEditorDef } from './document/editors/types';
import { Registry } from './registry';
import type { WidgetDef } from './widgets/types';

export const columnTypes = new Registry<ColumnTypeDef>('列类型');
export const widgets = new Registry<WidgetDef>('控件');
export const actions = new Registry<ActionDef>('操作');
export const sections = new Registry<SectionDef>('区块类型');
export const lineEditors = new Registry<LineEditorDef>('行编辑器');
/** Chart parts named from schemas (`line`, `bar`, …), drawn by charts/Chart.tsx. */
export const chartParts = new Registry<ChartPartDef>('图表类型');

// Built-ins. Common light types share a chunk (./*/basic.ts); heavier ones have their own.
const basicColumn = () => import('./columns/basic');
const basicWidget = () => import('./widgets/basic');
const basicAction = () => import('./actions/basic');
const basicLineEditor = () => import('./document/editors/basic');

columnTypes
  .register('text', () => basicColumn().then((m) => m.text))
  .register('link', () => basicColumn().then((m) => m.link))
  .register('number', () => basicColumn().then((m) => m.number))
  .register('money', () => basicColumn().then((m) => m.money))
  .register('date', () => basicColumn().then((m) => m.date))
  .register('datetime', () => basicColumn().then((m) => m.datetime))
  .register('enum', () => basicColumn().then((m) => m.enumType))
  .register('boolean', () => basicColumn().then((m) => m.boolean))
  .register('image', () => import('./columns/image'))
  .register('changes', () => import('./columns/changes'));

widgets
  .register('input', () => basicWidget().then((m) => m.input))
  .register('textarea', () => basicWidget().then((m) => m.textarea))
  .register('number', () => basicWidget().then((m) => m.number))
  .register('money', () => basicWidget().then((m) => m.money))
  .register('numberRange', () => basicWidget().then((m) => m.numberRange))
  .register('select', () => basicWidget().then((m) => m.select))
  .register('boolean', () => basicWidget().then((m) => m.boolean))
  .register('switch', () => basicWidget().then((m) => m.switchWidget))
  .register('date', () => basicWidget().then((m) => m.date))
  .register('dateRange', () => basicWidget().then((m) => m.dateRange))
  .register('treeSelect', () => import('./widgets/treeSelect'))
  .register('image', () => import('./widgets/image'))
  .register('file', () => import('./widgets/file'))
  .register('rightsTree', () => import('./widgets/rightsTree'))
  .register('password', () => basicWidget().then((m) => m.password))
  .register('tags', () => basicWidget().then((m) => m.tags))
  .register('keyValue', () => import('./widgets/keyValue'))
  .register('htmlPreview', () => import('./widgets/htmlPreview'))
  .register('json', () => import('./widgets/json'))
  .register('apiCall', () => import('./widgets/apiCall'))
  .register('timestamp', () => import('./widgets/timestamp'))
  .register('lookup', () => import('./widgets/lookup'));

actions
  .register('link', () => basicAction().then((m) => m.link))
  .register('call', () => basicAction().then((m) => m.call))
  .register('refresh', () => basicAction().then((m) => m.refresh))
  .register('print', () => basicAction().then((m) => m.print))
  .register('export', () => basicAction().then((m) => m.exportAction))
  .register('form', () => import('./actions/form'))
  .register('import', () => import('./actions/import'))
  .register('list', () => import('./actions/list'))
  .register('labels', () => import('./actions/labels'))
  .register('share', () => import('./actions/share').then((m) => m.share))
  .register('copyLink', () => import('./actions/share').then((m) => m.copyLinkAction));

sections
  .register('descriptions', () => import('./detail/descriptions'))
  .register('list', () => import('./detail/relatedList'))
  .register('tabs', () => import('./detail/tabs'))
  .register('audit', () => import('./detail/audit'))
  .register('chart', () => import('./detail/chart'))
  .register('table', () => import('./detail/table'));

lineEditors
  .register('input', () => basicLineEditor().then((m) => m.input))
  .register('number', () => basicLineEditor().then((m) => m.number))
  .register('money', () => basicLineEditor().then((m) => m.money))
  .register('lookup', () => import('./document/editors/lookup'))
  .register('units', () => import('./document/editors/units'));

// ECharts-drawn parts: one chunk for the category, pie and gauge parts; the map (with its outlines)
// its own. Only a screen that draws a chart fetches either.
const echartsParts = () => import('./charts/parts');
chartParts
  .register('line', () => echartsParts().then((m) => m.line))
  .register('bar', () => echartsParts().then((m) => m.bar))
  .register('stackedBar', () => echartsParts().then((m) => m.stackedBar))
  .register('pie', () => echartsParts().then((m) => m.pie))
  .register('gauge', () => echartsParts().then((m) => m.gauge))
  .register('chinaMap', () => import('./charts/chinaMap'));
