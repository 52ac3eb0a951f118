// The endpoint catalog as the client sees it: the four family files, imported statically.
// Every transport fact of a call (method, body kind, response kind, extra params, overlay, dedupe,
// public or not) is read from here and nowhere else.

import type { Catalog, EndpointEntry, EndpointFile, Family } from '../../core/catalog';
import { endpointPath, findEndpoint, PUBLIC } from '../../core/catalog';
import auth from '../../../schemas/endpoints/auth.json';
import storage from '../../../schemas/endpoints/storage.json';
import cdm from '../../../schemas/endpoints/cdm.json';
import oms from '../../../schemas/endpoints/oms.json';

function entries(file: unknown): EndpointEntry[] {
  return (file as EndpointFile).endpoints;
}

export const clientCatalog: Catalog = {
  families: {
    auth: entries(auth),
    storage: entries(storage),
    cdm: entries(cdm),
    oms: entries(oms),
  },
};

export class UnknownEndpointError extends Error {
  constructor(
    readonly family: string,
    readonly code: string,
  ) {
    super(`接口不存在：${family}:${code}`);
    this.name = 'UnknownEndpointError';
  }
}

/** The catalog entry of a call; throws UnknownEndpointError for a code the catalog does not list. */
export function getEndpoint(family: Family, code: string): EndpointEntry {
  const entry = findEndpoint(clientCatalog, family, code);
  if (!entry) throw new UnknownEndpointError(family, code);
  return entry;
}

export function isPublicEndpoint(entry: EndpointEntry): boolean {
  return entry.permission === PUBLIC;
}

export function pathOf(family: Family, entry: EndpointEntry): string {
  return endpointPath(family, entry);
}
