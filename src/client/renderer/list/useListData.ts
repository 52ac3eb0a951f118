// Server-side paging, sorting and filtering: the query the user set up, the list call it makes, and
// the rows it answered. Starts fetching at once (in parallel with the list's preparation).
//
// Responses are matched to the latest request by their body, not by a counter: React StrictMode
// mounts twice, and the request core would drop a second identical request as a duplicate, so the
// hook never sends one while the same conditions are on their way.

import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { OK } from '../../../core/codes';
import { CLIENT_ABORTED, CLIENT_DUPLICATE } from '../../request';
import { actionCall } from '../actions/actionCall';
import { exportBody, listBody, readListResult, type ListQuery } from '../data/listQuery';
import type { ListPart } from '../types';

export type Row = Record<string, unknown>;

export const DEFAULT_PAGE_SIZE = 20;

export function initialQuery(part: ListPart, filterDefaults: Record<string, unknown>): ListQuery {
  const q: ListQuery = { page: 1, pageSize: part.pageSize ?? DEFAULT_PAGE_SIZE, filters: filterDefaults, keyword: '' };
  if (part.defaultSort) q.sort = part.defaultSort;
  return q;
}

export interface ListData {
  query: ListQuery;
  rows: Row[];
  total: number;
  /** Totals over every row the conditions keep (lists declaring totals.all), else null. */
  totals: Row | null;
  loading: boolean;
  /** At least one answer arrived. */
  loaded: boolean;
  setQuery(update: (q: ListQuery) => ListQuery): void;
  refresh(): void;
  exportBody(): Record<string, unknown>;
  /** The latest answer as it came (fields beside the rows, e.g. the items of `dynamicColumns`). */
  response: unknown;
}

export function useListData(
  part: ListPart,
  filterDefaults: Record<string, unknown>,
  fixedFilters?: Record<string, unknown>,
  fixedParams?: Record<string, unknown>,
): ListData {
  const [query, setQueryState] = useState<ListQuery>(() => initialQuery(part, filterDefaults));
  // A replaced part (a report showing another grouping, with other columns) starts from its first page
  // and its own order — set while rendering, so no call goes out with the old part's sort.
  const [partSeen, setPartSeen] = useState(part);
  if (partSeen !== part) {
    setPartSeen(part);
    setQueryState((q) => {
      const next: ListQuery = { ...q, page: 1 };
      if (part.defaultSort) next.sort = part.defaultSort;
      else delete next.sort;
      return next;
    });
  }
  const [result, setResult] = useState<{ rows: Row[]; total: number; totals: Row | null; loaded: boolean }>({ rows: [], total: 0, totals: null, loaded: false });
  const [loading, setLoading] = useState(true);
  const [response, setResponse] = useState<unknown>(null);
  const [tick, setTick] = useState(0);
  const latest = useRef('');
  const fixedKey = JSON.stringify([fixedFilters ?? null, fixedParams ?? null]);
  const withTotals = part.totals?.all === true;
  const body = useMemo(() => listBody(query, fixedFilters, fixedParams, withTotals), [query, fixedKey, withTotals]); // eslint-disable-line react-hooks/exhaustive-deps

  const inFlight = useRef<string | null>(null);
  const again = useRef(false);
  const lastTick = useRef(tick);

  useEffect(() => {
    const key = JSON.stringify(body);
    const refreshed = lastTick.current !== tick;
    lastTick.current = tick;
    latest.current = key;
    // Same conditions already on their way (StrictMode's second mount, or a refresh while loading):
    // wait for that answer; after a refresh, ask once more when it lands.
    if (inFlight.current === key) {
      if (refreshed) again.current = true;
      return;
    }
    // A list that means nothing without some conditions (a document chain without a number) waits.
    const missing = (part.requiredFilters ?? []).some((f) => body.filters?.[f] === undefined);
    if (missing) {
      setLoading(false);
      setResult({ rows: [], total: 0, totals: null, loaded: true });
      return;
    }
    const send = () => {
      inFlight.current = key;
      setLoading(true);
      void actionCall(part.api.list, body).then((env) => {
        if (inFlight.current === key) inFlight.current = null;
        if (env.code === CLIENT_DUPLICATE || env.code === CLIENT_ABORTED || latest.current !== key) return;
        if (again.current) {
          again.current = false;
          send();
          return;
        }
        setLoading(false);
        if (env.code !== OK) return; // the request core has told the user
        const { list, total, totals } = readListResult<Row>(env.data);
        setResult({ rows: list, total, totals: totals ?? null, loaded: true });
        setResponse(env.data);
      });
    };
    send();
  }, [part.api.list, body, tick]);

  const setQuery = useCallback((update: (q: ListQuery) => ListQuery) => setQueryState(update), []);
  const refresh = useCallback(() => setTick((t) => t + 1), []);
  const queryRef = useRef(query);
  queryRef.current = query;
  const getExportBody = useCallback(() => exportBody(queryRef.current, fixedFilters, fixedParams), [fixedKey]); // eslint-disable-line react-hooks/exhaustive-deps

  return { query, rows: result.rows, total: result.total, totals: result.totals, loading, loaded: result.loaded, setQuery, refresh, exportBody: getExportBody, response };
}
