// antd Input with an input filter (spec §5) applied to what is typed or pasted. While an IME is
// composing (compositionstart … compositionend) the text is left alone and the parent is not told; the
// filter is applied once on compositionend. Focusing the input selects its whole content when it holds a
// value (spec §1). Works controlled (value/onChange, antd Form, formily) or uncontrolled.

import { forwardRef, useRef, useState, type ChangeEvent, type SyntheticEvent } from 'react';
import { Input, type InputProps, type InputRef } from 'antd';
import { applyFilter } from '../../core/filters';

export interface FilteredInputProps extends InputProps {
  /** A filter name: int, code, letter, intAndLetter, noChinese, trim, trimAll, decimals:n, intFilterF. */
  filter?: string;
}

function asText(v: unknown): string {
  return v === undefined || v === null ? '' : String(v);
}

export const FilteredInput = forwardRef<InputRef, FilteredInputProps>(function FilteredInput(
  { filter, value, defaultValue, onChange, onFocus, onMouseUp, onCompositionStart, onCompositionEnd, ...rest },
  ref,
) {
  const controlled = value !== undefined;
  const [inner, setInner] = useState<string>(() => applyFilter(filter, asText(defaultValue)));
  const [draft, setDraft] = useState<string | null>(null);
  const composing = useRef(false);
  const keepSelectionUntil = useRef(0);
  const current = controlled ? asText(value) : inner;

  const emit = (e: SyntheticEvent<HTMLInputElement>, raw: string): void => {
    const next = applyFilter(filter, raw);
    const target = (e.target ?? e.currentTarget) as HTMLInputElement;
    if (target && 'value' in target && target.value !== next) target.value = next;
    if (next === current) return;
    if (!controlled) setInner(next);
    onChange?.(e as ChangeEvent<HTMLInputElement>);
  };

  return (
    <Input
      {...rest}
      ref={ref}
      value={draft ?? current}
      onChange={(e) => {
        if (composing.current) {
          setDraft(e.target.value);
          return;
        }
        emit(e, e.target.value);
      }}
      onCompositionStart={(e) => {
        composing.current = true;
        setDraft(e.currentTarget.value);
        onCompositionStart?.(e);
      }}
      onCompositionEnd={(e) => {
        composing.current = false;
        setDraft(null);
        emit(e, e.currentTarget.value);
        onCompositionEnd?.(e);
      }}
      onFocus={(e) => {
        if (e.currentTarget.value) {
          e.currentTarget.select();
          keepSelectionUntil.current = Date.now() + 500;
        }
        onFocus?.(e);
      }}
      onMouseUp={(e) => {
        // The mouseup of the click that focused the input would otherwise collapse the selection.
        if (keepSelectionUntil.current > Date.now()) {
          keepSelectionUntil.current = 0;
          e.preventDefault();
        }
        onMouseUp?.(e);
      }}
    />
  );
});

export default FilteredInput;
