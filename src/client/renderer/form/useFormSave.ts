// Saving a schema form, the same in a modal and on a page: one submit at a time, the caret to the first
// invalid field when validation fails, a query form (resultText) shows its answer in place, any other
// shows its success text and hands the saved row on.
import { useState, type RefObject } from 'react';
import { toast } from '../../request';
import { fillText } from '../template';
import { SAVED_TEXT } from '../texts';
import type { FormPart } from '../types';
import type { Row, SchemaFormHandle } from './SchemaForm';
import { afterPaint, focusFirstInvalid } from './keyboard';

/** Values and answer together, for success and result texts ({currencyName} from the answer, {date} typed). */
export function submittedData(values: unknown, row: Row): Row {
  return { ...(JSON.parse(JSON.stringify(values ?? {})) as Row), ...row };
}

export interface FormSave {
  saving: boolean;
  /** The answer of a query form (resultText), shown where the form is. */
  result: string | null;
  /** Submits; the saved row, or null when refused, still saving or a query form. */
  save(): Promise<Row | null>;
}

export function useFormSave(handle: SchemaFormHandle, part: FormPart, box: RefObject<HTMLElement | null>, onSaved: (row: Row) => void): FormSave {
  const [saving, setSaving] = useState(false);
  const [result, setResult] = useState<string | null>(null);
  const save = async (): Promise<Row | null> => {
    if (saving) return null;
    setSaving(true);
    setResult(null);
    const row = await handle.submit();
    setSaving(false);
    if (!row) {
      afterPaint(() => focusFirstInvalid(box.current));
      return null;
    }
    const data = submittedData(handle.form.values, row);
    if (part.resultText) {
      setResult(fillText(part.resultText, data));
      return null;
    }
    toast.success(part.successText ? fillText(part.successText, data) : SAVED_TEXT);
    onSaved(row);
    return row;
  };
  return { saving, result, save };
}
