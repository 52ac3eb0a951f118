// The column settings popover: show/hide, reorder (drag a row, or the arrows), fix a column to the left
// or right edge, and reset to the schema default. Every change is saved to the server by the list.

import { ArrowDownOutlined, ArrowUpOutlined, HolderOutlined, SettingOutlined, VerticalLeftOutlined, VerticalRightOutlined } from '@ant-design/icons';
import { Button, Checkbox, Popover, Tooltip } from 'antd';
import { useState } from 'react';
import type { ColumnState, Fixed } from '../data/columnConfig';
import type { ColumnSchema } from '../types';
import { columnKey } from './prepare';

export interface ColumnSettingsProps {
  available: ColumnSchema[];
  states: ColumnState[];
  customised: boolean;
  onToggle(key: string, hidden: boolean): void;
  onMove(from: number, to: number): void;
  onFix(key: string, fixed: Fixed | null): void;
  onReset(): void;
}

function SettingsPanel({ available, states, customised, onToggle, onMove, onFix, onReset }: ColumnSettingsProps) {
  const titles = new Map(available.map((c) => [columnKey(c), c.title]));
  const [dragging, setDragging] = useState<number | null>(null);
  return (
    <div style={{ width: 280 }} className="renderer-column-settings">
      <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', marginBottom: 8 }}>
        <span style={{ fontWeight: 600 }}>列设置</span>
        <Button size="small" type="link" disabled={!customised} onClick={onReset}>
          重置
        </Button>
      </div>
      <div style={{ maxHeight: 360, overflow: 'auto' }}>
        {states.map((s, i) => (
          <div
            key={s.key}
            data-column-key={s.key}
            draggable
            onDragStart={() => setDragging(i)}
            onDragOver={(e) => e.preventDefault()}
            onDrop={() => {
              if (dragging !== null && dragging !== i) onMove(dragging, i);
              setDragging(null);
            }}
            style={{ display: 'flex', alignItems: 'center', gap: 4, padding: '2px 0', opacity: dragging === i ? 0.4 : 1 }}
          >
            <HolderOutlined style={{ cursor: 'grab', color: '#999' }} />
            <Checkbox checked={!s.hidden} onChange={(e) => onToggle(s.key, !e.target.checked)} style={{ flex: 1 }}>
              {titles.get(s.key) ?? s.key}
            </Checkbox>
            <Tooltip title={s.fixed === 'left' ? '取消固定' : '固定在左侧'}>
              <Button size="small" type={s.fixed === 'left' ? 'primary' : 'text'} icon={<VerticalRightOutlined />} aria-label="固定在左侧" onClick={() => onFix(s.key, s.fixed === 'left' ? null : 'left')} />
            </Tooltip>
            <Tooltip title={s.fixed === 'right' ? '取消固定' : '固定在右侧'}>
              <Button size="small" type={s.fixed === 'right' ? 'primary' : 'text'} icon={<VerticalLeftOutlined />} aria-label="固定在右侧" onClick={() => onFix(s.key, s.fixed === 'right' ? null : 'right')} />
            </Tooltip>
            <Button size="small" type="text" icon={<ArrowUpOutlined />} aria-label="上移" disabled={i === 0} onClick={() => onMove(i, i - 1)} />
            <Button size="small" type="text" icon={<ArrowDownOutlined />} aria-label="下移" disabled={i === states.length - 1} onClick={() => onMove(i, i + 1)} />
          </div>
        ))}
      </div>
    </div>
  );
}

export function ColumnSettings(props: ColumnSettingsProps) {
  return (
    <Popover trigger="click" placement="bottomRight" content={<SettingsPanel {...props} />}>
      <Button icon={<SettingOutlined />} aria-label="列设置" title="列设置" />
    </Popover>
  );
}
