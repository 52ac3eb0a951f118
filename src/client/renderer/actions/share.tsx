// share: make a public link to a file (a finished export, an uploaded file) — the schema's form (period,
// download limit) opens with values from the row (`prefill`, e.g. {"kind": "export", "exportJobId": "{id}"}),
// its save code makes the link, and the link is shown with a copy button. copyLink: a row's link copied
// again (我的分享). A link is this site's origin + the path the server answers (`linkField`, default path):
// the server cannot know the address its users reach it by behind a proxy.
import { CopyOutlined, ShareAltOutlined } from '@ant-design/icons';
import { Alert, Button, Input, Modal, Space, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { DEFAULT_TIME_PATTERN, formatTime } from '../../../core/format';
import { toast } from '../../request';
import { copyText } from '../../request/clipboard';
import { COPY_SUCCESS_TEXT } from '../../request/texts';
import { useRenderEnv } from '../env';
import { FormModal } from '../form/FormModal';
import { fillBody } from '../template';
import type { FormPart } from '../types';
import { ActionButton } from './ActionButton';
import { formOf, type ActionDef, type ActionProps, type Row } from './types';

const COPY_FAILED_TEXT = '复制失败，请手动选中链接复制';

/** The address a path of this site is reached at. */
export function linkOf(path: unknown): string {
  return `${window.location.origin}${String(path ?? '')}`;
}

async function copyLink(url: string): Promise<void> {
  if (await copyText(url)) toast.success(COPY_SUCCESS_TEXT);
  else toast.error(COPY_FAILED_TEXT);
}

/** The made link, ready to copy, with what it allows. */
function ShareLinkModal({ link, answer, onClose }: { link: string; answer: Row; onClose(): void }) {
  const env = useRenderEnv();
  const until = formatTime(answer.expiresAt as string, env.tz, DEFAULT_TIME_PATTERN.replace(':ss', ''));
  const max = answer.maxDownloads === null || answer.maxDownloads === undefined ? '不限次数' : `最多下载 ${String(answer.maxDownloads)} 次`;
  return (
    <Modal open title="分享链接" onCancel={onClose} footer={<Button onClick={onClose}>关闭</Button>} destroyOnHidden width={560}>
      <Space direction="vertical" style={{ width: '100%' }} size="middle">
        <Typography.Text>把下面的链接发给对方，对方无需登录即可下载“{String(answer.fileName ?? '')}”。</Typography.Text>
        <Space.Compact style={{ width: '100%' }}>
          <Input readOnly value={link} aria-label="分享链接" onFocus={(e) => e.currentTarget.select()} />
          <Button type="primary" icon={<CopyOutlined />} onClick={() => void copyLink(link)}>
            复制链接
          </Button>
        </Space.Compact>
        <Typography.Text type="secondary">
          有效期至 {until}，{max}。可在“我的分享”中随时撤销。
        </Typography.Text>
        {answer.capped === true && <Alert type="info" showIcon message="导出文件到期会被自动清理，链接的有效期已提前到文件清理的时间。" />}
      </Space>
    </Modal>
  );
}

function ShareAction({ action, path, record, inline, scope }: ActionProps) {
  const [step, setStep] = useState<'idle' | 'form' | 'link'>('idle');
  const [answer, setAnswer] = useState<Row | null>(null);
  const named = formOf(action, scope.forms);
  const prefill = action.prefill && typeof action.prefill === 'object' ? (action.prefill as Row) : {};
  const part = useMemo<FormPart | undefined>(
    () => (named ? { ...named, initialValues: { ...(named.initialValues ?? {}), ...(fillBody(prefill, record ?? {}) as Row) } } : undefined),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [named, record, step],
  );
  if (!part) return null; // reported by the schema check
  const field = typeof action.linkField === 'string' ? action.linkField : 'path';
  return (
    <>
      <ActionButton action={action} inline={inline} record={record} icon={<ShareAltOutlined />} onRun={() => setStep('form')} />
      {step === 'form' && (
        <FormModal
          part={part}
          path={typeof action.form === 'string' ? `forms.${action.form}` : `${path}.form`}
          title={part.title ?? action.title}
          onClose={() => setStep((s) => (s === 'form' ? 'idle' : s))}
          onSaved={(row) => {
            setAnswer(row);
            setStep('link');
          }}
        />
      )}
      {step === 'link' && answer && <ShareLinkModal link={linkOf(answer[field])} answer={answer} onClose={() => setStep('idle')} />}
    </>
  );
}

function CopyLinkAction({ action, record, inline }: ActionProps) {
  const field = typeof action.linkField === 'string' ? action.linkField : 'path';
  return <ActionButton action={action} inline={inline} record={record} icon={<CopyOutlined />} onRun={() => copyLink(linkOf(record?.[field]))} />;
}

export const share: ActionDef = {
  component: ShareAction,
  check: (a, s, path) => (formOf(a, s.forms) ? [] : [{ path: `${path}.form`, message: typeof a.form === 'string' ? `表单 "${a.form}" 未在 forms 中定义` : 'share 操作缺少表单 form（有效期、下载次数）' }]),
};

export const copyLinkAction: ActionDef = { component: CopyLinkAction };
