import { OK, type Envelope } from '../../core/codes.ts';

export const ok = <T>(data: T): Envelope<T> => ({ code: OK, msg: '操作成功', data });
export const fail = (code: string, msg: string, data: unknown = null): Envelope => ({ code, msg, data });
