// 大屏链接 (wall links): a link an administrator makes for the sales wall (数据大屏 on a television in the
// office), so the wall needs nobody to log in on it — each morning, or after every session's maximum age.
// Opening /wall/{token} starts a session from the link (auth 990110): auth_session.wall_link_id says so,
// and the caller of such a session holds the wall's right only (auth/caller.ts), whatever its maker's roles
// hold. The token is 131 random bits, kept in plain text so 复制链接 works again from the list (as file
// shares do). Stopping a link (revoked_at) ends every session started from it.
import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.ts';
import { index, withId } from './columns.ts';

export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  await withId(db.schema.createTable('wall_link'), dialect)
    .addColumn('company_id', 'integer', (c) => c.notNull().references('company.id'))
    .addColumn('token', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    // the maker: a session from the link is this account's, and ends when the account is disabled
    .addColumn('created_by', 'integer', (c) => c.notNull().references('account.id'))
    .addColumn('last_used_at', 'text')
    .addColumn('revoked_at', 'text')
    .addColumn('revoked_by', 'integer')
    .execute();
  await index(db, 'wall_link', ['token'], true);
  await index(db, 'wall_link', ['company_id', 'id']);
  await db.schema.alterTable('auth_session').addColumn('wall_link_id', 'integer').execute();
  await index(db, 'auth_session', ['wall_link_id']);
}
