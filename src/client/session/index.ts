export type { Currency, Id, Person, SessionInfo, Tokens } from './types';
export {
  STORAGE_KEYS,
  getAccessToken,
  getRefreshToken,
  setTokens,
  clearStorage,
  preserveOnClear,
  subscribe as subscribeSession,
  enterWallMode,
  leaveWallMode,
  wallLinkToken,
} from './storage';
export {
  LOGIN_CODE,
  SESSION_CODE,
  LOGOUT_CODE,
  login,
  loadSession,
  logout,
  getSession,
  setSession,
  isLoggedIn,
  hasRight,
  hasFlag,
  getCurrencyMap,
  getPersonnel,
  getTimeZone,
  type LoginParams,
} from './session';
export {
  useSession,
  useAccessToken,
  useCurrencyMap,
  usePersonnel,
  usePermission,
  Permission,
  type PermissionProps,
} from './hooks';
