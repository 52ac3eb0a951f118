// Loads the record a detail or document screen shows (api.get with {id} from the route parameter, or
// the query parameter of that name for a route without one), and reloads it after an action changed it.
import { useCallback, useEffect, useRef, useState } from 'react';
import { useParams, useSearchParams } from 'react-router-dom';
import { OK } from '../../../core/codes';
import { actionCall } from '../actions/actionCall';

export type Row = Record<string, unknown>;

export interface RecordState {
  id: string | undefined;
  /** undefined while loading; null when missing. */
  record: Row | null | undefined;
  reload(): void;
  replace(row: Row): void;
  /** The record answers the current id (false while the record of a newly chosen id loads). */
  settled: boolean;
}

export function useRecord(getRef: string | undefined, idParam = 'id'): RecordState {
  const [search] = useSearchParams();
  // `new` in the id's place opens an empty record (a document created from a link, e.g. ?orderId=12).
  const raw = useParams()[idParam] ?? search.get(idParam) ?? undefined;
  const id = raw === 'new' ? undefined : raw;
  const [record, setRecord] = useState<Row | null | undefined>(undefined);
  const [tick, setTick] = useState(0);
  // The id the record in state was loaded for ('' before any load): read at render, so a screen can tell
  // the previous record from the one it asked for.
  const loadedFor = useRef<string | undefined>('');
  useEffect(() => {
    if (!getRef || id === undefined) {
      loadedFor.current = id;
      setRecord(null);
      return;
    }
    let live = true;
    // Route parameters are text; numeric ids go to the server as numbers (codes validate integer ids).
    void actionCall<Row>(getRef, { id: /^\d{1,15}$/.test(id) ? Number(id) : id }).then((env) => {
      if (!live) return;
      loadedFor.current = id;
      setRecord(env.code === OK && env.data ? env.data : null);
    });
    return () => {
      live = false;
    };
  }, [getRef, id, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { id, record, reload, replace: setRecord, settled: loadedFor.current === id };
}
