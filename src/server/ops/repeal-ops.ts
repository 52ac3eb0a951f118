// The four calls of a repeal desk (list, get, preview, create), bound under a handler prefix
// (`repeal.*` for procurement, `salesRepeal.*` for sales). See src/server/domain/repeal/desk.ts.
import type { OpHandler } from '../catalog/context.ts';
import { acceptingFilters } from '../catalog/list-filters.ts';
import { ID_INPUT } from '../domain/procurement/common.ts';
import {
  cancelRightsFrom, REPEAL_CREATE_INPUT, REPEAL_PREVIEW_INPUT, type CancelRights, type RepealDesk, type RepealListInput,
} from '../domain/repeal/desk.ts';
import type { OpsDeps } from './index.ts';

export function repealOps(deps: OpsDeps, prefix: string, desk: RepealDesk): Record<string, OpHandler> {
  let rights: CancelRights | undefined;
  return {
    [`${prefix}.list`]: acceptingFilters({ input: desk.listInput, run: (ctx, input: RepealListInput) => desk.list(ctx, input) }),
    [`${prefix}.get`]: { input: ID_INPUT, run: (ctx, input: { id: number }) => desk.get(ctx, input.id) },
    [`${prefix}.preview`]: { input: REPEAL_PREVIEW_INPUT, run: (ctx, input: { docNo: string }) => desk.preview(ctx, input) },
    [`${prefix}.create`]: {
      input: REPEAL_CREATE_INPUT,
      run: (ctx, input: { docNo: string; reason: string }) => desk.create(ctx, input, (rights ??= cancelRightsFrom(Object.values(deps.catalog.families).flat(), desk.config))),
    },
  };
}
