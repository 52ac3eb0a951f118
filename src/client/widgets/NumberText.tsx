// A business number box (quantities, days, amounts): a plain text input, never a spinner, so nothing
// changes a value behind the clerk's back — no arrow-key or wheel stepping, no clamping to min/max, no
// rounding on blur (antd InputNumber does all three). Input filter rules of spec §5 still apply (full
// width digits become half width, letters are dropped), but what would change the number's meaning is
// refused visibly instead: a dot or comma in an integer (int would turn "2.5" into 25), more decimals
// than allowed, a number beyond safe integers. The refused keystroke leaves the box as it was and a
// message under the pointer says why, until the next accepted input or the box loses focus.
// Range checks (min/max) belong to the form's rules, which name the range in the field's error.

import { Tooltip, type InputProps, type InputRef } from 'antd';
import { forwardRef, useState, type ChangeEvent } from 'react';
import { toHalfWidth } from '../../core/filters';
import { FilteredInput } from './FilteredInput';

export interface NumberTextProps extends Omit<InputProps, 'value' | 'onChange' | 'defaultValue'> {
  /** The value: a number (integers) or an exact decimal string; empty for none. */
  value?: unknown;
  /** Decimal places allowed: 0 (or none) for an integer. */
  decimals?: number;
  /** A minus sign is allowed (min below 0). */
  signed?: boolean;
  /** What the box is called in the refusal message. */
  title?: string;
  /** Called with the value in its type (see numberValue) each time what the box means changes. */
  onValue(value: number | string | undefined): void;
}

const asText = (v: unknown) => (v === undefined || v === null ? '' : String(v));
const sameValue = (a: unknown, b: unknown) => asText(a) === asText(b);

/** Why `raw` is refused as the next text of a number box, or undefined when it is accepted. */
export function numberRefusal(raw: string, decimals: number, signed: boolean, title = ''): string | undefined {
  const s = toHalfWidth(raw).replace(/。/g, '.').replace(/，/g, ',').trim();
  if (decimals <= 0 && /[.,]/.test(s)) return `${title}只能输入整数`;
  if (decimals > 0 && s.includes(',')) return `${title}请用小数点“.”，不要输入逗号`;
  if ((s.match(/\./g) ?? []).length > 1) return `${title}只能有一个小数点`;
  const frac = s.includes('.') ? s.slice(s.indexOf('.') + 1).replace(/\D/g, '') : '';
  if (decimals > 0 && frac.length > decimals) return `${title}最多 ${decimals} 位小数`;
  if (!signed && s.startsWith('-')) return `${title}不能为负数`;
  const digits = s.replace(/[^\d]/g, '').replace(/^0+/, '');
  if (digits.length - frac.length > 15) return `${title}数值太大`;
  return undefined;
}

/** The text a number box holds after `raw` was typed: digits, one dot, an optional leading minus. */
export function numberText(raw: string, decimals: number, signed: boolean): string {
  const s = toHalfWidth(raw).replace(/。/g, '.').trim();
  const minus = signed && s.startsWith('-') ? '-' : '';
  let body = s.replace(/[^\d.]/g, '');
  if (decimals <= 0) body = body.replace(/\./g, '');
  if (body.startsWith('.')) body = `0${body}`;
  body = body.replace(/^0+(?=\d)/, '');
  return minus + body;
}

export const NumberText = forwardRef<InputRef, NumberTextProps>(function NumberText(
  { value, decimals = 0, signed = false, title, onValue, onBlur, status, ...rest },
  ref,
) {
  // The box keeps its own text ("3." while a decimal is typed); the value is what the text means.
  const [text, setText] = useState(() => asText(value));
  const [seen, setSeen] = useState(value);
  if (!sameValue(seen, value)) {
    // Changed from outside (a lookup filled the line, a form reset): show the new value.
    setSeen(value);
    if (!sameValue(numberValue(text, decimals), value)) setText(asText(value));
  }
  const [refusal, setRefusal] = useState<string | undefined>();
  return (
    <Tooltip open={!!refusal} title={refusal} color="#cf1322" placement="topLeft">
      <FilteredInput
        {...rest}
        ref={ref}
        inputMode={decimals > 0 ? 'decimal' : 'numeric'}
        autoComplete="off"
        status={refusal ? 'error' : status}
        aria-invalid={refusal ? true : rest['aria-invalid']}
        value={text}
        onChange={(e: ChangeEvent<HTMLInputElement>) => {
          const raw = e.target.value;
          const why = numberRefusal(raw, decimals, signed, title);
          if (why) {
            e.target.value = text;
            setRefusal(why);
            return;
          }
          setRefusal(undefined);
          const next = numberText(raw, decimals, signed);
          if (e.target.value !== next) e.target.value = next;
          if (next === text) return;
          setText(next);
          const v = numberValue(next, decimals);
          if (!sameValue(v, value)) {
            setSeen(v);
            onValue(v);
          }
        }}
        onBlur={(e) => {
          setRefusal(undefined);
          onBlur?.(e);
        }}
      />
    </Tooltip>
  );
});

/**
 * The value a number box hands to its line or form, in the type the server expects: an integer as a
 * number, a decimal as its exact text (no binary float on the way), nothing for an empty box or a
 * number being typed ("-", "3.").
 */
export function numberValue(text: string, decimals: number): number | string | undefined {
  if (text === '' || text === '-') return undefined;
  if (decimals <= 0) {
    const n = Number(text);
    return Number.isSafeInteger(n) ? n : undefined;
  }
  return text.endsWith('.') ? text.slice(0, -1) : text;
}
