// Draws one route: loads the rest of its screen file, checks the company flag, hands over to the
// component registered for its kind.

import { ConfigProvider, Result } from 'antd';
import { Suspense, useEffect, useState, type ReactNode } from 'react';
import { COMPANY_FLAGS, type CompanyFlag } from '../../core/flags';
import { loadChunk } from './lazyChunk';
import { PageLoading } from './PageLoading';
import { loadScreenFile } from './screenFiles';
import { rendererFor } from './screenRegistry';
import type { ScreenFile, ScreenRoute } from './screenTypes';
import { currentFlags } from './sessionAccess';
import './touch.css';

type State = { status: 'loading' } | { status: 'ready'; file: ScreenFile } | { status: 'failed'; error: string };

function useScreenFile(meta: ScreenRoute): State {
  const [state, setState] = useState<State>({ status: 'loading' });
  useEffect(() => {
    let live = true;
    setState({ status: 'loading' });
    loadChunk(() => loadScreenFile(meta.file)).then(
      (file) => live && setState({ status: 'ready', file }),
      (error: unknown) => live && setState({ status: 'failed', error: error instanceof Error ? error.message : String(error) }),
    );
    return () => {
      live = false;
    };
  }, [meta.file]);
  return state;
}

/** Large antd controls, and a body class so that modals and drawers (drawn outside the page) grow too. */
function TouchPage({ children }: { children: ReactNode }) {
  useEffect(() => {
    document.body.classList.add('touch-page');
    return () => document.body.classList.remove('touch-page');
  }, []);
  return (
    <ConfigProvider componentSize="large">
      <div className="screen-touch" data-touch="true">
        {children}
      </div>
    </ConfigProvider>
  );
}

export default function ScreenPage({ meta }: { meta: ScreenRoute }) {
  const state = useScreenFile(meta);
  if (state.status === 'loading') return <PageLoading />;
  if (state.status === 'failed') return <Result status="error" title="页面加载失败" subTitle={state.error} />;

  const { file } = state;
  if (file.flag && !currentFlags()[file.flag]) {
    const flagName = COMPANY_FLAGS[file.flag as CompanyFlag] ?? file.flag;
    return <Result status="warning" title={meta.title} subTitle={`本公司未开启“${flagName}”，该功能不可用。`} />;
  }
  const Screen = rendererFor(file.kind, file.component);
  if (!Screen) return <Result status="error" title="页面未注册" subTitle={`自定义页面“${file.component ?? ''}”不存在`} />;
  const screen = (
    <Suspense fallback={<PageLoading />}>
      <Screen meta={meta} file={file} />
    </Suspense>
  );
  // A touch page (a tablet on the floor) is the same screen kind with large controls: a property of the
  // page, not a second app.
  if (!file.touch) return screen;
  return <TouchPage>{screen}</TouchPage>;
}
