// Chinese everywhere (antd zh_CN, dayjs zh-cn). Toasts and modals go through the request core's
// presenter (antd's static message/Modal with the same durations); antd's <App> wrapper is left out
// because it pulls notification code into the entry chunk that /login loads.

import { ConfigProvider } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import type { ReactNode } from 'react';
import { ProcessingOverlay } from '../request';

dayjs.locale('zh-cn');

function Config({ children }: { children: ReactNode }) {
  // autoInsertSpace off: antd would show two-character button labels as "登 录", "复 制".
  return (
    <ConfigProvider locale={zhCN} button={{ autoInsertSpace: false }}>
      {children}
    </ConfigProvider>
  );
}

// Static message/Modal (used by the request core) render outside the React tree: give them the same
// locale and settings.
ConfigProvider.config({ holderRender: (children) => <Config>{children}</Config> });

export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <Config>
      <ProcessingOverlay />
      {children}
    </Config>
  );
}
