// lookup: a select over a source too large to load at once (products): typing asks the remote code of
// `options` for {...body, keyword} (debounced) and offers what it answers; the chosen row's value (id)
// is the field's value. A value set from outside (the URL, a saved record) is shown with its label by
// asking the code once for {...body, id}. The code answers rows {id|value, label|name, code?, barcode?}.
//
// Enter or Tab resolves what was typed, like `select` (a scanner types the code and presses Enter within
// milliseconds, before any debounced search ran): the typed text is asked at once and the answer's row
// whose code, barcode or label is exactly the text — else its only row — is taken; with neither, Enter
// keeps the list open and chooses nothing, Tab leaves choosing nothing. Enter after moving with the arrow
// keys takes the highlighted row.
import { Select } from 'antd';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { searchRemoteOptions } from '../data/options';
import type { OptionItem, RemoteOptions } from '../types';
import { resolveTyped } from './select';
import { codedOptions, renderCodedOption } from './codedOptions';
import { placeholderOf, type WidgetDef, type WidgetProps } from './types';

const DEBOUNCE_MS = 250;

const isEmptyValue = (v: unknown) => v === undefined || v === null || v === '';

function LookupWidget({ value, onChange, disabled, readOnly, schema, mode }: WidgetProps) {
  const src = (schema.options && !Array.isArray(schema.options) ? schema.options : undefined) as RemoteOptions | undefined;
  const [options, setOptions] = useState<OptionItem[]>([]);
  const [chosen, setChosen] = useState<OptionItem | undefined>();
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [loading, setLoading] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  // The turn of the last search asked: an answer to an older one is dropped.
  const turn = useRef(0);
  const navigated = useRef(false);
  useEffect(() => () => clearTimeout(timer.current), []);

  const ask = (keyword: string): Promise<OptionItem[] | null> => {
    if (!src) return Promise.resolve([]);
    const mine = ++turn.current;
    setLoading(true);
    return searchRemoteOptions(src, { keyword }).then((list) => {
      if (mine !== turn.current) return null;
      setLoading(false);
      setOptions(list);
      return list;
    });
  };

  // The label of a value that did not come from this widget's own choice.
  useEffect(() => {
    if (isEmptyValue(value)) {
      setChosen(undefined);
      return;
    }
    if (chosen && String(chosen.value) === String(value)) return;
    const known = options.find((o) => String(o.value) === String(value));
    if (known || !src) {
      setChosen(known ?? { value: value as OptionItem['value'], label: String(value) });
      return;
    }
    let live = true;
    void searchRemoteOptions(src, { id: value }).then((list) => {
      if (live) setChosen(list.find((o) => String(o.value) === String(value)) ?? { value: value as OptionItem['value'], label: String(value) });
    });
    return () => {
      live = false;
    };
  }, [value]); // eslint-disable-line react-hooks/exhaustive-deps

  const take = (o: OptionItem) => {
    clearTimeout(timer.current);
    setChosen(o);
    setText('');
    setOpen(false);
    onChange?.(o.value);
  };

  const onKeyDownCapture = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') navigated.current = true;
    const enter = e.key === 'Enter';
    if ((!enter && e.key !== 'Tab') || e.nativeEvent.isComposing || e.ctrlKey || e.altKey || e.metaKey) return;
    const typed = text.trim();
    if (navigated.current && open) return; // the highlighted row, chosen by the clerk
    if (!typed) {
      if (open) e.stopPropagation();
      return;
    }
    e.stopPropagation();
    if (enter) e.preventDefault();
    clearTimeout(timer.current);
    void ask(typed).then((list) => {
      if (!list) return;
      const hit = resolveTyped(list, typed);
      if (hit) take(hit);
      else if (enter) setOpen(true);
      else setText('');
    });
  };

  // The chosen row stays among the choices, so the box shows its label while another search is open.
  const shown = chosen && !options.some((o) => String(o.value) === String(chosen.value)) ? [chosen, ...options] : options;
  return (
    <div onKeyDownCapture={onKeyDownCapture} className="renderer-select renderer-lookup">
      <Select
        style={{ width: '100%', minWidth: mode === 'filter' ? undefined : 240 }}
        aria-label={schema.title}
        value={isEmptyValue(value) ? undefined : (value as string)}
        onChange={(v: unknown) => {
          if (v === undefined || v === null) {
            setChosen(undefined);
            setText('');
            onChange?.(undefined);
            return;
          }
          const o = shown.find((x) => String(x.value) === String(v));
          if (o) take(o);
        }}
        options={codedOptions(shown)}
        optionRender={renderCodedOption}
        loading={loading}
        disabled={disabled || readOnly}
        allowClear={mode === 'filter' || !readOnly}
        showSearch
        filterOption={false}
        searchValue={text}
        onSearch={(t) => {
          navigated.current = false;
          setText(t);
          setOpen(true);
          clearTimeout(timer.current);
          timer.current = setTimeout(() => void ask(t.trim()), DEBOUNCE_MS);
        }}
        open={open}
        onOpenChange={(o) => {
          setOpen(o);
          if (!o) navigated.current = false;
          // Opening with nothing asked yet offers the first rows.
          if (o && !options.length && !text) void ask('');
        }}
        onBlur={() => setText('')}
        notFoundContent={loading ? '查询中…' : text ? '没有匹配的记录' : undefined}
        placeholder={placeholderOf(schema, true)}
      />
    </div>
  );
}

const lookup: WidgetDef = { component: LookupWidget, choice: true };
export default lookup;
