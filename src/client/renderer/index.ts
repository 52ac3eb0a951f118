// The renderer's public surface. Screen kinds are registered with the router (router/screenRegistry.ts
// `kindRenderers`: list, form, detail, document → ./kinds/*); column types, widgets, actions and detail
// sections with the registries below.
export { Registry, resolveAll, type Loader, type SchemaProblem, type Use } from './registry';
export { actions, columnTypes, sections, widgets } from './registries';
export type { ColumnTypeDef, CellContext, CellRenderer } from './columns/types';
export type { WidgetDef, WidgetProps, WidgetSchema } from './widgets/types';
export type { ActionDef, ActionProps, ActionScope } from './actions/types';
export type { SectionDef, SectionProps } from './detail/types';
export { ListView, type ListViewProps } from './list/ListView';
export { FormModal, type FormModalProps } from './form/FormModal';
export { SchemaFormView, useSchemaForm, applyServerErrors } from './form/SchemaForm';
export { hasUnsavedChanges, confirmLeave, trackUnsaved } from './form/unsavedChanges';
export type * from './types';
