// descriptions: the record's fields as label/value pairs, each value drawn by its column type. Items
// over enumerated values (enum: a dict or options) get their choices loaded first, as list columns do,
// so a detail shows 在售 where the list shows 在售 — never the raw code.
import { Descriptions } from 'antd';
import { useEffect, useState } from 'react';
import { readPath } from '../../../core/conditions';
import { hasOptions, loadOptions } from '../data/options';
import { passes, useRenderEnv } from '../env';
import { columnTypes } from '../registries';
import type { ColumnSchema, DescriptionsSection, OptionItem } from '../types';
import type { SectionDef, SectionProps } from './types';

type OptionMaps = Map<string, Map<string, OptionItem>>;

/** The choices of the enumerated columns among `items`, by field (null while they load). */
export function useItemOptions(items: readonly ColumnSchema[]): OptionMaps | null {
  const wanted = items.filter((c) => columnTypes.peek(c.type ?? 'text')?.needsOptions && hasOptions(c));
  const [maps, setMaps] = useState<OptionMaps | null>(wanted.length ? null : new Map());
  useEffect(() => {
    if (!wanted.length) return;
    let live = true;
    void Promise.all(wanted.map(async (c) => [c.field, new Map((await loadOptions(c)).map((o) => [String(o.value), o]))] as const)).then((entries) => {
      if (live) setMaps(new Map(entries));
    });
    return () => {
      live = false;
    };
  }, [items]); // eslint-disable-line react-hooks/exhaustive-deps
  return maps;
}

function DescriptionsView({ section, record }: SectionProps) {
  const env = useRenderEnv();
  const s = section as DescriptionsSection;
  const options = useItemOptions(s.items);
  const items = s.items
    .filter((c) => passes(c, env, record))
    .map((c) => {
      const def = columnTypes.peek(c.type ?? 'text');
      const value = readPath(record, c.field);
      // Until the labels are in, an enumerated value shows nothing rather than its code.
      const waiting = !options && def?.needsOptions && hasOptions(c);
      return { key: c.field, label: c.title, children: waiting ? '' : def ? def.cell(c, { env, options: options?.get(c.field) })(value, record) : String(value ?? '') };
    });
  return <Descriptions title={s.title} bordered size="small" column={s.columns ?? 3} items={items} />;
}

const descriptions: SectionDef = { component: DescriptionsView };
export default descriptions;
