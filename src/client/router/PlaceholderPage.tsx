// The page of a route whose screen is not built yet (kind "placeholder").

import { Result } from 'antd';
import type { ScreenProps } from './screenProps';

export default function PlaceholderPage({ meta }: ScreenProps) {
  return (
    <div data-testid="placeholder-page">
      <Result
        status="info"
        title={meta.title}
        subTitle="该页面正在建设中，敬请期待。"
        extra={<span style={{ color: 'rgba(0,0,0,0.45)' }}>{meta.route}</span>}
      />
    </div>
  );
}
