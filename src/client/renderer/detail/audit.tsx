// audit: the record's audit trail (who changed what, when). Hidden from users without the audit
// list's right (read from the endpoint catalog) rather than calling and failing.
import { useMemo } from 'react';
import { useRenderEnv } from '../env';
import { ListView } from '../list/ListView';
import type { AuditSection } from '../types';
import { auditFilters, auditPart, mayReadAudit } from './auditPart';
import type { SectionDef, SectionProps } from './types';

function AuditView({ section, path, record }: SectionProps) {
  const s = section as AuditSection;
  const env = useRenderEnv();
  const part = useMemo(() => auditPart(s.api), [s.api]);
  const fixed = useMemo(() => auditFilters(s.entity, record.id), [s.entity, record.id]);
  if (!mayReadAudit(part.api.list, env)) return null;
  return <ListView part={part} listName={part.name!} fixedFilters={fixed} title={s.title ?? '操作记录'} path={path} />;
}

const audit: SectionDef = { component: AuditView };
export default audit;
