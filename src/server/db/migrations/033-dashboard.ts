// 数据大屏 (issue 16): the wall screen asks every 30 s for the clients' overdue receivables — open items
// due before today, summed per client. This index holds every column that read needs, in client order (no
// sort for the grouping), so it is one scan of the index, never a visit of the open_item rows.
import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.ts';
import { index } from './columns.ts';

export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await index(db, 'open_item', ['company_id', 'side', 'party_type', 'status', 'party_id', 'due_date', 'amount_base', 'allocated_base']);
}
