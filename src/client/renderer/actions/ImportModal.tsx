// The import dialog: choose one .xlsx/.xls file (anything else: 附件格式错误，请重新上传！; nothing:
// 请上传附件！), download the template, upload. When the server refuses the file row by row
// (COMMON_IMPORT_4012, nothing written) its errors are listed in a table: row, field, message.

import { DownloadOutlined, InboxOutlined } from '@ant-design/icons';
import { Alert, Button, Modal, Space, Table, Upload } from 'antd';
import { useState } from 'react';
import { OK } from '../../../core/codes';
import { toast, type CallOptions } from '../../request';
import { actionCall } from './actionCall';
import { IMPORT_ERRORS_TITLE, IMPORT_EXTENSIONS, IMPORT_FORMAT_ERROR, IMPORT_NO_FILE } from '../texts';

export const IMPORT_ERROR_CODE = 'COMMON_IMPORT_4012';

export interface ImportRowError {
  row: number;
  field?: string;
  /** the field's title, from its resource */
  title?: string;
  message: string;
}

export function isImportFile(name: string): boolean {
  const lower = name.toLowerCase();
  return IMPORT_EXTENSIONS.some((ext) => lower.endsWith(ext));
}

function importSummary(data: unknown): string {
  const d = (data ?? {}) as Record<string, unknown>;
  const parts: string[] = [];
  if (typeof d.created === 'number') parts.push(`新增 ${d.created} 行`);
  if (typeof d.updated === 'number') parts.push(`更新 ${d.updated} 行`);
  if (typeof d.unchanged === 'number' && d.unchanged > 0) parts.push(`未变 ${d.unchanged} 行`);
  if (!parts.length && typeof d.count === 'number') parts.push(`共 ${d.count} 行`);
  return parts.length ? `导入成功：${parts.join('，')}` : '导入成功';
}

export interface ImportModalProps {
  title: string;
  api: string;
  template?: string;
  /** Field key → title, for error rows that name fields by key. */
  titles?: Record<string, string>;
  /** Values of the codes' extra params (priceTitleId → header), sent with the upload and the template. */
  extra?: CallOptions['extra'];
  onClose(): void;
  onDone(): void;
}

export function ImportModal({ title, api, template, titles, extra, onClose, onDone }: ImportModalProps) {
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<ImportRowError[] | null>(null);

  const submit = async () => {
    if (!file) {
      toast.warning(IMPORT_NO_FILE);
      return;
    }
    setBusy(true);
    setErrors(null);
    const env = await actionCall(api, undefined, { file, fileName: file.name, extra });
    setBusy(false);
    if (env.code === OK) {
      toast.success(importSummary(env.data));
      onDone();
      onClose();
      return;
    }
    if (env.code === IMPORT_ERROR_CODE) {
      const list = (env.data as { errors?: ImportRowError[] } | null)?.errors;
      setErrors(Array.isArray(list) ? list : []);
    }
  };

  return (
    <Modal
      open
      title={title}
      onCancel={onClose}
      width={errors ? 760 : 520}
      maskClosable={false}
      footer={
        <Space>
          {template && (
            <Button icon={<DownloadOutlined />} onClick={() => void actionCall(template, {}, { template: true, extra })}>
              下载模板
            </Button>
          )}
          <Button onClick={onClose}>取消</Button>
          <Button type="primary" loading={busy} onClick={() => void submit()}>
            导入
          </Button>
        </Space>
      }
    >
      <Upload.Dragger
        accept={IMPORT_EXTENSIONS.join(',')}
        maxCount={1}
        fileList={file ? [{ uid: 'import', name: file.name, status: 'done' }] : []}
        beforeUpload={(f) => {
          if (!isImportFile(f.name)) {
            toast.warning(IMPORT_FORMAT_ERROR);
            return Upload.LIST_IGNORE;
          }
          setFile(f);
          setErrors(null);
          return false; // sent on 导入, not on choosing
        }}
        onRemove={() => {
          setFile(null);
          return true;
        }}
      >
        <p className="ant-upload-drag-icon">
          <InboxOutlined />
        </p>
        <p className="ant-upload-text">点击或拖入 Excel 文件（.xlsx / .xls）</p>
      </Upload.Dragger>
      {errors && (
        <div style={{ marginTop: 16 }}>
          <Alert type="error" showIcon message={IMPORT_ERRORS_TITLE} style={{ marginBottom: 8 }} />
          <Table<ImportRowError>
            size="small"
            rowKey={(e) => `${e.row}-${e.field ?? ''}-${e.message}`}
            dataSource={errors}
            pagination={errors.length > 10 ? { pageSize: 10, size: 'small' } : false}
            columns={[
              { title: '行号', dataIndex: 'row', width: 80 },
              // The server names each field by its resource title, as its message does; a screen's column
              // title (e.g. a shortened one) only for errors that come without it.
              { title: '字段', dataIndex: 'field', width: 160, render: (v: string | undefined, e: ImportRowError) => e.title || (v ? (titles?.[v] ?? v) : '-') },
              { title: '错误信息', dataIndex: 'message' },
            ]}
          />
        </div>
      )}
    </Modal>
  );
}
