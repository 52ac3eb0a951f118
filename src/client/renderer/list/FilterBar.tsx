// The search form above a list: the keyword box (when the schema asks) and every filter, each drawn by
// its registered widget with the schema's input filter. 查询 applies the conditions from page 1;
// 重置 restores the defaults and searches again.

import { Button, Col, Form, Input, Row, Space } from 'antd';
import { useMemo } from 'react';
import { passesStatic, type RenderEnv } from '../env';
import { widgets } from '../registries';
import type { ListPart } from '../types';
import type { WidgetDef } from '../widgets/types';
import type { PlacedFilter } from './prepare';

export interface FilterBarProps {
  part: ListPart;
  filters: PlacedFilter[];
  env: RenderEnv;
  defaults: Record<string, unknown>;
  onSearch(values: Record<string, unknown>, keyword: string): void;
}

const KEYWORD = '__keyword';

export function FilterBar({ part, filters, env, defaults, onSearch }: FilterBarProps) {
  const [form] = Form.useForm();
  const shown = useMemo(() => filters.filter((f) => passesStatic(f.filter, env) && widgets.peek(f.filter.widget ?? 'input')), [filters, env]);
  if (!shown.length && !part.keyword) return null;
  const keywordPlaceholder = typeof part.keyword === 'object' && part.keyword.placeholder ? part.keyword.placeholder : '请输入关键字';

  const submit = (values: Record<string, unknown>) => {
    const { [KEYWORD]: keyword, ...rest } = values;
    onSearch(rest, typeof keyword === 'string' ? keyword : '');
  };

  return (
    <Form
      form={form}
      className="renderer-filter-bar"
      layout="horizontal"
      labelCol={{ flex: '90px' }}
      // A title longer than the 90px column (只看有变化的字段, 发货 / 开票日期) wraps onto a second line instead of
      // running under the box beside it.
      labelWrap
      initialValues={defaults}
      onFinish={submit}
      style={{ marginBottom: 12 }}
    >
      <Row gutter={[16, 0]}>
        {part.keyword && (
          <Col xs={24} sm={12} md={8} xl={6}>
            <Form.Item label="关键字" name={KEYWORD}>
              <Input allowClear placeholder={keywordPlaceholder} />
            </Form.Item>
          </Col>
        )}
        {shown.map(({ filter }) => {
          const def = widgets.peek(filter.widget ?? 'input') as WidgetDef;
          const W = def.component;
          return (
            <Col key={filter.field} xs={24} sm={def.wide ? 24 : 12} md={def.wide ? 12 : 8} xl={def.wide ? 8 : 6}>
              <Form.Item label={filter.title} name={filter.field}>
                <W schema={filter} mode="filter" />
              </Form.Item>
            </Col>
          );
        })}
        <Col flex="auto" style={{ textAlign: 'right' }}>
          <Form.Item>
            <Space>
              <Button
                onClick={() => {
                  form.resetFields();
                  submit(form.getFieldsValue(true) as Record<string, unknown>);
                }}
              >
                重置
              </Button>
              <Button type="primary" htmlType="submit">
                查询
              </Button>
            </Space>
          </Form.Item>
        </Col>
      </Row>
    </Form>
  );
}
