// 990103 login/refresh, 990104 session, 990106 logout, 990107 change password, 990108 switch warehouse:
// the binding only — input schemas and the calls into src/server/auth (login, session-info, own-account).
import { passwordLogin } from '../auth/login.ts';
import { changeOwnPassword, switchWarehouse } from '../auth/own-account.ts';
import { sessionObject } from '../auth/session-info.ts';
import { endSession, rotateRefresh } from '../auth/tokens.ts';
import type { OpHandler } from '../catalog/context.ts';

const str = (title: string, max = 100) => ({ type: 'string', title, minLength: 1, maxLength: max });

const token: OpHandler<{ type: 0 | 1; companyCode?: string; userName?: string; password?: string; refreshToken?: string }> = {
  input: {
    type: 'object',
    required: ['type'],
    properties: {
      type: { enum: [0, 1], title: '登录类型' },
      companyCode: str('公司代码', 50),
      userName: str('用户名', 50),
      password: str('密码', 200),
      refreshToken: str('刷新令牌', 200),
    },
    allOf: [
      { if: { properties: { type: { const: 0 } } }, then: { required: ['companyCode', 'userName', 'password'] } },
      { if: { properties: { type: { const: 1 } } }, then: { required: ['refreshToken'] } },
    ],
  },
  run: (ctx, input) => (input.type === 1
    ? rotateRefresh(ctx.db, input.refreshToken!, ctx.config)
    : passwordLogin(ctx, { companyCode: input.companyCode!, userName: input.userName!, password: input.password! })),
};

const TOKEN_INPUT = { type: 'object', properties: { token: { type: 'string', maxLength: 200, title: '令牌' } } };

export function authOps(allRightCodes: () => string[]): Record<string, OpHandler> {
  return {
    'auth.token': token,
    'auth.session': { input: TOKEN_INPUT, run: (ctx) => sessionObject(ctx, allRightCodes) },
    'auth.logout': {
      input: TOKEN_INPUT,
      async run(ctx) {
        await endSession(ctx.db, ctx.caller!.sessionId, 'logout');
        return null;
      },
    },
    'auth.changePassword': {
      input: { type: 'object', required: ['oldPassword', 'newPassword'], properties: { oldPassword: str('原密码', 200), newPassword: str('新密码', 200) } },
      run: (ctx, input: { oldPassword: string; newPassword: string }) => changeOwnPassword(ctx, input.oldPassword, input.newPassword),
    },
    'auth.switchWarehouse': {
      input: { type: 'object', required: ['warehouseId'], properties: { warehouseId: { type: 'integer', title: '仓库' } } },
      run: (ctx, input: { warehouseId: number }) => switchWarehouse(ctx, input.warehouseId),
    },
  };
}
