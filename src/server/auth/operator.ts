// Who runs the installation. Several companies share one server and one database; a few tools read or
// change that installation as a whole — the server processes (服务监控: hosts, process ids, memory,
// database size), the database structure against the migrations, files no company's record names. Those
// endpoints are marked `instance` in the catalog, and only the operator companies' accounts may call
// them: OPERATOR_COMPANIES (company codes), or, unset, the company created first. For every other company
// their rights are withheld — an administrator holding "all rights" does not hold them, they are left out
// of functionRights (so the screens leave the menu) and out of the rights a role editor offers.
import type { Catalog } from '../../core/catalog.ts';

export interface InstancePolicy {
  /** OPERATOR_COMPANIES; null: the company with the lowest id */
  operatorCodes: readonly string[] | null;
  /** the rights of the instance endpoints (rights that only instance endpoints require) */
  instanceRights: ReadonlySet<string>;
}

export const NO_INSTANCE_POLICY: InstancePolicy = { operatorCodes: null, instanceRights: new Set() };

/** Rights required by instance endpoints and by no other endpoint. */
export function instanceRightsOf(catalog: Catalog): Set<string> {
  const instance = new Set<string>();
  const shared = new Set<string>();
  for (const entries of Object.values(catalog.families)) {
    for (const e of entries) (e.instance ? instance : shared).add(e.permission);
  }
  for (const r of shared) instance.delete(r);
  return instance;
}

export function isOperatorCompany(policy: InstancePolicy, company: { id: number; code: string }, firstCompanyId: number): boolean {
  return policy.operatorCodes ? policy.operatorCodes.includes(company.code) : company.id === firstCompanyId;
}
