// Top-right user menu: 切换仓库, 修改密码, 退出登录 — by mouse or keyboard.

import { KeyOutlined, LogoutOutlined, SwapOutlined } from '@ant-design/icons';
import { Dropdown, type MenuProps } from 'antd';
import { useState, type ReactNode } from 'react';
import { logout } from '../session';
import { ChangePasswordModal } from './ChangePasswordModal';
import { SwitchWarehouseModal } from './SwitchWarehouseModal';

const items: MenuProps['items'] = [
  { key: 'warehouse', icon: <SwapOutlined />, label: '切换仓库' },
  { key: 'password', icon: <KeyOutlined />, label: '修改密码' },
  { type: 'divider' },
  { key: 'logout', icon: <LogoutOutlined />, label: '退出登录' },
];

export function UserMenu({ children }: { children: ReactNode }) {
  const [dialog, setDialog] = useState<'warehouse' | 'password' | null>(null);
  const onClick: MenuProps['onClick'] = ({ key }) => {
    if (key === 'logout') void logout();
    else setDialog(key as 'warehouse' | 'password');
  };
  return (
    <>
      {/* A button, so Tab reaches it and Enter or Space opens the menu (arrow keys then move in it). */}
      <Dropdown menu={{ items, onClick }} placement="bottomRight" trigger={['hover', 'click']} autoFocus>
        <button type="button" className="user-menu-trigger" data-testid="user-menu" aria-haspopup="menu" title="用户菜单">
          {children}
        </button>
      </Dropdown>
      {dialog === 'warehouse' && <SwitchWarehouseModal open onClose={() => setDialog(null)} />}
      {dialog === 'password' && <ChangePasswordModal open onClose={() => setDialog(null)} />}
    </>
  );
}
