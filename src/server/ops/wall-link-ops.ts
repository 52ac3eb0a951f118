// 大屏链接 (oms 023203–023205, auth 990110): binding only; the rules live in src/server/domain/sharing/wall-links.ts.
import type { OpHandler } from '../catalog/context.ts';
import { CREATE_INPUT, createWallLink, ID_INPUT, listWallLinks, revokeWallLink, TOKEN_INPUT, wallLogin } from '../domain/sharing/wall-links.ts';

export function wallLinkOps(): Record<string, OpHandler> {
  return {
    'wallLink.list': { run: (ctx) => listWallLinks(ctx) },
    'wallLink.create': { input: CREATE_INPUT, run: (ctx, input: { name: string }) => createWallLink(ctx, input) },
    'wallLink.revoke': { input: ID_INPUT, run: (ctx, input: { id: number }) => revokeWallLink(ctx, input.id) },
    'wallLink.login': { input: TOKEN_INPUT, run: (ctx, input: { token: string }) => wallLogin(ctx, input) },
  };
}
