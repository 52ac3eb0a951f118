// The antd implementation of the presenter: `message` toasts, a `Modal.confirm` for server errors,
// `Spin fullscreen` for the processing overlay. Importing this module installs it as the default.
// The shell may call `setPresenter(createAntdPresenter({ message, modal }))` with the instances of
// `App.useApp()` so that toasts and modals follow the ConfigProvider theme and locale.

import { useSyncExternalStore, useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { CloseOutlined } from '@ant-design/icons';
import { Button, Modal, Space, Spin, message as staticMessage } from 'antd';
import type { MessageInstance } from 'antd/es/message/interface';
import type { ModalFuncProps } from 'antd';
import { setDefaultPresenter, type Presenter, type ToastKind } from './presenter';
import { saveBlob } from './download';
import { copyText } from './clipboard';
import {
  CLOSE_TEXT,
  COPY_SUCCESS_TEXT,
  COPY_TEXT,
  ERROR_TOAST_DURATION,
  OVERLAY_TEXT,
  TOAST_DURATION_MS,
} from './texts';

// ---- overlay view -------------------------------------------------------------------------------

let overlayVisible = false;
const overlayListeners = new Set<() => void>();
let mountedViews = 0;
let autoRoot: { unmount(): void } | null = null;

function setOverlayVisible(v: boolean): void {
  overlayVisible = v;
  for (const l of [...overlayListeners]) l();
  if (v && mountedViews === 0 && !autoRoot && typeof document !== 'undefined') {
    // Nobody mounted <ProcessingOverlay/>: mount one in its own root so the overlay still shows.
    const host = document.createElement('div');
    host.setAttribute('data-processing-overlay-root', '');
    document.body.appendChild(host);
    const root = createRoot(host);
    root.render(<ProcessingOverlay />);
    autoRoot = {
      unmount: () => {
        root.unmount();
        host.remove();
      },
    };
  }
}

function subscribeOverlay(l: () => void): () => void {
  overlayListeners.add(l);
  return () => overlayListeners.delete(l);
}

/** Full-screen processing overlay. The shell may mount it inside its ConfigProvider; optional. */
export function ProcessingOverlay(): JSX.Element | null {
  const visible = useSyncExternalStore(subscribeOverlay, () => overlayVisible, () => false);
  useEffect(() => {
    mountedViews += 1;
    return () => {
      mountedViews -= 1;
    };
  }, []);
  if (!visible) return null;
  return <Spin fullscreen spinning tip={OVERLAY_TEXT} size="large" />;
}

// ---- presenter ----------------------------------------------------------------------------------

interface ModalApi {
  confirm(props: ModalFuncProps): { destroy(): void };
}

export interface AntdPresenterParts {
  message?: Pick<MessageInstance, 'open' | 'destroy'>;
  modal?: ModalApi;
}

/** Build an antd presenter over `message`/`Modal` (static by default, or App.useApp() instances). */
export function createAntdPresenter(parts: AntdPresenterParts = {}): Presenter {
  const message = parts.message ?? staticMessage;
  const modal: ModalApi = parts.modal ?? Modal;
  let serverErrorOpen = false;

  const toast = (kind: ToastKind, text: string): void => {
    const isError = kind === 'error';
    // One refusal at a time: a newer warning or error replaces the one on screen (two refused clicks
    // leave one, the latest); other toasts are one per text — the same one again replaces itself and
    // restarts its time, while different news (保存成功, then 已确认…) stay side by side.
    const key = kind === 'warning' || kind === 'error' ? `refusal:${kind}` : `${kind}:${text}`;
    const close = () => message.destroy(key);
    message.open({
      key,
      type: kind,
      // Error toasts stay until dismissed (spec §9), so each carries a visible close control; the
      // whole toast still closes on a click too.
      content: isError ? (
        <span className="app-toast">
          <span className="app-toast-text">{text}</span>
          <Button type="text" size="small" className="app-toast-close" aria-label={CLOSE_TEXT} title={CLOSE_TEXT} icon={<CloseOutlined />} style={{ marginInlineStart: 8 }} onClick={(e) => { e.stopPropagation(); close(); }} />
        </span>
      ) : (
        text
      ),
      duration: isError ? ERROR_TOAST_DURATION : TOAST_DURATION_MS / 1000,
      onClick: isError ? close : undefined,
      style: isError ? { cursor: 'pointer' } : undefined,
    });
  };

  return {
    toast,
    serverError(title, text) {
      if (serverErrorOpen) return;
      serverErrorOpen = true;
      const copy = async (): Promise<void> => {
        if (await copyText(text)) toast('success', COPY_SUCCESS_TEXT);
      };
      // eslint-disable-next-line prefer-const
      let instance: { destroy(): void } | undefined;
      instance = modal.confirm({
        title,
        width: 640,
        content: (
          <pre style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all', maxHeight: 360, overflow: 'auto', margin: 0 }}>
            {text}
          </pre>
        ),
        footer: (
          <Space style={{ display: 'flex', justifyContent: 'flex-end', marginTop: 16 }}>
            <Button type="primary" onClick={() => void copy()}>
              {COPY_TEXT}
            </Button>
            <Button onClick={() => instance?.destroy()}>{CLOSE_TEXT}</Button>
          </Space>
        ),
        afterClose: () => {
          serverErrorOpen = false;
        },
      });
    },
    overlay(active) {
      setOverlayVisible(active);
    },
    saveFile(blob, fileName) {
      saveBlob(blob, fileName);
    },
  };
}

export const antdPresenter: Presenter = createAntdPresenter();
setDefaultPresenter(antdPresenter);
