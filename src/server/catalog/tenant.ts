// The one place where the caller's company scopes queries. Handlers reach tenant tables only through
// this, so an id from another company behaves exactly like an id that does not exist.
import type { DB } from '../db/connection.ts';

export class Tenant {
  constructor(readonly db: DB, readonly companyId: number) {}

  select(table: string) {
    return this.db.selectFrom(table).where(`${table}.companyId`, '=', this.companyId);
  }

  update(table: string) {
    return this.db.updateTable(table).where(`${table}.companyId`, '=', this.companyId);
  }

  delete(table: string) {
    return this.db.deleteFrom(table).where(`${table}.companyId`, '=', this.companyId);
  }

  insert(table: string, values: Record<string, unknown> | Record<string, unknown>[]) {
    const withCompany = (v: Record<string, unknown>) => ({ ...v, companyId: this.companyId });
    return this.db.insertInto(table).values(Array.isArray(values) ? values.map(withCompany) : withCompany(values));
  }

  /** The same scope inside a transaction. */
  with(db: DB): Tenant {
    return new Tenant(db, this.companyId);
  }
}
