// list: a related list (e.g. the accounts holding a role) — the list renderer with filters bound to
// the record ({"roleId": "id"} sends filters.roleId = record.id, always).
import { useMemo } from 'react';
import { readPath } from '../../../core/conditions';
import { ListView } from '../list/ListView';
import type { ListSection } from '../types';
import type { SectionDef, SectionProps } from './types';

function RelatedList({ section, path, record, screenName }: SectionProps) {
  const s = section as ListSection;
  const fixed = useMemo(() => {
    const out: Record<string, unknown> = {};
    for (const [filterField, recordField] of Object.entries(s.bind ?? {})) out[filterField] = readPath(record, recordField);
    return out;
  }, [s.bind, record]);
  return <ListView part={s.list} listName={s.list.name ?? `${screenName}#${path}`} fixedFilters={fixed} title={s.title} path={`${path}.list`} />;
}

const relatedList: SectionDef = { component: RelatedList };
export default relatedList;
