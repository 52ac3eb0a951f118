// Column preferences live on the server, per account and list name (oms 023401 read, 023402 save), so
// they follow the user into any browser. Read every time a list opens (one small call, in parallel
// with the first page) so a change made in another browser shows up without a reload.

import { OK } from '../../../core/codes';
import { api } from '../../request';
import { parsePrefs, serialisePrefs, type ColumnDefault, type ColumnPrefs } from './columnConfig';

export const TABLE_CONFIG_GET = '023401';
export const TABLE_CONFIG_SAVE = '023402';

/** The stored preferences of `listName` (none when the call fails: the schema default draws). */
export async function loadColumnPrefs(listName: string): Promise<ColumnPrefs> {
  const env = await api.oms<{ configContent?: string | null } | null>(TABLE_CONFIG_GET, { listName });
  return parsePrefs(env.code === OK ? (env.data?.configContent ?? null) : null);
}

export async function saveColumnPrefs(listName: string, prefs: ColumnPrefs, defaults: readonly ColumnDefault[]): Promise<boolean> {
  const env = await api.oms(TABLE_CONFIG_SAVE, { listName, configContent: serialisePrefs(prefs, defaults) });
  return env.code === OK;
}
