// /history: pages this user opened recently, newest first.

import { Button, Card, Empty, List, Popconfirm, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { clearVisits, readVisits } from './visitHistory';

export default function HistoryPage() {
  const [visits, setVisits] = useState(readVisits);
  return (
    <Card
      title="浏览历史"
      data-testid="history-page"
      extra={
        <Popconfirm
          title="确定清空浏览历史？"
          onConfirm={() => {
            clearVisits();
            setVisits([]);
          }}
        >
          <Button disabled={visits.length === 0}>清空记录</Button>
        </Popconfirm>
      }
    >
      {visits.length === 0 ? (
        <Empty description="暂无浏览记录" />
      ) : (
        <List
          dataSource={visits}
          renderItem={(visit) => (
            <List.Item extra={<Typography.Text type="secondary">{dayjs(visit.at).format('YYYY-MM-DD HH:mm:ss')}</Typography.Text>}>
              <List.Item.Meta title={<Link to={visit.path}>{visit.title}</Link>} description={visit.path} />
            </List.Item>
          )}
        />
      )}
    </Card>
  );
}
