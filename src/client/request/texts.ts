// User-visible texts and limits of the request core (spec §8, §9). The Chinese strings are exact.

/** HTTP timeout (spec §9). */
export const REQUEST_TIMEOUT_MS = 6_000_000;
/** Non-error toasts stay this long; error toasts stay until dismissed (duration 0). */
export const TOAST_DURATION_MS = 5000;
export const ERROR_TOAST_DURATION = 0;

export const NETWORK_ERROR_TEXT = '后台接口无响应';
export const SERVER_ERROR_TITLE = '异常信息-请点击复制异常信息给开发人员';
export const COPY_TEXT = '复制';
export const CLOSE_TEXT = '关闭';
export const COPY_SUCCESS_TEXT = '复制成功';
export const EXPORT_FAILED_TEXT = '导出失败，请联系管理员';
export const TEMPLATE_FAILED_TEXT = '下载失败';
/** Text of the full-screen processing overlay. */
export const OVERLAY_TEXT = '处理中…';
/** Default loading text of action buttons (spec §9). */
export const DEFAULT_LOADING_TEXT = '操作执行中';
/** Default image size for /storage/api/980106 (spec §9). */
export const DEFAULT_IMAGE_SIZE = 80;
