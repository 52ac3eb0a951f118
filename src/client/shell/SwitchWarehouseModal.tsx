// 切换仓库: pick one of the company's enabled warehouses (cdm 011006 options), save it as the account's
// default (auth 990108 {warehouseId}), then reload the session so every screen sees the new warehouse.

import { Form, Modal, Select } from 'antd';
import { useEffect, useState } from 'react';
import { OK } from '../../core/codes';
import { CLIENT_DUPLICATE, callApi, toast } from '../request';
import { loadSession, useSession } from '../session';

interface Option {
  id: number;
  label: string;
}

const WAREHOUSE_OPTIONS = '011006';
const SWITCH_WAREHOUSE = '990108';

export function SwitchWarehouseModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const session = useSession();
  const [options, setOptions] = useState<Option[] | null>(null);
  const [warehouseId, setWarehouseId] = useState<number | undefined>(
    session?.warehouseId == null ? undefined : Number(session.warehouseId),
  );
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    // No "still mounted" flag: under StrictMode the effect runs twice, the second call is dropped as a
    // duplicate of the first, and only the first one's answer carries the options.
    void callApi<Option[]>('cdm', WAREHOUSE_OPTIONS, {}).then((res) => {
      if (res.code === CLIENT_DUPLICATE) return;
      setOptions(res.code === OK && Array.isArray(res.data) ? res.data : []);
    });
  }, []);

  const submit = async () => {
    if (warehouseId === undefined || warehouseId === Number(session?.warehouseId)) return onClose();
    setSaving(true);
    try {
      const res = await callApi('auth', SWITCH_WAREHOUSE, { warehouseId });
      if (res.code !== OK) return;
      await loadSession();
      toast.success('仓库已切换');
      onClose();
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal title="切换仓库" open={open} onCancel={onClose} onOk={() => void submit()} confirmLoading={saving} destroyOnHidden>
      <Form layout="vertical">
        <Form.Item label="仓库" extra={session?.warehouseCode ? `当前仓库：${session.warehouseName ?? session.warehouseCode}` : '当前未设置默认仓库'}>
          <Select
            data-testid="warehouse-select"
            loading={options === null}
            value={warehouseId}
            onChange={setWarehouseId}
            placeholder="请选择仓库"
            showSearch
            optionFilterProp="label"
            options={(options ?? []).map((w) => ({ value: w.id, label: w.label }))}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
