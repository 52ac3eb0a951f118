// json: a JSON text editor — monospace, the parse error under it as it is typed, 格式化 to indent it.
// Its value is the text. With `api` (form only), the text is prefilled from that code's answer
// (`template`, JSON text) for `body` filled from the form values (e.g. {"api": "{api}"}), asked again
// when they change — unless the user has edited the text since the last prefill.
import { observer, useForm } from '@formily/react';
import { Button, Input, Space, Typography } from 'antd';
import { useEffect, useRef } from 'react';
import { OK } from '../../../core/codes';
import { actionCall } from '../actions/actionCall';
import { previewBody } from './htmlPreview';
import type { WidgetDef, WidgetProps } from './types';

/** The parse error of a JSON text in Chinese, or null when it parses (empty text parses as nothing). */
export function jsonError(text: string): string | null {
  if (!text.trim()) return null;
  try {
    JSON.parse(text);
    return null;
  } catch (e) {
    return `JSON 格式错误：${(e as Error).message}`;
  }
}

function usePrefill(schema: WidgetProps['schema'], value: string, onChange: WidgetProps['onChange']) {
  const form = useForm();
  const values = (schema.api && form ? JSON.parse(JSON.stringify(form.values ?? {})) : {}) as Record<string, unknown>;
  const body = schema.api ? previewBody(schema.body, values) : null;
  const key = body ? JSON.stringify(body) : '';
  const lastTemplate = useRef<string | null>(null);
  const current = useRef(value);
  current.current = value;
  useEffect(() => {
    if (!schema.api || !body) return;
    let live = true;
    // asked once the values settle (and once under StrictMode's double effect: identical calls in flight are dropped)
    const timer = setTimeout(() => {
      void actionCall<{ template?: string }>(schema.api!, body).then((env) => {
        if (!live || env.code !== OK || typeof env.data?.template !== 'string') return;
        const untouched = !current.current.trim() || current.current === lastTemplate.current;
        lastTemplate.current = env.data.template;
        if (untouched) onChange?.(env.data.template);
      });
    }, 300);
    return () => {
      live = false;
      clearTimeout(timer);
    };
    // `key` stands for the body's content.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [schema.api, key]);
}

const JsonWidget = observer(function JsonWidget({ value, onChange, disabled, readOnly, schema }: WidgetProps) {
  const text = value === undefined || value === null ? '' : String(value);
  usePrefill(schema, text, onChange);
  const error = jsonError(text);
  return (
    <div className="renderer-json-widget">
      <Input.TextArea
        aria-label={schema.title}
        value={text}
        onChange={(e) => onChange?.(e.target.value)}
        disabled={disabled}
        readOnly={readOnly}
        spellCheck={false}
        status={error ? 'error' : undefined}
        autoSize={{ minRows: schema.rows ?? 8, maxRows: Math.max(24, (schema.rows ?? 8) * 2) }}
        style={{ fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', fontSize: 13 }}
        placeholder={schema.placeholder ?? '{ }'}
      />
      <Space style={{ marginTop: 4 }}>
        {!readOnly && !disabled && (
          <Button size="small" disabled={!!error || !text.trim()} onClick={() => onChange?.(JSON.stringify(JSON.parse(text), null, 2))}>
            格式化
          </Button>
        )}
        {error && <Typography.Text type="danger" className="renderer-json-error">{error}</Typography.Text>}
      </Space>
    </div>
  );
});

const json: WidgetDef = { component: JsonWidget };
export default json;
