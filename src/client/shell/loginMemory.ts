// The login form remembers the last company code and user name (never the password).

import { getKept, setKept } from './keptPreferences';

const KEY = 'tbo.lastLogin';

export interface LastLogin {
  companyCode: string;
  userName: string;
}

export function readLastLogin(): LastLogin {
  try {
    const v = JSON.parse(getKept(KEY) ?? '{}') as Partial<LastLogin>;
    return { companyCode: String(v.companyCode ?? ''), userName: String(v.userName ?? '') };
  } catch {
    return { companyCode: '', userName: '' };
  }
}

export function writeLastLogin(value: LastLogin): void {
  setKept(KEY, JSON.stringify(value));
}
