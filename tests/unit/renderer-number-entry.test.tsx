// @vitest-environment jsdom
// Business number fields change nothing silently (issue 22 item 6): in an integer box "2.5" used to
// become 25 (the int filter dropped the dot), ArrowDown stepped 30 to 29, 99999 was clamped to 3650 and
// 30.5 rounded to 31. Now a dot or comma in an integer is refused with a visible message and the box
// keeps what it had; arrow keys do not step; a value out of range reaches the form as typed and the form
// refuses it naming the range; the value handed over has the field's type (a number for an integer, the
// exact text for a decimal).
import { act, useState } from 'react';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { validateValue } from '../../src/client/renderer/form/rules';
import money from '../../src/client/renderer/widgets/money';
import number from '../../src/client/renderer/widgets/number';
import type { WidgetDef, WidgetSchema } from '../../src/client/renderer/widgets/types';
import { numberRefusal } from '../../src/client/widgets/NumberText';
import { mount, polyfillDom, resetAll, settle, type, unmount } from './renderer-harness';

beforeAll(polyfillDom);
beforeEach(resetAll);
afterEach(unmount);

const DAYS: WidgetSchema & { widget: string } = { field: 'paymentDays', title: '账期（天）', widget: 'number', decimals: 0, min: 0, max: 3650 };

/** A widget holding its value in state, as a form would; every value handed over is recorded. */
async function mountWidget(def: WidgetDef, schema: WidgetSchema, initial?: unknown) {
  const handed: unknown[] = [];
  function Holder() {
    const [value, setValue] = useState<unknown>(initial);
    const W = def.component;
    return (
      <W
        mode="form"
        schema={schema}
        value={value}
        onChange={(v) => {
          handed.push(v);
          setValue(v);
        }}
      />
    );
  }
  await mount(<Holder />);
  return { handed, input: document.querySelector(`input[aria-label="${schema.title}"]`) as HTMLInputElement };
}

const shownRefusal = () => document.querySelector('.ant-tooltip:not(.ant-tooltip-hidden) .ant-tooltip-inner')?.textContent ?? '';

describe('business number boxes', () => {
  it('an integer box refuses a dot or comma visibly and keeps its value; hands over numbers', async () => {
    const { handed, input } = await mountWidget(number, DAYS);
    await type(input, '2');
    expect(handed).toEqual([2]);
    await type(input, '2.5');
    expect(input.value).toBe('2');
    expect(shownRefusal()).toBe('账期（天）只能输入整数');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    await type(input, '2,5');
    expect(input.value).toBe('2');
    await type(input, '2。'); // a Chinese IME's full stop counts as a dot
    expect(input.value).toBe('2');
    expect(handed).toEqual([2]); // never 25
    await type(input, '25');
    expect(handed).toEqual([2, 25]);
    expect(shownRefusal()).toBe('');
    // full-width digits are read as digits (spec §5)
    await type(input, '３０');
    expect(handed).toEqual([2, 25, 30]);
  });

  it('arrow keys do not step the value; out of range is handed over as typed and refused naming the range', async () => {
    const { handed, input } = await mountWidget(number, DAYS, 30);
    expect(input.value).toBe('30');
    expect(input.getAttribute('role')).not.toBe('spinbutton');
    for (const key of ['ArrowDown', 'ArrowUp']) {
      await act(async () => {
        input.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }));
        input.dispatchEvent(new WheelEvent('wheel', { deltaY: 100, bubbles: true, cancelable: true }));
      });
    }
    await settle();
    expect(input.value).toBe('30');
    expect(handed).toEqual([]);
    await type(input, '99999');
    await act(async () => input.dispatchEvent(new FocusEvent('blur')));
    expect(input.value).toBe('99999'); // not clamped to 3650
    expect(handed).toEqual([99999]);
    expect(validateValue(DAYS, 99999)).toBe('账期（天）须在 0 到 3650 之间');
    expect(validateValue(DAYS, 30)).toBeUndefined();
  });

  it('a money box hands over exact text, refuses more decimals than allowed, never rounds', async () => {
    const { handed, input } = await mountWidget(money, { field: 'price', title: '单价', decimals: 2 });
    await type(input, '30.5');
    expect(handed).toEqual(['30.5']);
    await type(input, '30.555');
    expect(input.value).toBe('30.5');
    expect(shownRefusal()).toBe('单价最多 2 位小数');
    await type(input, '-1');
    expect(shownRefusal()).toBe('单价不能为负数');
    expect(handed).toEqual(['30.5']);
  });

  it('refusal rules', () => {
    expect(numberRefusal('1.', 0, false, '数量')).toBe('数量只能输入整数');
    expect(numberRefusal('1，5', 2, false, '单价')).toBe('单价请用小数点“.”，不要输入逗号');
    expect(numberRefusal('1.2.3', 2, false)).toBe('只能有一个小数点');
    expect(numberRefusal('1234567890123456', 0, false, '数量')).toBe('数量数值太大');
    expect(numberRefusal('-5', 0, true)).toBeUndefined();
    expect(numberRefusal('12abc', 0, false)).toBeUndefined(); // letters are dropped by the filter, as spec §5 says
  });
});
