// Recently visited pages, newest first, per account.

import { accountKey, readJson, writeJson } from './accountStorage';

export interface Visit {
  path: string;
  title: string;
  /** ISO time */
  at: string;
}

export const MAX_VISITS = 50;

export function readVisits(): Visit[] {
  const list = readJson<Visit[]>(accountKey('history'), []);
  return Array.isArray(list) ? list : [];
}

export function recordVisit(path: string, title: string, now = new Date()): void {
  const visits = [{ path, title, at: now.toISOString() }, ...readVisits().filter((v) => v.path !== path)];
  writeJson(accountKey('history'), visits.slice(0, MAX_VISITS));
}

export function clearVisits(): void {
  writeJson(accountKey('history'), []);
}
