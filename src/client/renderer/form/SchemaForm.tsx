// A formily form drawn from a FormPart: @formily/core createForm, @formily/react Field, the
// @formily/antd-v5 FormItem as decorator and our registered widgets as components. No SchemaField and
// no `{{ }}` expressions: visibility and disabling are schema conditions evaluated by our own code in
// field reactions (plain functions), so formily's expression compiler — which uses new Function — is
// never reached (and is replaced by a non-evaluating one in formilySafety.ts, just in case).
//
// Saving: validate, send {id?, version?, ...values} to the form's save code; a COMMON_VALIDATION_4000
// answer puts each data.errors[].message on its field (cleared as soon as the user edits that field),
// as does any refusal naming its fields (COMMON_UNIQUE_4011 data.field); errors naming no field of the
// form are listed above it.

import { createForm, onFieldInputValueChange, type Field as FormilyField, type Form } from '@formily/core';
import { Field, FormProvider } from '@formily/react';
import { FormItem } from '@formily/antd-v5/esm/form-item';
import { Alert, Col, Row } from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { OK } from '../../../core/codes';
import { readPath } from '../../../core/conditions';
import { actionCall } from '../actions/actionCall';
import { holds, passesStatic, useRenderEnv, type RenderEnv } from '../env';
import { widgets } from '../registries';
import type { FieldSchema, FormPart, FormPreview } from '../types';
import type { WidgetDef, WidgetProps } from '../widgets/types';
import './formilySafety';
import { requiredMessage, validateValue } from './rules';
import { trackUnsaved } from './unsavedChanges';

export type Row = Record<string, unknown>;

export const VALIDATION_CODE = 'COMMON_VALIDATION_4000';
const SERVER_ERROR = 'EffectError';

export interface ServerFieldError {
  field?: string;
  message: string;
}

/** Sets a value at a dotted path ("flags.presale"), creating the objects on the way. */
export function writePath(target: Row, path: string, value: unknown): void {
  const keys = path.split('.');
  let cur: Row = target;
  for (const k of keys.slice(0, -1)) {
    const next = cur[k];
    if (!next || typeof next !== 'object' || Array.isArray(next)) cur[k] = {};
    cur = cur[k] as Row;
  }
  cur[keys[keys.length - 1]!] = value;
}

/**
 * Values a form starts with: the record (edit) or the schema's defaults (new). Fields may be dotted
 * paths into nested objects ("flags.presale" reads record.flags.presale and is saved as {flags: {...}}).
 */
export function initialValuesOf(part: FormPart, record: Row | null | undefined): Row {
  if (record) {
    const out: Row = {};
    for (const f of part.fields) {
      const v = readPath(record, f.field);
      if (v !== undefined) writePath(out, f.field, v);
    }
    return out;
  }
  const out: Row = JSON.parse(JSON.stringify(part.initialValues ?? {})) as Row;
  for (const f of part.fields) if (f.defaultValue !== undefined && readPath(out, f.field) === undefined) writePath(out, f.field, f.defaultValue);
  return out;
}

export interface SchemaFormHandle {
  form: Form;
  /** Validate and save. Resolves to the saved row, or null (invalid, refused, or failed). */
  submit(): Promise<Row | null>;
  /** True after the user changed something that is not saved yet. */
  isDirty(): boolean;
  /** The values are saved by someone else (a document saving header and lines in one call). */
  markSaved(): void;
  /** Errors from the server that name no field of this form. */
  otherErrors: string[];
}

function toPlain(values: unknown): Row {
  // formily values are observable proxies; JSON keeps exactly what is sent.
  return JSON.parse(JSON.stringify(values ?? {})) as Row;
}

/** The form behind a FormPart, with saving. One per open form; `record` null means "new". */
export function useSchemaForm(part: FormPart, record: Row | null | undefined, saveRef?: string): SchemaFormHandle {
  const [otherErrors, setOtherErrors] = useState<string[]>([]);
  const saved = useRef(false);
  const form = useMemo(
    () =>
      createForm({
        initialValues: initialValuesOf(part, record),
        effects() {
          // A server message sticks to its field until the user edits that field.
          onFieldInputValueChange('*', (field) => {
            const f = field as FormilyField;
            if (f.feedbacks.some((fb) => fb.code === SERVER_ERROR)) f.setFeedback({ type: 'error', code: SERVER_ERROR, messages: [] });
          });
        },
      }),
    // A new record (or a new schema) is a new form.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [part, record],
  );

  // A query form (resultText) or a read-only one has nothing to lose on leaving.
  const tracks = !part.resultText && !part.readOnly;
  const dirty = () => tracks && form.modified && !saved.current;
  useEffect(() => trackUnsaved(dirty), [form]); // eslint-disable-line react-hooks/exhaustive-deps

  const submit = async (): Promise<Row | null> => {
    setOtherErrors([]);
    try {
      await form.validate();
    } catch {
      return null;
    }
    const ref = saveRef ?? part.api?.save;
    const values = toPlain(form.values);
    if (!ref) return values;
    const body: Row = { ...values };
    if (record?.id !== undefined) body.id = record.id;
    if (record?.version !== undefined) body.version = record.version;
    form.setSubmitting(true);
    // Field errors go on their fields; a silent refusal naming no field of this form is shown as a
    // message by actionCall, every other one by the request core.
    const placed: { rest: string[] | null } = { rest: null };
    const place = (e: { msg: string; data: unknown }): boolean => {
      const errors = serverFieldErrors(e.msg, e.data);
      if (!errors.length) return false;
      placed.rest = applyServerErrors(form, errors);
      return placed.rest.length === 0;
    };
    const env = await actionCall<Row>(ref, body, { inline: place });
    form.setSubmitting(false);
    if (env.code === OK) {
      saved.current = true;
      return (env.data ?? body) as Row;
    }
    if (placed.rest === null) place(env);
    // Validation messages naming no field are listed above the form.
    setOtherErrors(env.code === VALIDATION_CODE ? (placed.rest ?? []) : []);
    return null;
  };

  const markSaved = () => {
    saved.current = true;
  };
  return { form, submit, isDirty: dirty, markSaved, otherErrors };
}

/**
 * The field errors of a refused save: COMMON_VALIDATION_4000 lists them in data.errors; other refusals
 * that concern fields name them in data.fields / data.field (COMMON_UNIQUE_4011 {field: "code"}), and
 * then the message itself belongs on those fields.
 */
export function serverFieldErrors(msg: string, data: unknown): ServerFieldError[] {
  if (!data || typeof data !== 'object') return [];
  const d = data as { errors?: unknown; fields?: unknown; field?: unknown };
  if (Array.isArray(d.errors)) {
    return (d.errors as ServerFieldError[]).filter((e) => e && typeof e.message === 'string');
  }
  if (!msg) return [];
  if (Array.isArray(d.fields)) return d.fields.filter((f): f is string => typeof f === 'string').map((field) => ({ field, message: msg }));
  if (typeof d.field === 'string' && !d.field.includes('+')) return [{ field: d.field, message: msg }];
  return [];
}

/** Put each error on its field; returns the messages that name no visible field of the form. */
export function applyServerErrors(form: Form, errors: readonly ServerFieldError[]): string[] {
  const rest: string[] = [];
  for (const e of errors) {
    const field = e.field ? (form.query(e.field).take() as FormilyField | undefined) : undefined;
    if (field && 'setFeedback' in field && field.visible) field.setFeedback({ type: 'error', code: SERVER_ERROR, messages: [e.message] });
    else rest.push(e.message);
  }
  return rest;
}

/** Adapts a registered widget to formily: formily hands value/onChange/disabled/readOnly. */
function widgetComponent(def: WidgetDef) {
  return function FormWidget(props: Omit<WidgetProps, 'mode'>) {
    const C = def.component;
    return <C {...props} mode="form" />;
  };
}

const adapters = new WeakMap<WidgetDef, ReturnType<typeof widgetComponent>>();
function adapterFor(def: WidgetDef) {
  let a = adapters.get(def);
  if (!a) {
    a = widgetComponent(def);
    adapters.set(def, a);
  }
  return a;
}

type Pattern = 'editable' | 'readOnly' | 'disabled';

function SchemaFieldItem({ f, env, editing, locked, labelWidth }: { f: FieldSchema; env: RenderEnv; editing: boolean; locked: boolean; labelWidth: number }) {
  const def = widgets.peek(f.widget ?? 'input');
  if (!def) return null; // reported by the schema problems box
  const validator = (value: unknown) => validateValue(f, value) ?? '';
  // One pattern per field (formily's disabled=false / readOnly=false props would each reset it to
  // editable): a locked form is read-only throughout; else constant disabled, then readonlyOnEdit.
  const base: Pattern = locked ? 'readOnly' : f.disabled === true ? 'disabled' : editing && f.readonlyOnEdit === true ? 'readOnly' : 'editable';
  const conditionalDisable = !locked && f.disabled !== undefined && typeof f.disabled !== 'boolean';
  const needsReaction = f.visible !== undefined || conditionalDisable;
  // A locked form (a document in a state that allows no editing, or no right to save) reads as a record:
  // no input hints (descriptions, "请选择…" placeholders) — an empty value reads "-".
  // A field the user never types into (constant disabled: 制单人, totals) carries no input hint either.
  const schema = locked || f.disabled === true ? { ...f, placeholder: '-' } : f;
  return (
    <Field
      name={f.field}
      title={f.title}
      description={locked ? undefined : f.description}
      required={f.required && !locked}
      validator={[...(f.required ? [{ required: true, message: requiredMessage(f, !!def.choice) }] : []), validator]}
      pattern={base}
      decorator={[FormItem, { labelWidth, feedbackLayout: 'loose', asterisk: f.required && !locked }]}
      component={[adapterFor(def), { schema }]}
      reactions={
        needsReaction
          ? (field) => {
              const values = field.form.values as Row;
              if (f.visible !== undefined) field.visible = holds(f.visible, env, values);
              if (conditionalDisable) field.pattern = holds(f.disabled, env, values) ? 'disabled' : base;
            }
          : undefined
      }
    />
  );
}

/** The form's live preview (FormPart.preview), under the fields, through the htmlPreview widget. */
function PreviewItem({ preview, labelWidth }: { preview: FormPreview; labelWidth: number }) {
  const def = widgets.peek('htmlPreview');
  if (!def) return null;
  const C = def.component;
  const title = preview.title ?? '预览';
  return (
    <FormItem.BaseItem label={title} labelWidth={labelWidth} extra={preview.description} feedbackLayout="loose">
      <C schema={{ field: '__preview', title, widget: 'htmlPreview', api: preview.api, body: preview.body, height: preview.height, showPlaceholders: preview.showPlaceholders, needs: preview.needs }} mode="form" />
    </FormItem.BaseItem>
  );
}

export interface SchemaFormViewProps {
  handle: SchemaFormHandle;
  part: FormPart;
  /** Editing an existing record (readonlyOnEdit fields are read-only, createOnly fields hidden). */
  editing: boolean;
  /** Grid columns when the schema gives none. */
  defaultColumns?: number;
  /** Every field read-only (a read-only form, or a user without the right to save). */
  readOnly?: boolean;
}

/** The fields of a form, laid out in a grid (or in titled sections). */
export function SchemaFormView({ handle, part, editing, defaultColumns = 1, readOnly }: SchemaFormViewProps) {
  const env = useRenderEnv();
  const columns = Math.max(1, Math.min(4, part.layout?.columns ?? defaultColumns));
  const labelWidth = part.layout?.labelWidth ?? 100;
  const shown = part.fields.filter((f) => passesStatic(f, env) && !(editing && f.createOnly));
  const locked = readOnly === true || part.readOnly === true;
  const byName = new Map(shown.map((f) => [f.field, f]));

  const grid = (fields: FieldSchema[]) => (
    <Row gutter={16}>
      {fields.map((f) => {
        const wide = f.widget === 'rightsTree' || f.widget === 'textarea' || f.widget === 'htmlPreview' || f.widget === 'keyValue';
        const span = Math.max(1, Math.min(columns, f.span ?? (wide ? columns : 1)));
        return (
          <Col key={f.field} span={(24 / columns) * span}>
            <SchemaFieldItem f={f} env={env} editing={editing} locked={locked} labelWidth={labelWidth} />
          </Col>
        );
      })}
    </Row>
  );

  const sections = part.layout?.sections;
  return (
    <FormProvider form={handle.form}>
      <div className={locked ? 'renderer-form renderer-form-locked' : 'renderer-form'}>
      {handle.otherErrors.length > 0 && (
        <Alert type="error" showIcon style={{ marginBottom: 16 }} message={handle.otherErrors.map((m, i) => <div key={i}>{m}</div>)} />
      )}
      {sections
        ? sections.map((s) => (
            <div key={s.title} style={{ marginBottom: 8 }}>
              <div style={{ fontWeight: 600, margin: '8px 0 12px' }}>{s.title}</div>
              {grid(s.fields.map((n) => byName.get(n)).filter((f): f is FieldSchema => !!f))}
            </div>
          ))
        : grid(shown)}
      {part.preview && <PreviewItem preview={part.preview} labelWidth={labelWidth} />}
      </div>
    </FormProvider>
  );
}
