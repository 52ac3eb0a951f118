// Shown when a page throws while rendering: say so in Chinese and offer a way out. Plain markup: this
// is in the entry chunk, and antd's Result carries large illustrations.

import { Button } from 'antd';
import { useRouteError } from 'react-router-dom';

export function RouteErrorPage() {
  const error = useRouteError();
  const detail = error instanceof Error ? error.message : String(error ?? '');
  return (
    <div style={{ padding: '64px 24px', textAlign: 'center' }} role="alert">
      <h2 style={{ fontSize: 20, fontWeight: 600 }}>页面出错了</h2>
      <p style={{ color: 'rgba(0,0,0,0.45)', wordBreak: 'break-all' }}>{detail}</p>
      <Button type="primary" onClick={() => window.location.reload()}>
        刷新页面
      </Button>
    </div>
  );
}
