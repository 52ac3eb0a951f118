// Draws a list of detail sections through the sections registry (gated like everything else).
import { passes, useRenderEnv } from '../env';
import { sections as registry } from '../registries';
import type { DetailSection } from '../types';
import type { SectionProps } from './types';

export function SectionList({ list, base, record, scope, screenName }: { list: DetailSection[]; base: string } & Omit<SectionProps, 'section' | 'path'>) {
  const env = useRenderEnv();
  return (
    <>
      {list.map((section, i) => {
        const path = `${base}[${i}]`;
        const def = registry.peek(section.type);
        if (!def || !passes(section, env, record)) return null;
        const C = def.component;
        return (
          <div key={path} className="renderer-section" style={{ marginBottom: 16 }}>
            <C section={section} path={path} record={record} scope={scope} screenName={screenName} />
          </div>
        );
      })}
    </>
  );
}
