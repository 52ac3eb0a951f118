// Errors a handler throws on purpose. Anything else is unexpected and becomes a logged '500'.
import { ACCESS_REFUSED, BUSINESS_CODES, type BusinessCode, formatMessage, SESSION_ENDED, TOKEN_INVALID } from '../../core/codes.ts';

export class ApiError extends Error {
  constructor(readonly code: string, message: string, readonly data: unknown = null) {
    super(message);
  }
}

export function bizError(code: BusinessCode, params: Record<string, unknown> = {}, data: unknown = null): ApiError {
  return new ApiError(code, formatMessage(BUSINESS_CODES[code], params), data);
}

export interface FieldError {
  field: string;
  message: string;
}

/** A validation failure; msg names the field in Chinese, data lists every field error. */
export function validationError(errors: FieldError[]): ApiError {
  return new ApiError('COMMON_VALIDATION_4000', errors.map((e) => e.message).join('；'), { errors });
}

export const tokenInvalid = () => new ApiError(TOKEN_INVALID, '登录已失效，请重新登录');
export const sessionEnded = (why = '会话已结束，请重新登录') => new ApiError(SESSION_ENDED, why);
export const accessRefused = (why: string) => new ApiError(ACCESS_REFUSED, why);

/**
 * A status refusal every document family shares: the document, its number, the status it is in and what
 * was asked — one code (DOCUMENT_STATUS_4131) for sales, warehouse and finance alike. Purchasing keeps its
 * own (PURCHASE_DOC_STATUS_4091, domain/procurement/common.ts), which its clients already match.
 */
export function documentStatusError(title: string, statusTexts: Record<string, string>, doc: { id?: unknown; docNo?: unknown; status?: unknown }, action: string): ApiError {
  const status = String(doc.status);
  return bizError('DOCUMENT_STATUS_4131', { doc: title, docNo: String(doc.docNo), status: statusTexts[status] ?? status, action }, { id: Number(doc.id), status });
}
