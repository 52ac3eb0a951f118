// Every call a user's action makes goes through here. Spec §8's silent codes (PRODUCT_*, PLO_*,
// INVOICE_QTY_ERROR_* …) are silent only in the request core: it hands them back without a toast so
// that the caller can put them where they belong. This is that caller for the whole renderer — a
// refusal the action cannot place on a field of its own form is shown as an error message, naming the
// line (and product) the server names, so that no refusal ever ends in silence.

import { BUSINESS_CODES, OK, isSilentCode, type Envelope } from '../../../core/codes';
import { callApiRef, toast, type CallOptions } from '../../request';

export interface ActionCallOptions extends CallOptions {
  /**
   * Put a refusal on the field it names (a form's own fields); true when it did, and then no message
   * is shown. Called for silent codes only: the request core has shown every other refusal already.
   */
  inline?(env: Envelope): boolean;
}

/** The text of a silent refusal: the server's message (or the registry's), with the line it names. */
export function refusalText(env: Pick<Envelope, 'code' | 'msg' | 'data'>): string {
  const base = env.msg || (BUSINESS_CODES as Record<string, string>)[env.code]?.replace(/\{\w+\}/g, '').trim() || `操作失败（${env.code}）`;
  const d = env.data && typeof env.data === 'object' ? (env.data as Record<string, unknown>) : {};
  const line = typeof d.line === 'number' && d.line > 0 ? d.line : undefined;
  const product = typeof d.productCode === 'string' && d.productCode && !base.includes(d.productCode) ? d.productCode : undefined;
  if (line !== undefined && !base.includes(`第 ${line} 行`)) return `第 ${line} 行${product ? `（商品 ${product}）` : ''}：${base}`;
  if (product) return `商品 ${product}：${base}`;
  return base;
}

/** Show a silent refusal the caller did not place itself. */
export function showSilentRefusal(env: Envelope, inline?: (env: Envelope) => boolean): void {
  if (env.code === OK || !isSilentCode(env.code)) return;
  if (inline?.(env)) return;
  toast.error(refusalText(env));
}

/** callApiRef for an action: silent refusals are shown (inline when the caller can, else as a message). */
export async function actionCall<T = unknown>(ref: string, body?: unknown, options: ActionCallOptions = {}): Promise<Envelope<T>> {
  const { inline, ...callOptions } = options;
  const env = await callApiRef<T>(ref, body, callOptions);
  showSilentRefusal(env as Envelope, inline);
  return env;
}
