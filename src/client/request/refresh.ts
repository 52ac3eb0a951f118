// Refresh coordinator (spec §8, '5012'): one refresh at a time with 990103 type 1. While it runs every
// other request waits (see pendingRefresh) and is replayed afterwards with the new token. Tokens rotate:
// the new refresh token is always stored. A refresh answered without an accessToken ends the session
// (clear storage, /login). A refresh that gets no answer at all (network) shows the network toast and
// keeps the stored tokens, so a later call can try again.
// Across browser tabs the refresh runs under a Web Lock when the browser has them, and a tab first looks
// whether another tab already stored a new token.

import { OK, SESSION_ENDED, ACCESS_REFUSED, type Envelope } from '../../core/codes';
import { getAccessToken, getRefreshToken, setTokens } from '../session/storage';
import { getEndpoint, pathOf } from './catalog';
import { asEnvelope } from './envelope';
import { endSession } from './navigation';
import { getPresenter } from './presenter';
import { NETWORK_ERROR_TEXT } from './texts';
import { http } from './transport';

export const REFRESH_CODE = '990103';

export interface RefreshResult {
  ok: boolean;
  /** The access token to use from now on (ok) or null. */
  token: string | null;
  /** The refresh call's envelope when it failed with an answer. */
  envelope?: Envelope;
  /** True when the refresh got no answer (tokens kept). */
  network?: boolean;
}

let pending: Promise<RefreshResult> | null = null;

/** The refresh in progress, if any: requests await it before they are sent. */
export function pendingRefresh(): Promise<RefreshResult> | null {
  return pending;
}

/**
 * Refresh the access token after `failedToken` was refused with 5012. Concurrent callers share one
 * refresh. If the stored token already differs from `failedToken` (refreshed meanwhile, here or in
 * another tab) that token is used without a new refresh.
 */
export function refreshAccessToken(failedToken: string | null): Promise<RefreshResult> {
  if (pending) return pending;
  const run = async (): Promise<RefreshResult> => {
    const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
    if (locks?.request) return locks.request('tbo-token-refresh', () => doRefresh(failedToken));
    return doRefresh(failedToken);
  };
  const p = run().finally(() => {
    if (pending === p) pending = null;
  });
  pending = p;
  return p;
}

async function doRefresh(failedToken: string | null): Promise<RefreshResult> {
  const current = getAccessToken();
  if (current && current !== failedToken) return { ok: true, token: current };
  const refreshToken = getRefreshToken();
  if (!refreshToken) {
    endSession();
    return { ok: false, token: null };
  }
  let env: Envelope | null = null;
  try {
    const res = await http.request({
      method: 'POST',
      url: pathOf('auth', getEndpoint('auth', REFRESH_CODE)),
      data: { type: 1, refreshToken },
      headers: { 'Content-Type': 'application/json' },
    });
    env = asEnvelope(res.data);
  } catch {
    env = null;
  }
  if (!env) {
    getPresenter().toast('error', NETWORK_ERROR_TEXT);
    return { ok: false, token: null, network: true };
  }
  const data = (env.data ?? {}) as { accessToken?: string; refreshToken?: string };
  if (env.code === OK && data.accessToken) {
    if (getRefreshToken() !== refreshToken) {
      // Storage changed while we waited (session ended, or another tab logged in again): do not revive.
      const now = getAccessToken();
      return now ? { ok: true, token: now } : { ok: false, token: null, envelope: env };
    }
    setTokens({ accessToken: data.accessToken, refreshToken: data.refreshToken });
    return { ok: true, token: data.accessToken };
  }
  endSession(env.code === SESSION_ENDED || env.code === ACCESS_REFUSED ? env.msg || undefined : undefined);
  return { ok: false, token: null, envelope: env };
}
