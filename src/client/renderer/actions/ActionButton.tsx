// The button every action draws: its look from the schema, an optional confirmation (Popconfirm, so
// the question sits next to the button that asked it), and the spec's loading text while it runs.

import { Button, Popconfirm } from 'antd';
import { useState, type ReactNode } from 'react';
import { DEFAULT_LOADING_TEXT } from '../../request';
import { fillText } from '../template';
import type { ActionSchema } from '../types';
import type { Row } from './types';

export interface ActionButtonProps {
  action: ActionSchema;
  inline?: boolean;
  record?: Row;
  disabled?: boolean;
  icon?: ReactNode;
  /** May return a promise: the button shows 操作执行中 until it settles. */
  onRun(): unknown;
}

export function ActionButton({ action, inline, record, disabled, icon, onRun }: ActionButtonProps) {
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    try {
      await onRun();
    } finally {
      setBusy(false);
    }
  };
  const button = (
    <Button
      size={inline ? 'small' : 'middle'}
      type={action.type ?? (inline ? 'link' : 'default')}
      danger={action.danger}
      icon={inline ? undefined : icon}
      loading={busy}
      disabled={disabled}
      style={inline ? { paddingInline: 4 } : undefined}
      onClick={action.confirm ? undefined : () => void run()}
    >
      {busy ? DEFAULT_LOADING_TEXT : action.title}
    </Button>
  );
  if (!action.confirm || disabled) return button;
  return (
    <Popconfirm title={fillText(action.confirm, record)} okText="确定" cancelText="取消" onConfirm={() => run()}>
      {button}
    </Popconfirm>
  );
}
