// The `download` screen kind: a page offering one file to someone who may hold no login and may be on a
// phone (/a/{id}, a shared link). It asks api.get for the record of the route's id and shows the file's
// name (titleField), the schema's items and one big button calling api.download with the same id. When
// the server refuses (the link expired, was revoked, is used up…), its message is the page — in the
// same place the file would have been, so nobody has to find a toast that already went away.
import { DownloadOutlined, FileOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Result, Spin, Typography } from 'antd';
import dayjs from 'dayjs';
import { useEffect, useMemo, useState } from 'react';
import { useParams } from 'react-router-dom';
import { OK } from '../../../core/codes';
import type { ScreenProps } from '../../router/screenProps';
import { actionCall } from '../actions/actionCall';
import './download.css';

type Row = Record<string, unknown>;

interface DownloadItem {
  field: string;
  title: string;
  type?: 'text' | 'datetime';
}

interface DownloadScreenPart {
  api: { get: string; download: string };
  idParam?: string;
  titleField?: string;
  items: DownloadItem[];
  buttonText?: string;
  note?: string;
}

type State = { status: 'loading' } | { status: 'ready'; record: Row } | { status: 'refused'; message: string };

/** "UTC+8", "UTC-3:30": the zone a time is shown in, so a link passed between countries reads right. */
function zoneOf(d: dayjs.Dayjs): string {
  const m = d.utcOffset();
  const h = Math.floor(Math.abs(m) / 60);
  const rest = Math.abs(m) % 60;
  return `UTC${m < 0 ? '-' : '+'}${h}${rest ? `:${String(rest).padStart(2, '0')}` : ''}`;
}

/** An instant in the viewer's own time zone (named): an anonymous viewer has no company to take one from. */
function show(item: DownloadItem, value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (item.type === 'datetime') {
    const d = dayjs(value as string);
    return d.isValid() ? `${d.format('YYYY-MM-DD HH:mm')}（${zoneOf(d)}）` : String(value);
  }
  return String(value);
}

export default function DownloadScreen({ file }: ScreenProps) {
  const part = useMemo(() => file as unknown as DownloadScreenPart, [file]);
  const id = useParams()[part.idParam ?? 'id'];
  const [state, setState] = useState<State>({ status: 'loading' });
  const [busy, setBusy] = useState(false);
  const [started, setStarted] = useState(false);

  useEffect(() => {
    let live = true;
    setState({ status: 'loading' });
    // The link's refusals (SHARE_*, silent) are the page itself: placed here, shown nowhere else.
    void actionCall<Row>(part.api.get, { id }, { inline: () => true }).then((env) => {
      if (!live) return;
      setState(env.code === OK && env.data ? { status: 'ready', record: env.data } : { status: 'refused', message: env.msg || '链接无法打开' });
    });
    return () => {
      live = false;
    };
  }, [part.api.get, id]);

  const download = async () => {
    setBusy(true);
    const env = await actionCall(part.api.download, { id }, { inline: () => true });
    setBusy(false);
    if (env.code === OK) {
      setStarted(true);
      // One download used: the page shows what is left without asking again (the last one may be gone now).
      setState((s) => (s.status === 'ready' && typeof s.record.remaining === 'number' ? { status: 'ready', record: { ...s.record, remaining: s.record.remaining - 1, remainingText: `${s.record.remaining - 1} 次` } } : s));
    } else if (env.msg) {
      setState({ status: 'refused', message: env.msg });
    }
  };

  let body;
  if (state.status === 'loading') body = <Spin size="large" style={{ display: 'block', margin: '48px auto' }} />;
  else if (state.status === 'refused') body = <Result status="warning" title={state.message} />;
  else {
    const record = state.record;
    const usedUp = record.remaining === 0;
    body = (
      <>
        <div className="download-page-file">
          <FileOutlined className="download-page-icon" aria-hidden />
          <Typography.Title level={1} className="download-page-name">
            {part.titleField ? String(record[part.titleField] ?? '') : file.title}
          </Typography.Title>
        </div>
        <dl className="download-page-items">
          {part.items.map((item) => (
            <div key={item.field} className="download-page-item">
              <dt>{item.title}</dt>
              <dd>{show(item, record[item.field])}</dd>
            </div>
          ))}
        </dl>
        <Button type="primary" size="large" block className="download-page-button" icon={<DownloadOutlined />} loading={busy} disabled={usedUp} onClick={() => void download()}>
          {usedUp ? '下载次数已用完' : (part.buttonText ?? '下载')}
        </Button>
        {started && <Alert className="download-page-started" type="success" showIcon message="文件已开始下载，请在浏览器的下载内容中查看。" />}
        {part.note && <Typography.Paragraph type="secondary" className="download-page-note">{part.note}</Typography.Paragraph>}
      </>
    );
  }
  return (
    <main className="download-page">
      <Card variant="borderless" className="download-page-card" title={file.title}>
        {body}
      </Card>
    </main>
  );
}
