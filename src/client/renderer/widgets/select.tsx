// select: choices from static options, a dictionary or a remote option code; searchable by label and by
// the option's code or barcode (a supplier by KS…, a product by its barcode).
//
// Enter or Tab after typing resolves what was typed (a scanner types and presses Enter within
// milliseconds, maybe before remote options have arrived): the option whose code, barcode or label is
// exactly the text, else the only option the text leaves; with neither, Enter keeps the list open and
// chooses nothing, Tab leaves choosing nothing. Enter after moving with the arrow keys takes the
// highlighted option, as usual. antd's own Enter/Tab would take whichever option is highlighted.
import { Select } from 'antd';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { exactMatch } from '../data/exactMatch';
import { useOptions } from '../data/useOptions';
import type { OptionItem } from '../types';
import { codedOptions, renderCodedOption } from './codedOptions';
import { placeholderOf, type WidgetDef, type WidgetProps } from './types';

const lower = (s: unknown) => (s === undefined || s === null ? '' : String(s).toLowerCase());

/** The option matches the typed text: in its label, code or barcode. */
export function optionMatches(o: Pick<OptionItem, 'label' | 'code' | 'barcode'>, text: string): boolean {
  const t = lower(text).trim();
  return !t || lower(o.label).includes(t) || lower(o.code).includes(t) || lower(o.barcode).includes(t);
}

/** What Enter takes for `text`: the exact code/barcode/label, else the only option left. */
export function resolveTyped(options: readonly OptionItem[], text: string): OptionItem | undefined {
  const exact = exactMatch(options as unknown as Record<string, unknown>[], text, ['code', 'barcode', 'label']);
  if (exact) return exact as unknown as OptionItem;
  const left = options.filter((o) => optionMatches(o, text));
  return left.length === 1 ? left[0] : undefined;
}

function SelectWidget({ value, onChange, disabled, readOnly, schema, mode }: WidgetProps) {
  const { options, loading } = useOptions(schema);
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const navigated = useRef(false);
  // Enter came before the options: resolved when they arrive.
  const pending = useRef<string | null>(null);
  const single = !schema.multiple;

  const take = (o: OptionItem) => {
    onChange?.(o.value);
    setText('');
    setOpen(false);
  };
  const resolve = (typed: string, enter: boolean) => {
    const hit = resolveTyped(options, typed);
    if (hit) take(hit);
    else if (enter) setOpen(true);
    else setText('');
  };
  useEffect(() => {
    if (loading || pending.current === null) return;
    const typed = pending.current;
    pending.current = null;
    resolve(typed, true);
  }, [loading, options]); // eslint-disable-line react-hooks/exhaustive-deps

  const onKeyDownCapture = (e: KeyboardEvent<HTMLDivElement>) => {
    if (!single) return;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') navigated.current = true;
    const enter = e.key === 'Enter';
    if ((!enter && e.key !== 'Tab') || e.nativeEvent.isComposing || e.ctrlKey || e.altKey || e.metaKey) return;
    const typed = text.trim();
    if (navigated.current && open) return; // the highlighted option, chosen by the clerk
    if (!typed) {
      // Nothing typed: Tab leaves without taking the highlighted option; Enter opens the list.
      if (open) e.stopPropagation();
      return;
    }
    e.stopPropagation();
    if (enter) e.preventDefault();
    if (loading) pending.current = typed;
    else resolve(typed, enter);
  };

  return (
    <div onKeyDownCapture={onKeyDownCapture} className="renderer-select">
      <Select
        style={{ width: '100%' }}
        aria-label={schema.title}
        value={value === undefined || value === null || value === '' ? undefined : (value as string)}
        onChange={(v: unknown) => {
          setText('');
          onChange?.(v === undefined || (Array.isArray(v) && v.length === 0) ? undefined : v);
        }}
        mode={schema.multiple ? 'multiple' : undefined}
        options={codedOptions(options)}
        optionRender={renderCodedOption}
        loading={loading}
        disabled={disabled || readOnly}
        allowClear={mode === 'filter' || !readOnly}
        showSearch
        searchValue={text}
        onSearch={(t) => {
          navigated.current = false;
          setText(t);
        }}
        open={open}
        onOpenChange={(o) => {
          setOpen(o);
          if (!o) navigated.current = false;
        }}
        onBlur={() => setText('')}
        filterOption={(input, o) => optionMatches({ label: String(o?.label ?? ''), code: o?.code as string | undefined, barcode: o?.barcode as string | undefined }, input)}
        maxTagCount="responsive"
        placeholder={placeholderOf(schema, true)}
      />
    </div>
  );
}

const select: WidgetDef = { component: SelectWidget, choice: true };
export default select;
