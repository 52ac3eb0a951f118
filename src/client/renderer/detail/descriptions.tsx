// descriptions: the record's fields as label/value pairs, each value drawn by its column type.
import { Descriptions } from 'antd';
import { readPath } from '../../../core/conditions';
import { passes, useRenderEnv } from '../env';
import { columnTypes } from '../registries';
import type { DescriptionsSection } from '../types';
import type { SectionDef, SectionProps } from './types';

function DescriptionsView({ section, record }: SectionProps) {
  const env = useRenderEnv();
  const s = section as DescriptionsSection;
  const items = s.items
    .filter((c) => passes(c, env, record))
    .map((c) => {
      const def = columnTypes.peek(c.type ?? 'text');
      const value = readPath(record, c.field);
      return { key: c.field, label: c.title, children: def ? def.cell(c, { env }) (value, record) : String(value ?? '') };
    });
  return <Descriptions title={s.title} bordered size="small" column={s.columns ?? 3} items={items} />;
}

const descriptions: SectionDef = { component: DescriptionsView };
export default descriptions;
