// /navigation: the home page. Tiles of pinned everyday functions; the user pins and unpins them.

import { CloseOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Card, Col, Empty, Modal, Row, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { menuScreens } from '../router/screenMenu';
import { MENU_GROUP_TITLES, type MenuGroup, type MenuScreen } from '../router/screenTypes';
import { useSession } from '../session';
import { buildMenu } from './menuData';
import { readPins, togglePin, writePins } from './pins';
import { WorkQueues } from './WorkQueues';

export default function NavigationPage() {
  const session = useSession();
  const navigate = useNavigate();
  const [pins, setPins] = useState(readPins);
  const [choosing, setChoosing] = useState(false);

  const rights = useMemo(() => new Set(session?.functionRights ?? []), [session]);
  const sections = useMemo(() => buildMenu(menuScreens, rights), [rights]);
  const openable = useMemo(() => new Map(sections.flatMap((s) => s.items).map((i) => [i.route, i])), [sections]);
  const tiles = pins.map((route) => openable.get(route)).filter((s): s is MenuScreen => !!s);

  const toggle = (route: string) => {
    const next = togglePin(pins, route);
    setPins(next);
    writePins(next);
  };

  return (
    <div data-testid="navigation-page">
      <Typography.Title level={1} style={{ marginTop: 0, fontSize: 20 }}>
        {session ? `${session.employeeName}，您好` : '您好'}
      </Typography.Title>
      <Typography.Paragraph type="secondary">
        {session?.companyName}
        {session?.warehouseCode ? ` · 当前仓库 ${session.warehouseName ?? session.warehouseCode}` : ''}
      </Typography.Paragraph>
      <WorkQueues rights={rights} />
      <Card
        title="常用功能"
        extra={
          <Button icon={<PlusOutlined />} onClick={() => setChoosing(true)}>
            设置常用功能
          </Button>
        }
      >
        {tiles.length === 0 ? (
          <Empty description="还没有常用功能，点击“设置常用功能”添加" />
        ) : (
          <Row gutter={[16, 16]}>
            {tiles.map((screen) => (
              <Col key={screen.route} xs={12} sm={8} md={6} xl={4}>
                <Card
                  hoverable
                  size="small"
                  className="shortcut-tile"
                  onClick={() => navigate(screen.route)}
                  extra={
                    <Button
                      type="text"
                      size="small"
                      icon={<CloseOutlined />}
                      aria-label={`取消固定 ${screen.title}`}
                      title="取消固定"
                      onClick={(e) => {
                        e.stopPropagation();
                        toggle(screen.route);
                      }}
                    />
                  }
                  // The title is a link: Tab reaches each tile and Enter opens it.
                  title={
                    <a
                      href={screen.route}
                      onClick={(e) => {
                        e.preventDefault();
                        e.stopPropagation();
                        navigate(screen.route);
                      }}
                    >
                      {screen.title}
                    </a>
                  }
                >
                  <Typography.Text type="secondary">{MENU_GROUP_TITLES[screen.menu.group as MenuGroup]}</Typography.Text>
                </Card>
              </Col>
            ))}
          </Row>
        )}
      </Card>
      <Modal title="设置常用功能" open={choosing} onCancel={() => setChoosing(false)} footer={null} width={760}>
        <Typography.Paragraph type="secondary">点击功能名称固定或取消固定到首页。</Typography.Paragraph>
        {sections.map((section) => (
          <div key={section.group} style={{ marginBottom: 12 }}>
            <Typography.Text strong>{section.title}</Typography.Text>
            <div style={{ marginTop: 6 }}>
              {section.items.map((item) => (
                <Tag.CheckableTag key={item.route} checked={pins.includes(item.route)} onChange={() => toggle(item.route)}>
                  {item.title}
                </Tag.CheckableTag>
              ))}
            </div>
          </div>
        ))}
      </Modal>
    </div>
  );
}
