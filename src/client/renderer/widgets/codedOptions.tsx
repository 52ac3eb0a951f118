// How the select and lookup widgets hand options to antd's Select and draw each one: the code (a
// product's, a supplier's) in its own span before the label, so a clerk who types codes sees them lined up.
import type { OptionItem } from '../types';

export interface CodedOption {
  value: string;
  label: string;
  code?: string;
  barcode?: string;
}

export function codedOptions(items: readonly OptionItem[]): CodedOption[] {
  return items.map((o) => ({ value: o.value as string, label: o.label, code: o.code, barcode: o.barcode }));
}

export function renderCodedOption(o: { data: CodedOption }) {
  return o.data.code ? (
    <>
      <span className="renderer-option-code">{o.data.code}</span> {o.data.label}
    </>
  ) : (
    o.data.label
  );
}
