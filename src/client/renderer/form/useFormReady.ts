// Loads the widgets a form names before it draws (they are usually loaded already with the screen).
import { useEffect, useState } from 'react';
import { resolveAll, type SchemaProblem } from '../registry';
import { widgets } from '../registries';
import type { FormPart } from '../types';

export function formUses(part: FormPart, path: string) {
  const uses = part.fields.map((f, i) => ({ registry: widgets, type: f.widget ?? 'input', path: `${path}.fields[${i}].widget` }));
  if (part.preview) uses.push({ registry: widgets, type: 'htmlPreview', path: `${path}.preview` });
  return uses;
}

export function useFormReady(part: FormPart, path: string): SchemaProblem[] | null {
  const [problems, setProblems] = useState<SchemaProblem[] | null>(null);
  useEffect(() => {
    let live = true;
    void resolveAll(formUses(part, path)).then((p) => live && setProblems(p));
    return () => {
      live = false;
    };
  }, [part, path]);
  return problems;
}
