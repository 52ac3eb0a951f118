// The page of a route whose screen is not built yet (kind "placeholder"): named by its title, as the
// menu and tabs name it — a clerk reads 报关资料, not /baseConfig/customsList.

import { Result } from 'antd';
import type { ScreenProps } from './screenProps';

export default function PlaceholderPage({ meta }: ScreenProps) {
  return (
    <div data-testid="placeholder-page">
      <Result status="info" title={meta.title} subTitle={`“${meta.title}”页面正在建设中，敬请期待。`} />
    </div>
  );
}
