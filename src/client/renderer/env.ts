// What every renderer part reads from the session: rights, flags, time zone and currencies, plus the
// gate check shared by columns, filters, fields and actions. One object per session snapshot, so
// memoised column definitions are rebuilt only when the session changes.

import { useMemo } from 'react';
import { evaluate, type Condition } from '../../core/conditions';
import { getEndpoint, parseApiRef } from '../request';
import { getCurrencyMap, hasRight, useSession } from '../session';
import type { Currency, SessionInfo } from '../session';
import type { Gated } from './types';

export interface RenderEnv {
  session: SessionInfo | null;
  /** Company time zone in hours. */
  tz: number;
  currencies: Record<string, Currency>;
  flags: Readonly<Record<string, boolean>>;
  hasRight: (code: string | string[] | undefined) => boolean;
}

export function makeEnv(session: SessionInfo | null): RenderEnv {
  return {
    session,
    tz: Number(session?.timeZone ?? 0) || 0,
    currencies: getCurrencyMap(session),
    flags: session?.flags ?? {},
    hasRight: (code) => hasRight(code, session),
  };
}

export function useRenderEnv(): RenderEnv {
  const session = useSession();
  return useMemo(() => makeEnv(session), [session]);
}

/** Permission and flag only: decided once per schema part, not per row. */
export function passesStatic(part: Omit<Gated, 'when'>, env: RenderEnv): boolean {
  if (part.permission !== undefined && !env.hasRight(part.permission)) return false;
  if (part.flag && env.flags[part.flag] !== true) return false;
  return true;
}

/** The `when`-style condition against some data (a row, a record, the form values). */
export function holds(condition: Condition | undefined, env: RenderEnv, data: Record<string, unknown> | null | undefined): boolean {
  if (condition === undefined) return true;
  return evaluate(condition, { data, flags: env.flags, hasRight: (code) => env.hasRight(code) });
}

/** Permission, flag and `when` together. */
export function passes(part: Gated, env: RenderEnv, data?: Record<string, unknown> | null): boolean {
  return passesStatic(part, env) && holds(part.when, env, data);
}

/**
 * The right an endpoint needs (endpoint catalog), so an action that names no permission is still
 * hidden from users the server would refuse. Undefined for unknown codes (a schema problem, reported
 * elsewhere) and for codes any user may call.
 */
export function apiRight(ref: string | undefined): string | undefined {
  if (!ref) return undefined;
  try {
    const { family, code } = parseApiRef(ref);
    const p = getEndpoint(family, code).permission;
    return p === '1' || p === 'public' ? undefined : p;
  } catch {
    return undefined;
  }
}
