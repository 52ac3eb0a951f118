// 我的待办 on the home page (issue 30): what waits for this person — 待拣货 N, 待过账发票 N, 逾期客户 N —
// each a count from a list code the user may call (its total at page 1, size 1) that opens the list
// filtered. The queues are declared in schemas/screens/common/navigation.json; the rights the user holds
// decide which are drawn, so the store sees the floor's queues and finance the money's.
import { Badge, Card, Col, Row, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { OK } from '../../core/codes';
import navigation from '../../../schemas/screens/common/navigation.json';
import { callApiRef } from '../request/core';
import { apiRight } from '../renderer/env';

export interface WorkQueue {
  title: string;
  api: string;
  body?: Record<string, unknown>;
  to: string;
  hint?: string;
}

const QUEUES = ((navigation as { queues?: WorkQueue[] }).queues ?? []) as WorkQueue[];

/** The queues a user holding `rights` sees (a list code whose right they lack is not theirs). */
export function queuesFor(rights: ReadonlySet<string>, all: readonly WorkQueue[] = QUEUES): WorkQueue[] {
  return all.filter((q) => {
    const right = apiRight(q.api);
    return right === undefined || rights.has(right);
  });
}

export function WorkQueues({ rights }: { rights: ReadonlySet<string> }) {
  const navigate = useNavigate();
  const mine = queuesFor(rights);
  const [counts, setCounts] = useState<Record<string, number | null>>({});
  const key = mine.map((q) => q.to).join('|');
  useEffect(() => {
    let live = true;
    for (const q of mine) {
      void callApiRef<{ total?: number }>(q.api, { page: 1, pageSize: 1, ...(q.body ?? {}) }).then((env) => {
        if (live) setCounts((c) => ({ ...c, [q.to]: env.code === OK ? Number(env.data?.total ?? 0) : null }));
      });
    }
    return () => {
      live = false;
    };
  }, [key]); // eslint-disable-line react-hooks/exhaustive-deps
  if (!mine.length) return null;
  return (
    <Card title="我的待办" style={{ marginBottom: 16 }} data-testid="work-queues">
      <Row gutter={[16, 16]}>
        {mine.map((q) => {
          const n = counts[q.to];
          return (
            <Col key={q.to} xs={12} sm={8} md={6} xl={4}>
              <Card size="small" hoverable className="work-queue" onClick={() => navigate(q.to)} data-queue={q.title}>
                <a
                  href={q.to}
                  onClick={(e) => {
                    e.preventDefault();
                    e.stopPropagation();
                    navigate(q.to);
                  }}
                >
                  {q.title}
                </a>
                <div className="work-queue-count" aria-live="polite">
                  {n === undefined ? '…' : n === null ? '-' : <Badge count={n} showZero overflowCount={9999} color={n > 0 ? '#0958d9' : '#595959'} />}
                </div>
                {q.hint && <Typography.Text type="secondary">{q.hint}</Typography.Text>}
              </Card>
            </Col>
          );
        })}
      </Row>
    </Card>
  );
}
