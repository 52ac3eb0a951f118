// The bench:render page. ?mode=renderer draws the list with our renderer (ListView from a schema);
// ?mode=protable draws a hand-written ProTable with the same columns (?virtual=1 turns on antd's virtual
// rows, as a careful developer would for big pages). Each mode loads only its own code. Both get the
// same rows (generated in the page) through the real request core, answered by an in-page fake
// transport, and stamp `window.__bench.drawn` (ms since navigation) once the rows are painted.
// ?mode=doc draws a document's line table with our LineTable and editors; ?mode=docbase the same table
// written by hand with antd (the lines are generated in the page; no request). Those pages also stamp
// `renderStart` (ms since navigation when React starts drawing, after the renderer's types are loaded).

import { ConfigProvider } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import { AxiosHeaders, type InternalAxiosRequestConfig } from 'axios';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import type { ReactElement } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { http } from '../../src/client/request';
import { setSession } from '../../src/client/session';
import { setTokens } from '../../src/client/session/storage';
import { currencies, makeRows } from './data';
import { mode, n } from './params';

dayjs.locale('zh-cn');

interface Bench {
  drawn?: number;
  renderStart?: number;
  cspViolations: number;
  rows: number;
  mode: string;
}
declare global {
  interface Window {
    __bench: Bench;
  }
}

window.__bench = { cspViolations: 0, rows: n, mode };
document.addEventListener('securitypolicyviolation', () => (window.__bench.cspViolations += 1));

const rows = makeRows(n);

function markDrawn(): void {
  // Rows in the DOM and no loading mask: wait two frames so they are painted, then stamp.
  const check = () => {
    const ready = document.querySelector('.ant-table-tbody .ant-table-row') && !document.querySelector('.ant-table-wrapper .ant-spin-spinning');
    if (!ready) return requestAnimationFrame(check);
    requestAnimationFrame(() => requestAnimationFrame(() => (window.__bench.drawn = performance.now())));
  };
  requestAnimationFrame(check);
}

// Both pages get their rows the same way: a logged-in session and an in-page server behind the real
// request core (callApi → axios → this adapter), as a list page in the app would.
function installServer() {
  setTokens({ accessToken: 'bench', refreshToken: 'bench' });
  setSession({
    functionRights: [], companyName: '基准', employeeName: '基准', companyId: 1, companyCode: 'B', defaultLanguage: 'zh-CN', timeZone: 8, userName: 'bench', accountId: 1,
    warehouseCode: 'W', warehouseId: 1, purchasePriceId: null, salePriceId: null, currencyList: currencies, currencyId: 1, currencyCharacter: '¥',
    receMultiple: 1, addRooType: 0, limitMultiple: 1, ceilingMultiple: 1, containerType: [], personnel: [], flags: {},
  });
  http.defaults.adapter = async (config: InternalAxiosRequestConfig) => {
    const code = (config.url ?? '').split('/').pop();
    const data = code === '012101' ? { list: rows, total: rows.length, page: 1, pageSize: n } : null;
    return { data: { code: '200', msg: '', data }, status: 200, statusText: 'OK', headers: AxiosHeaders.from({ 'content-type': 'application/json' }), config };
  };
}

installServer();
interface PageModule {
  default: () => ReactElement;
  /** Work before the first render (the renderer's lazily loaded types). */
  prepare?: () => Promise<void>;
}
const pages: Record<string, () => Promise<PageModule>> = {
  renderer: () => import('./rendererPage'),
  protable: () => import('./proTablePage'),
  doc: () => import('./docPage'),
  docbase: () => import('./docBaselinePage'),
};
void (pages[mode] ?? pages.renderer!)().then(async (m: PageModule) => {
  await m.prepare?.();
  const Page = m.default;
  window.__bench.renderStart = performance.now();
  createRoot(document.getElementById('root')!).render(
    <ConfigProvider locale={zhCN}>
      <BrowserRouter>
        <Page />
      </BrowserRouter>
    </ConfigProvider>,
  );
  markDrawn();
});
