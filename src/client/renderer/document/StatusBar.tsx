// The status bar across the top of every engine document (Odoo's statusbar): its states in their order,
// the ones passed, the current one marked, the ones ahead. A red state (作废, 已冲销) is an exit, not a
// step: drawn only when the document is in it.
import type { OptionItem } from '../types';

export function StatusBar({ flow, current }: { flow: readonly OptionItem[]; current: unknown }) {
  const at = flow.findIndex((s) => String(s.value) === String(current));
  if (at < 0 || flow.length < 2) return null;
  // a document that left by an exit passed none of the later steps: the others are neither done nor ahead
  const exit = flow[at]!.color === 'red';
  const shown = flow.map((s, i) => ({ s, i })).filter(({ s, i }) => i === at || s.color !== 'red');
  return (
    <ol className="renderer-status-bar" aria-label="单据状态">
      {shown.map(({ s, i }) => (
        <li key={String(s.value)} className={i === at ? `is-current${exit ? ' is-exit' : ''}` : exit ? 'is-off' : i < at ? 'is-done' : 'is-ahead'} aria-current={i === at ? 'step' : undefined}>
          {s.label}
        </li>
      ))}
    </ol>
  );
}
