// The session object returned by POST /auth/api/990104 (spec §3, DESIGN §3.2).

export type Id = string | number;

export interface Currency {
  id: Id;
  currencyName: string;
  currencyCharacter: string;
  code: string;
}

export interface Person {
  id: Id;
  name: string;
}

export interface SessionInfo {
  functionRights: string[];
  companyName: string;
  employeeName: string;
  companyId: Id;
  companyCode: string;
  defaultLanguage: string;
  /** Company time zone, hours east of UTC (may be fractional). */
  timeZone: number;
  userName: string;
  accountId: Id;
  warehouseCode: string;
  /** the warehouse as people call it (主仓库), shown where the code would mean nothing */
  warehouseName?: string | null;
  warehouseId: Id;
  purchasePriceId: Id | null;
  salePriceId: Id | null;
  currencyList: Currency[];
  currencyId: Id;
  currencyCharacter: string;
  receMultiple: number;
  addRooType: number | string;
  limitMultiple: number;
  ceilingMultiple: number;
  containerType: string[];
  personnel: Person[];
  flags: Record<string, boolean>;
}

export interface Tokens {
  accessToken: string;
  refreshToken: string;
}
