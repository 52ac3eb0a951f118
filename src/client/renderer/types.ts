// Types of the kind-specific parts of screen files (schemas/meta/screen-kinds.schema.json is the JSON
// Schema of the same shapes; keep the two in step). The renderer trusts these shapes only as far as
// the meta-schema checks them: anything it cannot draw becomes an error box naming the schema path.

import type { Condition } from '../../core/conditions';

/** An endpoint reference such as "cdm:012101". */
export type ApiRef = string;

/** A registered chart part (charts/: line, bar, stackedBar, pie, gauge, chinaMap), drawn by <Chart>. */
export type ChartType = string;

/** Gates shared by columns, filters, fields and actions. All must pass for the part to show. */
export interface Gated {
  /** Function-right code (or several: any suffices). '1' always passes. */
  permission?: string | string[];
  /** Company flag that must be on. */
  flag?: string;
  /** Condition on the row / record / form values, flags and rights. */
  when?: Condition;
}

export interface OptionItem {
  value: string | number | boolean;
  label: string;
  /** antd tag colour for enum columns. */
  color?: string;
  /** The code (and barcode) a clerk may type instead of the label: selects match them too. */
  code?: string;
  barcode?: string;
}

/** Remote options: a code answering a list (or {list}) of rows. */
export interface RemoteOptions {
  api: ApiRef;
  /** Row property shown (default: `label`, then `name`). */
  label?: string;
  /** Row property stored (default: `value`, then `id`). */
  value?: string;
  /** Body sent with the call (default {}). */
  body?: Record<string, unknown>;
}

/** Where a select, enum column or filter gets its choices. Exactly one of options / dict. */
export interface OptionsSource {
  options?: OptionItem[] | RemoteOptions;
  /** Dictionary code published by cdm 013801. */
  dict?: string;
}

export type SortOrder = 'ascend' | 'descend';

export interface ColumnSchema extends Gated, OptionsSource {
  field: string;
  title: string;
  /** What the column counts or leaves out, shown behind a ? in its header (two screens that differ say how). */
  note?: string;
  /** Column type (registry key). Default 'text'. */
  type?: string;
  /** Stable key for column configuration (default: field). */
  key?: string;
  width?: number;
  minWidth?: number;
  fixed?: 'left' | 'right';
  align?: 'left' | 'center' | 'right';
  /** Server-side sort on this column. */
  sortable?: boolean;
  /** Not shown by default; users may show it in column settings. */
  hidden?: boolean;
  ellipsis?: boolean;
  /** Route template opened by a click, e.g. "/procurement/purchaseOrder/{id}". */
  link?: string;
  /** Row field holding a route to open (rows that each know their own screen, e.g. a document chain). */
  linkField?: string;
  /** number, money: decimals (default 2 for money, as-is for number). */
  decimals?: number;
  /** money: row field holding the currency id (shown as the currency character). */
  currencyField?: string;
  /** money: a fixed currency character. */
  currency?: string;
  /** date, datetime: dayjs pattern. */
  format?: string;
  /** boolean: texts (default 是 / 否). */
  trueText?: string;
  falseText?: string;
  /** image: thumbnail size (default 80). */
  size?: number;
  /** Also a filter in the search form (true: a default widget for the type). */
  search?: boolean | Omit<FilterSchema, 'field' | 'title'>;
  /** Text shown for an empty cell (default '-'). */
  empty?: string;
  /** The cell is edited in place and saved through a code (list/EditableCell.tsx). */
  editable?: EditableCellSchema;
  /** Set by the renderer on columns made by `dynamicColumns`: the response item the column stands for
   *  ("{column.x}" placeholders of an editable body). Not written in schemas. */
  source?: Record<string, unknown>;
}

/** An editable cell: click, type (the column type's input filter), Enter or leave to save. */
export interface EditableCellSchema {
  /** Code saving one cell. */
  api: ApiRef;
  /** Body template: "{field}" from the row, "{column.x}" from a dynamic column's item, "{value}" the typed
   *  text ('' when cleared), "{previous}" the value before editing. Default {id: "{id}", <field>: "{value}"}. */
  body?: Record<string, unknown>;
  /** Editable only where this holds on the row plus `column` (the dynamic column's item). */
  when?: Condition;
  /** Right needed (default: the right of `api`). */
  permission?: string | string[];
  /** Input filter (default: decimals:n for money and number columns). */
  filter?: string;
  /** Answer field holding the value as stored (default: the typed value). */
  result?: string;
}

/** Columns made from the list's answer (one per item of `from`), e.g. one per price list. String
 *  properties are templates filled from the item ("p{id}", "{name}"); the rest is copied. */
export interface DynamicColumnsSchema extends Omit<ColumnSchema, 'field' | 'title' | 'when' | 'source' | 'search' | 'sortable' | 'fixed' | 'link' | 'linkField' | 'size' | 'options' | 'dict'> {
  /** Answer field holding the items (an array of objects). */
  from: string;
  /** Field template, e.g. "p{id}". */
  field: string;
  /** Title template, e.g. "{name}". */
  title: string;
  /** Key of the schema column the generated columns follow (default: after the last one). */
  after?: string;
  /** Only items meeting this condition become columns. */
  when?: Condition;
}

export interface FilterSchema extends Omit<Gated, 'when'>, OptionsSource {
  field: string;
  title: string;
  /** Widget (registry key): input, number, select, date, dateRange, numberRange, switch, treeSelect. */
  widget?: string;
  /** Input filter directive (spec §5): int, code, letter, decimals:n ... */
  filter?: string;
  placeholder?: string;
  /** select: several values (sent as an array). */
  multiple?: boolean;
  defaultValue?: unknown;
  /** treeSelect: code answering the tree. */
  tree?: RemoteTree;
  /** boolean: texts of the two choices (default 是 / 否). */
  trueText?: string;
  falseText?: string;
  /** numberRange: decimals. */
  decimals?: number;
}

export interface RemoteTree {
  api: ApiRef;
  label?: string;
  value?: string;
  children?: string;
  /** Flat rows with a parent field are built into a tree. */
  parentField?: string;
  body?: Record<string, unknown>;
}

export interface ActionBase extends Gated {
  /** Action type (registry key): link, call, form, export, import, refresh. */
  action: string;
  title: string;
  /** Button look. */
  type?: 'primary' | 'default' | 'link' | 'dashed' | 'text';
  danger?: boolean;
  /** Toolbar only: acts on the selected rows (shown when the list has selection). */
  bulk?: boolean;
  /** Ask before running (Popconfirm on row actions, Modal.confirm on the toolbar). */
  confirm?: string;
  [option: string]: unknown;
}

export interface LinkAction extends ActionBase {
  action: 'link';
  /** Route template with {field} placeholders. */
  to: string;
  newTab?: boolean;
}

export interface CallAction extends ActionBase {
  action: 'call';
  api: ApiRef;
  /** Body template: strings "{field}" take the row's value; bulk actions see {ids, rows}. Default
   *  {id} for a row, {ids} for bulk. */
  body?: Record<string, unknown>;
  /** Toast shown on success (default 操作成功). */
  success?: string;
  /** Route opened after success, "{field}" from the answer (e.g. a copied order's id). */
  then?: string;
}

export interface FormAction extends ActionBase {
  action: 'form';
  /** Name of a form in the list's `forms`, or an inline form. */
  form: string | FormPart;
  /** Where the form opens (default modal). */
  mode?: 'modal' | 'drawer';
  /** Row actions: load the record with the form's api.get before editing (default true when it has one). */
  load?: boolean;
  width?: number;
  /** Row actions: open the form for a NEW record whose values start from this template ("{field}" from
   *  the row), e.g. {"parentId": "{id}"} for 新增下级. On the toolbar the template sees the selection
   *  ({ids}, {rows}, {count}; bulk actions) and the list's current conditions ({conditions.filters},
   *  {conditions.keyword}), e.g. a bulk change sent for the chosen rows or for everything listed. */
  prefill?: Record<string, unknown>;
}

/** list: a list in a modal or drawer, bound to the row (e.g. the accounts holding a role). */
export interface ListAction extends ActionBase {
  action: 'list';
  list: ListPart;
  /** Filter fields bound to row fields: {"roleId": "id"} sends filters.roleId = row.id. */
  bind?: Record<string, string>;
  /** Top-level body values, "{field}" placeholders from the row: {"id": "{id}"}. */
  params?: Record<string, unknown>;
  /** Title of the modal, "{field}" placeholders from the row (default: the action's title). */
  heading?: string;
  mode?: 'modal' | 'drawer';
  width?: number;
  /** Reload the list the action sits in when the modal closes (the inner list may change what it shows). */
  refreshOnClose?: boolean;
}

export interface ExportAction extends ActionBase {
  action: 'export';
  /** File code (default: the list's api.export). */
  api?: ApiRef;
  /** Run in the export centre instead of downloading now: true always, a number when the list holds
   *  more rows than that. The user is told where to fetch the file (报表 → 导出中心). */
  async?: boolean | number;
  /** Row actions: the body, "{field}" placeholders from the row (e.g. {"id": "{id}"} for a download). */
  body?: Record<string, unknown>;
}

export interface ImportAction extends ActionBase {
  action: 'import';
  /** Upload code (default: the list's api.import). */
  api?: ApiRef;
  /** Template file code (default: the list's api.template). */
  template?: ApiRef;
  /** Values of the codes' extra params (e.g. {"priceTitleId": "{id}"}: header priceTitleId), "{field}" from the row. */
  body?: Record<string, unknown>;
}

export type ActionSchema = LinkAction | CallAction | FormAction | ExportAction | ImportAction | ListAction | ActionBase;

export interface ListApi {
  list: ApiRef;
  get?: ApiRef;
  save?: ApiRef;
  remove?: ApiRef;
  export?: ApiRef;
  import?: ApiRef;
  template?: ApiRef;
}

export interface TotalsSchema {
  /** Numeric or money columns summed over the rows on the page. */
  fields: string[];
  label?: string;
  /** Also a row of totals over every row the conditions keep, computed by the server: the list call
   *  sends withTotals and reads `totals: {field: value}` from the answer. */
  all?: boolean;
  /** Label of that row (default 全部合计). */
  allLabel?: string;
  /** false: only the 全部合计 row (default true: the page's row too). */
  page?: boolean;
}

/** A list: the list kind, and list sections of detail screens. */
export interface ListPart {
  /** Column configuration key (per account). Default: the screen file name. */
  name?: string;
  api: ListApi;
  rowKey?: string;
  columns: ColumnSchema[];
  filters?: FilterSchema[];
  /** A keyword box searching the resource's searchable fields. */
  keyword?: boolean | { placeholder?: string };
  defaultSort?: { field: string; order: SortOrder };
  pageSize?: number;
  pageSizeOptions?: number[];
  totals?: TotalsSchema;
  toolbar?: ActionSchema[];
  rowActions?: ActionSchema[];
  /** A tap or click anywhere on a row runs its first row action (a tablet's row is the target). */
  rowTap?: boolean;
  /** Named forms opened by `form` actions. */
  forms?: Record<string, FormPart>;
  /** Table body height in px (default: fills the window). */
  scrollY?: number;
  /** Seconds: the page is asked for again this often while the tab is visible (monitoring screens). */
  autoRefresh?: number;
  /** Virtual rows: 'auto' (default) turns them on for pages above 100 rows. */
  virtual?: boolean | 'auto';
  /** Filters take their first values from the URL query (?docNo=…). */
  queryFilters?: boolean;
  /** The list is not asked for until these filters hold a value. */
  requiredFilters?: string[];
  /** Fixed filters always sent (e.g. a related list bound to its record). */
  fixedFilters?: Record<string, unknown>;
  /** Width of the row action column. */
  actionWidth?: number;
  /** Rows form a tree (the list code answers nested rows): expandable rows, no paging. */
  tree?: boolean | TreeRows;
  /** Sections drawn above the table (e.g. a chart), fed with the list's current conditions
   *  ({...filters, keyword}) as their record. */
  sections?: DetailSection[];
  /** Columns made from the list's answer (list/dynamicColumns.ts). */
  dynamicColumns?: DynamicColumnsSchema;
}

export interface TreeRows {
  /** Row property holding the children (default 'children'). */
  children?: string;
  /** Open every row when the data arrives (default true). */
  expandAll?: boolean;
}

export interface RuleSchema {
  pattern?: string;
  message?: string;
  min?: number | string;
  max?: number | string;
  minLength?: number;
  maxLength?: number;
}

export interface FieldSchema extends Omit<Gated, 'when'>, OptionsSource {
  field: string;
  title: string;
  /** Widget (registry key). Default 'input'. */
  widget?: string;
  filter?: string;
  placeholder?: string;
  required?: boolean;
  /** Message shown when `required` fails (default 请输入{title} / 请选择{title}). */
  requiredMessage?: string;
  /** boolean widgets: the words for true and false (default 是 / 否) */
  trueText?: string;
  falseText?: string;
  maxLength?: number;
  minLength?: number;
  pattern?: string;
  /** Message shown when `pattern` fails. */
  patternMessage?: string;
  min?: number | string;
  max?: number | string;
  /** Extra rules, each with its message. */
  rules?: RuleSchema[];
  decimals?: number;
  multiple?: boolean;
  tree?: RemoteTree;
  defaultValue?: unknown;
  /** Shown only while this holds (evaluated on the form values). */
  visible?: Condition;
  /** Read-only while this holds (true: always). */
  disabled?: Condition;
  /** Read-only when editing an existing record (e.g. a code). */
  readonlyOnEdit?: boolean;
  /** Grid columns taken (1..layout.columns). */
  span?: number;
  description?: string;
  /** upload widgets: accepted extensions (".jpg,.png") and how many files. */
  accept?: string;
  maxCount?: number;
  /** rightsTree: the catalog code (default cdm:013308); htmlPreview: the code rendering the preview. */
  api?: ApiRef;
  /** htmlPreview: body template sent to `api`, "{field}" placeholders from the form values. */
  body?: Record<string, unknown>;
  /** htmlPreview without api: the form field holding the format ('html' | 'text', default 'format'). */
  formatField?: string;
  /** Shown only while creating a record (e.g. the first password of an account). */
  createOnly?: boolean;
  /** textarea, htmlPreview: height in rows / px. */
  rows?: number;
  height?: number;
}

export interface FormLayout {
  /** Grid columns (default 1 in modals, 2 on pages). */
  columns?: number;
  labelWidth?: number;
  sections?: { title: string; fields: string[] }[];
}

export interface FormPart {
  title?: string;
  api?: { get?: ApiRef; save: ApiRef };
  fields: FieldSchema[];
  layout?: FormLayout;
  /** Modal or drawer width. */
  width?: number;
  /** Values a new record starts with. */
  initialValues?: Record<string, unknown>;
  /** The form edits the one record its api.get answers without an id (e.g. the company settings). */
  singleton?: boolean;
  /** Label of the submit button (default 保存). */
  submitText?: string;
  /** Toast after a successful submit, "{field}" placeholders from the values and the answer (default 保存成功). */
  successText?: string;
  /** A query form: after a successful submit the form stays open and shows this text, "{field}"
   *  placeholders from the values and the answer (nothing is saved, nothing to lose on leaving). */
  resultText?: string;
  /** false: a new record's form offers no 保存并新增 (a one-off action, e.g. a daily closing). */
  saveAndNew?: boolean;
  /** Nothing to submit: fields read-only, only 关闭. */
  readOnly?: boolean;
  /** A live preview under the fields (not a field: nothing is saved), drawn by the htmlPreview widget. */
  preview?: FormPreview;
}

export interface FormPreview {
  title?: string;
  /** Code answering {subject?, body, format?, missing?}. */
  api: ApiRef;
  /** Body template, "{field}" placeholders from the form values. */
  body: Record<string, unknown>;
  height?: number;
  description?: string;
  /** List the placeholders the text holds (editing a template) instead of warning about missing parameters. */
  showPlaceholders?: boolean;
  /** Form fields of which at least one must be filled before the preview is asked for. */
  needs?: string[];
}

/** The form kind: a page with one form. The record id comes from the route parameter. */
export interface FormScreenPart extends FormPart {
  /** Route parameter holding the id (default 'id'); absent → a new record. */
  idParam?: string;
  /** Where to go after saving ({id} placeholders from the saved row); default: stay. */
  afterSave?: string;
  /** A new record's values taken from the URL query (?templateId=3), by field and type. */
  queryValues?: Record<string, 'string' | 'number'>;
  /** No 保存/重置 buttons: the form's widgets act themselves (the API console's apiCall). */
  noSubmit?: boolean;
}

export interface DescriptionsSection extends Gated {
  type: 'descriptions';
  title?: string;
  columns?: number;
  items: ColumnSchema[];
}

export interface ListSection extends Gated {
  type: 'list';
  title?: string;
  list: ListPart;
  /** Filter fields bound to record fields: {"roleId": "id"}. */
  bind: Record<string, string>;
}

export interface TabsSection extends Gated {
  type: 'tabs';
  tabs: { title: string; sections: DetailSection[] }[];
}

export interface AuditSection extends Gated {
  type: 'audit';
  title?: string;
  /** auditLog entity name (e.g. "currency"). */
  entity: string;
  /** Audit list code (default cdm:019702). */
  api?: ApiRef;
}

/** chart: a line chart of what a code answers ([{date, value}] or {list}), called with a body filled
 *  from the record (detail screens) or the list's current conditions (list sections). */
export interface ChartSection extends Gated {
  type: 'chart';
  title?: string;
  /** Chart part drawing the points (default line). */
  chartType?: ChartType;
  api: ApiRef;
  /** Body template, "{field}" placeholders from the record / conditions. */
  body?: Record<string, unknown>;
  /** Point properties: x (default 'date') and y (default 'value'). */
  x?: string;
  y?: string;
  /** Name of the series (tooltip). */
  name?: string;
  /** Decimals of the y values shown (default 2). */
  decimals?: number;
  /** Unit after values in tooltips (e.g. 元). */
  unit?: string;
  /** Height in px (default 280). */
  height?: number;
  /** Call only while this holds on the record / conditions; otherwise show `hint`. */
  ready?: Condition;
  hint?: string;
}

/** table: rows the record carries (record[field], an array), drawn with column types; no paging. */
export interface TableSection extends Gated {
  type: 'table';
  title?: string;
  /** Record field holding the rows (dotted path allowed). */
  field: string;
  columns: ColumnSchema[];
  /** Row property identifying a row (default id). */
  rowKey?: string;
  /** Text shown when there are no rows (default 暂无数据). */
  empty?: string;
}

export type DetailSection = DescriptionsSection | ListSection | TabsSection | AuditSection | ChartSection | TableSection | ({ type: string } & Gated);

export interface DetailScreenPart {
  api: { get: ApiRef };
  idParam?: string;
  /**
   * The record is chosen on the screen: this filter's widget (e.g. a `lookup`) is drawn above the
   * sections and its value goes to the URL query `?<idParam>=` (a route without :id), which loads the
   * record; with none chosen yet the screen shows the picker and its placeholder.
   */
  pick?: FilterSchema;
  /** Field shown after the title. */
  titleField?: string;
  actions?: ActionSchema[];
  forms?: Record<string, FormPart>;
  sections: DetailSection[];
}

/** A line cell that searches a remote code and fills the line from the chosen row. */
export interface LineLookup {
  api: ApiRef;
  /** Body sent with {keyword}; "{header.x}" / "{line.x}" placeholders. */
  body?: Record<string, unknown>;
  /** What the cell shows for a line (placeholders from the line), e.g. "{productCode} {productName}". */
  display: string;
  /** Line field ← row field, copied when a row is chosen (the column's own field gets `value`). */
  fill?: Record<string, string>;
  /** Row field stored in the column's field (default id). */
  value?: string;
  /** Row field shown in the dropdown (default label, then name). */
  label?: string;
  placeholder?: string;
}

export interface LineColumn extends Omit<ColumnSchema, 'editable' | 'source'> {
  /** Editable cell (a registered line editor: input, number, money, lookup, units); absent → read-only. */
  editor?: string;
  /** Computed as the product of two line fields (e.g. ["qty", "price"]), exact. */
  product?: [string, string];
  /**
   * An editable amount that follows two line fields (["qty", "unitAmount"]) until one is typed: the cell
   * and the totals show the product while the cell is empty, and an empty cell is sent as nothing (the
   * server computes it the same way).
   */
  follows?: [string, string];
  /** A progress column (已发货, 已签收 …): hidden while no line holds a value other than 0. */
  hideWhenEmpty?: boolean;
  /** With product: a line field holding a discount in percent (the product × (100 − discount) / 100). */
  discount?: string;
  /** editor lookup. */
  lookup?: LineLookup;
}

/** Lines brought in from another document when a header field is chosen (a receiving note from its order). */
export interface LineSource {
  /** Each brought-in line is optional: one whose quantities and amounts the clerk leaves empty is not saved. */
  optional?: boolean;
  /** Header field whose value starts the load. */
  trigger: string;
  api: ApiRef;
  /** Body, "{field}" placeholders from the header values. */
  body: Record<string, unknown>;
  /** Where the rows are in the answer (default lines). */
  path?: string;
  /** Line field ← source row field. */
  map: Record<string, string>;
  /** Only source rows meeting this condition become lines. */
  keep?: Condition;
  /** Header field ← answer field, set along with the lines (e.g. the order's warehouse). */
  header?: Record<string, string>;
}

export interface DocumentScreenPart {
  /** A heading by the value of a field (direction: receipt → 收款单, payment → 付款单); the tab takes it too. */
  titleBy?: { field: string; values: Record<string, string> };
  api: { get: ApiRef; save?: ApiRef };
  idParam?: string;
  header: FormPart;
  lines: { field: string; rowKey?: string; columns: LineColumn[]; totals?: TotalsSchema; source?: LineSource };
  /** When an existing record may still be edited (default: always); a new one always may. */
  editable?: Condition;
  /** Route opened after a new document is saved, "{field}" from the answer (e.g. its id). */
  afterSave?: string;
  /** Header fields a new document takes from the URL query (?orderId=12). */
  prefill?: string[];
  /** Route opened after the document is removed (by the server's 删除 action). */
  afterRemove?: string;
  /** The document chain drawn under the lines ({docNo} → rows with route). */
  related?: { api: ApiRef; body?: Record<string, unknown> };
  /** Read-only sections under the lines (the detail kind's: e.g. a table of rows the get answer carries). */
  sections?: DetailSection[];
  /** Field holding the state, with its labels. */
  state?: { field: string; options?: OptionItem[]; dict?: string };
  actions?: ActionSchema[];
  forms?: Record<string, FormPart>;
  /** Audit trail entity (cdm 019702 filtered by entity and record id). */
  audit?: { entity: string; api?: ApiRef };
}

/** One way a report groups its rows: a choice above the table, its own label columns. */
export interface ReportGrouping {
  value: string;
  label: string;
  /** The group's label columns, drawn before the report's measure columns. */
  columns: ColumnSchema[];
  /** Sort of this grouping (default: the report's defaultSort, else the server's). */
  defaultSort?: { field: string; order: SortOrder };
}

/** A chart of the report's rows on the current page (a bar per group; a line for `line` groupings). */
export interface ReportChart {
  title?: string;
  /** Row property naming the group on the x axis (default 'label'). */
  x?: string;
  /** Measures drawn: field and series name. Pie and chinaMap draw the first. */
  series: { field: string; name: string }[];
  /** Chart part for every grouping without its own entry in `types` (default bar). */
  type?: ChartType;
  /** Chart part per grouping, e.g. {"month": "line", "province": "chinaMap"}. */
  types?: Record<string, ChartType>;
  height?: number;
  decimals?: number;
  /** Unit after values in tooltips (e.g. 元). */
  unit?: string;
}

/** The report kind: filters, a grouping choice, a summary table with totals over every group, an
 *  optional chart of the rows shown, and export (the report's list code answers totals). */
export interface ReportScreenPart extends Omit<ListPart, 'columns' | 'tree'> {
  /** The measure columns, after the grouping's label columns. */
  columns: ColumnSchema[];
  groupings: ReportGrouping[];
  /** Body property carrying the chosen grouping (default groupBy). */
  groupParam?: string;
  /** Grouping shown first (default: the first). */
  defaultGrouping?: string;
  chart?: ReportChart;
}
