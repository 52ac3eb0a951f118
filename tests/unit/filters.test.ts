// @vitest-environment jsdom
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { act, createElement, useState } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { applyFilter, isKnownFilter, parseDecimalsFilter, toHalfWidth } from '../../src/core/filters';
import { FilteredInput } from '../../src/client/widgets/FilteredInput';

describe('toHalfWidth', () => {
  it('converts full-width digits, letters, punctuation and the ideographic space', () => {
    expect(toHalfWidth('１２３ＡＢｃ－．　x')).toBe('123ABc-. x');
  });
});

describe('applyFilter', () => {
  it('int: digits only, leading zeros stripped', () => {
    expect(applyFilter('int', '0012a3')).toBe('123');
    expect(applyFilter('int', '０１２３')).toBe('123');
    expect(applyFilter('int', '0')).toBe('0');
    expect(applyFilter('int', '000')).toBe('0');
    expect(applyFilter('int', '-12.5')).toBe('125');
    expect(applyFilter('int', ' 1 2\n3\t')).toBe('123');
    expect(applyFilter('int', '一二三')).toBe('');
  });
  it('code: digits and minus', () => {
    expect(applyFilter('code', 'A-01-02-S')).toBe('-01-02-');
    expect(applyFilter('code', '０１－０２')).toBe('01-02');
    expect(applyFilter('code', '12 34\n')).toBe('1234');
  });
  it('letter: letters, dots and spaces; pasted newlines become one space', () => {
    expect(applyFilter('letter', 'Mr. Smith 3rd!')).toBe('Mr. Smith rd');
    expect(applyFilter('letter', 'ＡＢＣ．ｄ')).toBe('ABC.d');
    expect(applyFilter('letter', 'ab\r\ncd\tef')).toBe('ab cd ef');
    expect(applyFilter('letter', '中文abc')).toBe('abc');
  });
  it('intAndLetter: alphanumerics only', () => {
    expect(applyFilter('intAndLetter', 'AB-12 cd_3！')).toBe('AB12cd3');
    expect(applyFilter('intAndLetter', 'ＳＫＵ００１')).toBe('SKU001');
    expect(applyFilter('intAndLetter', 'é中1')).toBe('1');
  });
  it('noChinese: removes Chinese characters and CJK punctuation, keeps the rest', () => {
    expect(applyFilter('noChinese', 'abc中文123')).toBe('abc123');
    expect(applyFilter('noChinese', 'A，B。C、D')).toBe('A,BCD');
    expect(applyFilter('noChinese', 'x𠀀y')).toBe('xy');
    expect(applyFilter('noChinese', 'a b\nc')).toBe('a b\nc');
  });
  it('trim: leading whitespace only', () => {
    expect(applyFilter('trim', '  \n\t a b ')).toBe('a b ');
    expect(applyFilter('trim', '　全角空格')).toBe('全角空格');
  });
  it('trimAll: every space, tab and newline', () => {
    expect(applyFilter('trimAll', ' a b\n c\t d　e ')).toBe('abcde');
  });
  it('decimals:n: a non-negative number with at most n decimals', () => {
    expect(applyFilter('decimals:3', '12.34567')).toBe('12.345');
    expect(applyFilter('decimals:3', '00.5')).toBe('0.5');
    expect(applyFilter('decimals:3', '.5')).toBe('0.5');
    expect(applyFilter('decimals:3', '1.2.3')).toBe('1.23');
    expect(applyFilter('decimals:3', '-1.5')).toBe('1.5');
    expect(applyFilter('decimals:3', '１２．３４')).toBe('12.34');
    expect(applyFilter('decimals:3', '12。5')).toBe('12.5');
    expect(applyFilter('decimals:3', '12.')).toBe('12.');
    expect(applyFilter('decimals:3', ' 1,234.5\n')).toBe('1234.5');
    expect(applyFilter('decimals:0', '12.7')).toBe('127');
    expect(applyFilter('decimals(2)', '1.239')).toBe('1.23');
    expect(applyFilter('decimals', '1.239')).toBe('1.23');
  });
  it('intFilterF: optionally negative, at most 2 decimals', () => {
    expect(applyFilter('intFilterF', '-12.345')).toBe('-12.34');
    expect(applyFilter('intFilterF', '-')).toBe('-');
    expect(applyFilter('intFilterF', '--1')).toBe('-1');
    expect(applyFilter('intFilterF', '1-2')).toBe('12');
    expect(applyFilter('intFilterF', '－００３．１')).toBe('-3.1');
    expect(applyFilter('intFilterF', '-.5')).toBe('-0.5');
    expect(applyFilter('intFilterF', 'abc')).toBe('');
  });
  it('unknown or missing filters leave the value as typed', () => {
    expect(applyFilter('nope', '１ a')).toBe('１ a');
    expect(applyFilter(undefined, 'x')).toBe('x');
    expect(applyFilter('int', null)).toBe('');
  });
  it('knows its filter names', () => {
    expect(isKnownFilter('int')).toBe(true);
    expect(isKnownFilter('decimals:4')).toBe(true);
    expect(isKnownFilter('decimal')).toBe(false);
    expect(parseDecimalsFilter('decimals:4')).toBe(4);
    expect(parseDecimalsFilter('int')).toBeUndefined();
  });
});

// ---- FilteredInput ------------------------------------------------------------------------------

beforeAll(() => {
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
  if (!window.matchMedia) {
    window.matchMedia = ((q: string) => ({
      matches: false,
      media: q,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    })) as unknown as typeof window.matchMedia;
  }
});

let root: Root | null = null;
let host: HTMLElement | null = null;
afterEach(() => {
  act(() => root?.unmount());
  host?.remove();
  root = null;
  host = null;
});

/** Type like a browser does: set the DOM value through the native setter, then fire `input`. */
function type(input: HTMLInputElement, value: string): void {
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
  act(() => {
    setter.call(input, value);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

function composition(input: HTMLInputElement, kind: 'compositionstart' | 'compositionend', data = ''): void {
  act(() => {
    input.dispatchEvent(new CompositionEvent(kind, { bubbles: true, data }));
  });
}

function mountControlled(filter: string, initial = '') {
  const seen: string[] = [];
  function Harness() {
    const [v, setV] = useState(initial);
    return createElement(FilteredInput, {
      filter,
      value: v,
      onChange: (e) => {
        seen.push(e.target.value);
        setV(e.target.value);
      },
    });
  }
  host = document.createElement('div');
  document.body.appendChild(host);
  root = createRoot(host);
  act(() => root!.render(createElement(Harness)));
  return { input: host.querySelector('input')!, seen };
}

describe('FilteredInput', () => {
  it('filters typed and pasted text (controlled)', () => {
    const { input, seen } = mountControlled('int');
    type(input, '0１2a3');
    expect(input.value).toBe('123');
    expect(seen).toEqual(['123']);
    type(input, '123x'); // a rejected key changes nothing
    expect(input.value).toBe('123');
    expect(seen).toEqual(['123']);
    type(input, ' 4 5\n6 ');
    expect(input.value).toBe('456');
  });

  it('does not filter while an IME composes and applies the filter on compositionend', () => {
    const { input, seen } = mountControlled('noChinese', 'ab');
    composition(input, 'compositionstart');
    type(input, 'abzhong');
    expect(input.value).toBe('abzhong'); // pinyin stays visible while composing
    type(input, 'ab中');
    expect(input.value).toBe('ab中');
    expect(seen).toEqual([]); // the parent is not told about intermediate text
    composition(input, 'compositionend', '中');
    expect(input.value).toBe('ab');
    expect(seen).toEqual([]); // filtered result equals the old value: no change event
    composition(input, 'compositionstart');
    type(input, 'ab中x');
    composition(input, 'compositionend', '中x');
    expect(input.value).toBe('abx');
    expect(seen).toEqual(['abx']);
  });

  it('works uncontrolled with a defaultValue', () => {
    host = document.createElement('div');
    document.body.appendChild(host);
    root = createRoot(host);
    const seen: string[] = [];
    act(() =>
      root!.render(
        createElement(FilteredInput, { filter: 'decimals:2', defaultValue: '1.239', onChange: (e) => seen.push(e.target.value) }),
      ),
    );
    const input = host.querySelector('input')!;
    expect(input.value).toBe('1.23');
    type(input, '１２．３４５');
    expect(input.value).toBe('12.34');
    expect(seen).toEqual(['12.34']);
  });

  it('selects the whole content on focus when it holds a value', () => {
    const { input } = mountControlled('trim', 'hello');
    act(() => input.focus());
    expect(input.selectionStart).toBe(0);
    expect(input.selectionEnd).toBe(5);
  });

  it('does not select anything on focus when empty', () => {
    const { input } = mountControlled('trim', '');
    act(() => input.focus());
    expect(input.selectionStart).toBe(input.selectionEnd);
  });
});
