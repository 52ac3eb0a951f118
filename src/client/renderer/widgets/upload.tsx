// image and file: uploaded through storage (980107) as soon as they are chosen; the field holds the
// media id (maxCount 1) or a list of media ids. Images show their 80px thumbnail (980106); files link
// to the original (size 0).

import { PlusOutlined, UploadOutlined } from '@ant-design/icons';
import { Button, Upload, type UploadFile } from 'antd';
import { useMemo, useState } from 'react';
import { OK } from '../../../core/codes';
import { imageUrl, toast, uploadFile } from '../../request';
import type { WidgetDef, WidgetProps } from './types';

type Kind = 'image' | 'file';

function ids(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((v) => v !== null && v !== undefined && v !== '').map(String);
  return value === undefined || value === null || value === '' ? [] : [String(value)];
}

function extOk(name: string, accept: string | undefined): boolean {
  if (!accept) return true;
  const ext = name.toLowerCase().replace(/^.*(\.[^.]+)$/, '$1');
  return accept.split(',').map((s) => s.trim().toLowerCase()).some((a) => a === ext || a === '*' || (a.endsWith('/*') && a.startsWith('image') && /\.(png|jpe?g|gif|webp)$/.test(ext)));
}

function makeUpload(kind: Kind) {
  return function UploadWidget({ value, onChange, disabled, readOnly, schema }: WidgetProps) {
    const max = schema.maxCount ?? 1;
    const accept = schema.accept ?? (kind === 'image' ? '.jpg,.jpeg,.png,.gif,.webp' : undefined);
    const [names, setNames] = useState<Record<string, string>>({});
    const [busy, setBusy] = useState<UploadFile[]>([]);
    const current = ids(value);
    const emit = (list: string[]) => onChange?.(max === 1 ? list[0] : list.length ? list : undefined);

    const fileList = useMemo<UploadFile[]>(
      () => [
        ...current.map((id, i) => ({
          uid: id,
          name: names[id] ?? (kind === 'image' ? `图片${i + 1}` : `附件${i + 1}`),
          status: 'done' as const,
          url: imageUrl(id, 0),
          thumbUrl: kind === 'image' ? imageUrl(id, 80) : undefined,
        })),
        ...busy,
      ],
      // eslint-disable-next-line react-hooks/exhaustive-deps
      [current.join(','), names, busy],
    );

    return (
      <Upload
        listType={kind === 'image' ? 'picture-card' : 'text'}
        accept={accept}
        fileList={fileList}
        disabled={disabled || readOnly}
        multiple={max > 1}
        beforeUpload={(file) => {
          if (!extOk(file.name, accept)) {
            toast.warning(`文件格式不支持，仅支持 ${accept}`);
            return Upload.LIST_IGNORE;
          }
          return true;
        }}
        customRequest={async ({ file, onSuccess, onError }) => {
          const f = file as File;
          const pending: UploadFile = { uid: `up-${f.name}-${Date.now()}`, name: f.name, status: 'uploading' };
          setBusy((b) => [...b, pending]);
          const res = await uploadFile(f, { fileName: f.name });
          setBusy((b) => b.filter((x) => x.uid !== pending.uid));
          if (res.code === OK && res.data?.mediaId) {
            const id = res.data.mediaId;
            setNames((n) => ({ ...n, [id]: f.name }));
            emit(max === 1 ? [id] : [...ids(value), id].slice(0, max));
            onSuccess?.(res.data);
          } else onError?.(new Error(res.msg || '上传失败'));
        }}
        onRemove={(f) => {
          emit(current.filter((id) => id !== f.uid));
          return true;
        }}
      >
        {current.length + busy.length >= max || readOnly ? null : kind === 'image' ? (
          <div>
            <PlusOutlined />
            <div style={{ marginTop: 8 }}>上传</div>
          </div>
        ) : (
          <Button icon={<UploadOutlined />}>上传文件</Button>
        )}
      </Upload>
    );
  };
}

export const imageWidget: WidgetDef = { component: makeUpload('image'), choice: true };
export const fileWidget: WidgetDef = { component: makeUpload('file'), choice: true };
