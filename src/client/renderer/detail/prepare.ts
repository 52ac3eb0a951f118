// What a detail screen loads before drawing: section types, the column types of description items,
// its actions and their forms (related lists prepare themselves).
import { conditionProblems } from '../../../core/conditions';
import type { ActionDef } from '../actions/types';
import { formOf } from '../actions/types';
import { formUses } from '../form/useFormReady';
import { resolveAll, type SchemaProblem, type Use } from '../registry';
import { actions, columnTypes, sections, widgets } from '../registries';
import type { ActionSchema, DescriptionsSection, DetailSection, FilterSchema, FormPart, TableSection, TabsSection } from '../types';

export function sectionUses(list: readonly DetailSection[], base: string, uses: Use[], problems: SchemaProblem[]): void {
  list.forEach((s, i) => {
    const path = `${base}[${i}]`;
    uses.push({ registry: sections, type: s.type, path: `${path}.type` });
    for (const line of conditionProblems(s.when, `${path}.when`)) {
      const at = line.indexOf(': ');
      problems.push({ path: line.slice(0, at), message: line.slice(at + 2) });
    }
    if (s.type === 'descriptions') {
      (s as DescriptionsSection).items.forEach((c, j) => uses.push({ registry: columnTypes, type: c.type ?? 'text', path: `${path}.items[${j}].type` }));
    }
    if (s.type === 'table') {
      (s as TableSection).columns.forEach((c, j) => uses.push({ registry: columnTypes, type: c.type ?? 'text', path: `${path}.columns[${j}].type` }));
    }
    if (s.type === 'tabs') {
      (s as TabsSection).tabs.forEach((t, j) => sectionUses(t.sections, `${path}.tabs[${j}].sections`, uses, problems));
    }
  });
}

export function actionUses(list: readonly ActionSchema[] | undefined, base: string, forms: Record<string, FormPart> | undefined): Use[] {
  const uses: Use[] = [];
  (list ?? []).forEach((a, i) => {
    uses.push({ registry: actions, type: a.action, path: `${base}[${i}].action` });
    const form = a.action === 'form' ? formOf(a, forms) : undefined;
    if (form) uses.push(...formUses(form, typeof a.form === 'string' ? `forms.${a.form}` : `${base}[${i}].form`));
  });
  return uses;
}

export function actionProblems(list: readonly ActionSchema[] | undefined, base: string, scope: { api?: Record<string, string | undefined>; forms?: Record<string, FormPart> }): SchemaProblem[] {
  const out: SchemaProblem[] = [];
  (list ?? []).forEach((a, i) => {
    const def = actions.peek(a.action) as ActionDef | undefined;
    if (def?.check) out.push(...def.check(a, scope, `${base}[${i}]`));
  });
  return out;
}

export async function prepareDetail(part: { sections: DetailSection[]; actions?: ActionSchema[]; forms?: Record<string, FormPart>; pick?: FilterSchema }): Promise<SchemaProblem[]> {
  const uses: Use[] = [];
  const problems: SchemaProblem[] = [];
  if (part.pick) uses.push({ registry: widgets, type: part.pick.widget ?? 'input', path: 'pick.widget' });
  sectionUses(part.sections ?? [], 'sections', uses, problems);
  uses.push(...actionUses(part.actions, 'actions', part.forms));
  problems.push(...(await resolveAll(uses)));
  problems.push(...actionProblems(part.actions, 'actions', { forms: part.forms }));
  return problems;
}
