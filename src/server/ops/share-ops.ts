// Shared links (storage 980201–980206): binding only; the rules live in src/server/domain/sharing/.
import type { OpHandler } from '../catalog/context.ts';
import { acceptingFilters } from '../catalog/list-filters.ts';
import { CREATE_INPUT, createShare, ID_INPUT, LIST_INPUT, listShares, revokeShare, type CreateInput, type ListInput } from '../domain/sharing/file-shares.ts';
import { shareDownload, sharePage, TOKEN_INPUT } from '../domain/sharing/public-share.ts';
import type { OpsDeps } from './index.ts';

export function shareOps(_deps: OpsDeps): Record<string, OpHandler> {
  return {
    'share.create': { input: CREATE_INPUT, run: (ctx, input: CreateInput) => createShare(ctx, input) },
    'share.list': acceptingFilters({ input: LIST_INPUT, run: (ctx, input: ListInput) => listShares(ctx, input) }),
    'share.listAll': acceptingFilters({ input: LIST_INPUT, run: (ctx, input: ListInput) => listShares(ctx, input, true) }),
    'share.revoke': { input: ID_INPUT, run: (ctx, input: { id: number }) => revokeShare(ctx, input.id) },
    'share.page': { input: TOKEN_INPUT, run: (ctx, input: { id: string }) => sharePage(ctx, input.id) },
    'share.download': { input: TOKEN_INPUT, run: (ctx, input: { id: string }) => shareDownload(ctx, input.id) },
  };
}
