// htmlPreview: shows an HTML (or plain-text) document safely — in an iframe with an empty `sandbox`
// (no scripts, no forms, no same-origin access, no navigation of the app) whose `srcdoc` also carries
// its own Content-Security-Policy (no remote loads: no tracking pixels, no external styles).
//
//   with `api`:    the preview is what that code answers for `body` (a template filled from the form
//                  values, e.g. {"templateId": "{templateId}", "subject": "{subject}", "body": "{body}"}):
//                  {subject?, body, format?, missing?}. Asked again 500 ms after the values settle;
//                  empty values are left out and nothing is asked while the body holds nothing.
//   without api:   the field's own value is the document (e.g. the body of a sent mail), its format
//                  read from the form field `formatField` (default "format"; "text" is shown as text).
//
// Form-only (it reads the other fields through formily); it never changes its own value.
import { observer, useForm } from '@formily/react';
import { Alert, Spin } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { OK } from '../../../core/codes';
import { readPath } from '../../../core/conditions';
import { actionCall } from '../actions/actionCall';
import { fillBody } from '../template';
import type { WidgetDef, WidgetProps } from './types';

export const PREVIEW_CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; font-src data:";
const DELAY_MS = 500;

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** The srcdoc of the preview frame: our CSP first, then the mail's HTML (or the text, escaped). */
export function previewDocument(body: string, format: string | undefined): string {
  const content =
    format === 'text' ? `<pre style="white-space:pre-wrap;font:inherit;margin:0">${escapeHtml(body)}</pre>` : body;
  return (
    '<!doctype html><html><head><meta charset="utf-8">' +
    `<meta http-equiv="Content-Security-Policy" content="${PREVIEW_CSP}">` +
    '<style>body{font:14px/1.6 -apple-system,"PingFang SC","Microsoft YaHei",sans-serif;margin:12px;color:#222;word-break:break-word}</style>' +
    `</head><body>${content}</body></html>`
  );
}

/** The body template filled from the values, empty values left out; null when nothing is left. */
export function previewBody(template: Record<string, unknown> | undefined, values: Record<string, unknown>): Record<string, unknown> | null {
  const filled = fillBody(template ?? {}, values) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(filled)) {
    if (v === undefined || v === null || (typeof v === 'string' && v.trim() === '') || (Array.isArray(v) && v.length === 0)) continue;
    if (typeof v === 'object' && !Array.isArray(v) && Object.keys(v as object).length === 0) continue;
    out[k] = v;
  }
  return Object.keys(out).length ? out : null;
}

interface Preview {
  subject?: string;
  body: string;
  format?: string;
  missing?: string[];
  placeholders?: string[];
}

/**
 * The preview: subject, then the parameters still missing (a mail about to be sent) or, with
 * `showPlaceholders`, the placeholders the text holds (a template being edited), then the frame.
 */
export function PreviewFrame({ preview, height, showPlaceholders }: { preview: Preview; height?: number; showPlaceholders?: boolean }) {
  const doc = useMemo(() => previewDocument(preview.body, preview.format), [preview.body, preview.format]);
  return (
    <div className="renderer-html-preview">
      {preview.subject !== undefined && (
        <div style={{ marginBottom: 6 }}>
          <span style={{ color: '#888' }}>主题：</span>
          <span className="renderer-html-preview-subject">{preview.subject}</span>
        </div>
      )}
      {showPlaceholders
        ? !!preview.placeholders?.length && (
            <div style={{ marginBottom: 6 }}>
              <span style={{ color: '#888' }}>占位符：</span>
              {preview.placeholders.map((p) => `{${p}}`).join('、')}
            </div>
          )
        : !!preview.missing?.length && <Alert type="warning" showIcon style={{ marginBottom: 6 }} message={`缺少参数：${preview.missing.join('、')}`} />}
      <iframe
        title="预览"
        sandbox=""
        referrerPolicy="no-referrer"
        srcDoc={doc}
        style={{ width: '100%', height: height ?? 320, border: '1px solid #f0f0f0', borderRadius: 6, background: '#fff' }}
      />
    </div>
  );
}

function useRemotePreview(api: string | undefined, body: Record<string, unknown> | null): { preview: Preview | null; loading: boolean } {
  const [state, setState] = useState<{ key: string; preview: Preview | null; loading: boolean }>({ key: '', preview: null, loading: false });
  const key = api && body ? JSON.stringify(body) : '';
  useEffect(() => {
    if (!api || !body) {
      setState({ key: '', preview: null, loading: false });
      return;
    }
    let live = true;
    setState((s) => ({ ...s, loading: true }));
    const timer = setTimeout(() => {
      void actionCall<Preview>(api, body).then((env) => {
        if (!live) return;
        setState({ key, preview: env.code === OK && env.data && typeof env.data.body === 'string' ? env.data : null, loading: false });
      });
    }, DELAY_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
    // `key` stands for the body's content.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [api, key]);
  return { preview: state.preview, loading: state.loading };
}

const HtmlPreviewWidget = observer(function HtmlPreviewWidget({ value, schema }: WidgetProps) {
  const form = useForm();
  // Reading every value (JSON) inside the observer re-renders the preview when any of them changes.
  const values = (form ? JSON.parse(JSON.stringify(form.values ?? {})) : {}) as Record<string, unknown>;
  // Nothing to preview until one of the fields the preview needs is filled: an empty form asks
  // nothing (its refusal would only add a toast to the form's own field errors).
  const needs = schema.needs ?? null;
  const ready = !needs || needs.some((f) => { const v = readPath(values, f); return v !== undefined && v !== null && String(v).trim() !== ''; });
  const body = schema.api && ready ? previewBody(schema.body, values) : null;
  const remote = useRemotePreview(schema.api, body);
  if (!schema.api) {
    if (value === undefined || value === null || value === '') return <span style={{ color: '#999' }}>-</span>;
    const format = readPath(values, schema.formatField ?? 'format');
    return <PreviewFrame preview={{ body: String(value), format: typeof format === 'string' ? format : 'html' }} height={schema.height} />;
  }
  if (!body) return <span style={{ color: '#999' }}>填写后显示预览</span>;
  if (!remote.preview) return remote.loading ? <Spin size="small" /> : <span style={{ color: '#999' }}>暂无预览</span>;
  return (
    <Spin spinning={remote.loading} size="small">
      <PreviewFrame preview={remote.preview} height={schema.height} showPlaceholders={schema.showPlaceholders} />
    </Spin>
  );
});

const htmlPreview: WidgetDef = { component: HtmlPreviewWidget };
export default htmlPreview;
