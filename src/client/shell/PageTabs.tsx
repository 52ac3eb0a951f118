// Open pages as tabs: click to switch, × to close, right-click or the ⋯ menu to refresh the page or
// close the others.

import { DownOutlined } from '@ant-design/icons';
import { Button, Dropdown, Tabs, type MenuProps } from 'antd';
import { useLocation, useNavigate } from 'react-router-dom';
import { fullPath } from '../router/guardInput';
import { closeOtherTabs, closeTab, isClosable, refreshTab, useOpenTabs } from './openTabs';

type Action = 'refresh' | 'close' | 'closeOthers';

function actionItems(key: string): MenuProps['items'] {
  return [
    { key: 'refresh', label: '刷新' },
    { key: 'close', label: '关闭', disabled: !isClosable(key) },
    { key: 'closeOthers', label: '关闭其他' },
  ];
}

export function PageTabs() {
  const { tabs } = useOpenTabs();
  const location = useLocation();
  const navigate = useNavigate();
  const active = fullPath(location);

  const run = (action: Action, key: string) => {
    if (action === 'refresh') {
      if (key === active) refreshTab(key);
      else navigate(key);
    }
    if (action === 'close') {
      const next = closeTab(key, active);
      if (next) navigate(next);
    }
    if (action === 'closeOthers') {
      closeOtherTabs(key);
      if (key !== active) navigate(key);
    }
  };

  // The 页签操作 menu sits beside the tab list, not inside it: a tab list holds tabs only.
  return (
    <div className="page-tabs-bar">
      <Tabs
        className="page-tabs"
        type="editable-card"
        hideAdd
        size="small"
        activeKey={active}
        onChange={(key) => navigate(key)}
        onEdit={(key, op) => op === 'remove' && typeof key === 'string' && run('close', key)}
        tabBarStyle={{ margin: 0 }}
        items={tabs.map((tab) => ({
          key: tab.key,
          closable: isClosable(tab.key),
          label: (
            <Dropdown
              trigger={['contextMenu']}
              menu={{ items: actionItems(tab.key), onClick: ({ key }) => run(key as Action, tab.key) }}
            >
              <span>{tab.title}</span>
            </Dropdown>
          ),
        }))}
      />
      <Dropdown menu={{ items: actionItems(active), onClick: ({ key }) => run(key as Action, active) }} trigger={['hover', 'click']}>
        <Button size="small" type="text" className="page-tabs-actions">
          页签操作 <DownOutlined />
        </Button>
      </Dropdown>
    </div>
  );
}
