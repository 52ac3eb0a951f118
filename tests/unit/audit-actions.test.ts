// Audit actions have one set of labels: the server's audit entries are typed by it, and the audit log
// resource (operation history, its filter and export) declares the same values and labels.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AUDIT_ACTION_LABELS } from '../../src/core/audit-actions';

describe('audit actions', () => {
  it('the audit log resource labels every action the server records, as the registry does', () => {
    const resource = JSON.parse(readFileSync(new URL('../../schemas/resources/auditLog.json', import.meta.url), 'utf8'));
    const values = resource.fields.action.values as { value: string; label: string }[];
    expect(Object.fromEntries(values.map((v) => [v.value, v.label]))).toEqual(AUDIT_ACTION_LABELS);
  });
});
