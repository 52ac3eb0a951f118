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

// Colours readable by everyone (WCAG AA, 4.5:1 for text): antd's default blue under white button text
// (4.1:1) and its grey secondary texts (45 % black, 3.9:1) fall short; these are the nearest that pass.
export const THEME = {
  token: {
    colorPrimary: '#0958d9',
    colorLink: '#0958d9',
    colorTextSecondary: 'rgba(0, 0, 0, 0.65)',
    colorTextTertiary: 'rgba(0, 0, 0, 0.6)',
    colorTextDescription: 'rgba(0, 0, 0, 0.6)',
    colorTextPlaceholder: 'rgba(0, 0, 0, 0.5)',
    colorTextDisabled: 'rgba(0, 0, 0, 0.5)',
    colorError: '#cf1322',
    // The end-to-end build (vite --mode e2e) draws without animations: a dropdown sliding in while its
    // options change (a lookup narrowing as the code is typed) is what a test would otherwise wait on.
    motion: import.meta.env.MODE !== 'e2e',
  },
};

function Config({ children }: { children: ReactNode }) {
  // autoInsertSpace off: antd would show two-character button labels as "登 录", "复 制".
  return (
    <ConfigProvider locale={zhCN} button={{ autoInsertSpace: false }} theme={THEME}>
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
