// apiCall (form only): a 发送 button that sends a request the user composed in the form — the code
// and the JSON text named by `body` ({"api": "{api}", "body": "{body}"}, filled from the form values) —
// with the user's own session, like any call of the app (the server checks the user's rights), and
// shows the whole answer envelope (code, msg, data) and the time it took. It never changes its value.
import { observer, useForm } from '@formily/react';
import { Alert, Button, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { OK, type Envelope } from '../../../core/codes';
import { callApiRef } from '../../request';
import { fillBody } from '../template';
import { jsonError } from './json';
import type { WidgetDef, WidgetProps } from './types';

const ApiCallWidget = observer(function ApiCallWidget({ schema }: WidgetProps) {
  const form = useForm();
  const values = (form ? JSON.parse(JSON.stringify(form.values ?? {})) : {}) as Record<string, unknown>;
  const filled = fillBody(schema.body ?? { api: '{api}', body: '{body}' }, values) as { api?: unknown; body?: unknown };
  const api = typeof filled.api === 'string' ? filled.api : '';
  const text = typeof filled.body === 'string' ? filled.body : '';
  const [state, setState] = useState<{ env: Envelope; ms: number; api: string } | null>(null);
  const [sending, setSending] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const send = async () => {
    setProblem(null);
    if (!api) return setProblem('请先选择接口');
    const bad = jsonError(text);
    if (bad) return setProblem(bad);
    const body = text.trim() ? JSON.parse(text) : {};
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return setProblem('请求体必须是 JSON 对象（{ … }）');
    setSending(true);
    const started = performance.now();
    const env = (await callApiRef(api, body)) as Envelope;
    setState({ env, ms: Math.round(performance.now() - started), api });
    setSending(false);
  };
  return (
    <div className="renderer-api-call">
      <Space>
        <Button type="primary" loading={sending} onClick={() => void send()}>
          {schema.placeholder ?? '发送'}
        </Button>
        {problem && <Typography.Text type="danger">{problem}</Typography.Text>}
      </Space>
      {state && (
        <div style={{ marginTop: 8 }} className="renderer-api-call-answer">
          <Space style={{ marginBottom: 4 }}>
            <Tag color={state.env.code === OK ? 'green' : 'red'}>code {state.env.code}</Tag>
            <span>{state.api}</span>
            <span style={{ color: '#888' }}>{state.ms} 毫秒</span>
          </Space>
          {state.env.code !== OK && <Alert type="error" showIcon message={state.env.msg} style={{ marginBottom: 4 }} />}
          <pre
            aria-label="答复"
            style={{ maxHeight: 420, overflow: 'auto', background: '#fafafa', border: '1px solid #f0f0f0', borderRadius: 6, padding: 8, margin: 0, fontSize: 12 }}
          >
            {JSON.stringify(state.env, null, 2)}
          </pre>
        </div>
      )}
    </div>
  );
});

const apiCall: WidgetDef = { component: ApiCallWidget };
export default apiCall;
