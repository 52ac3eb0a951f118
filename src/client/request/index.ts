// The request core's public surface. Importing it installs the antd presenter as the default.

import './presenter-antd';

export {
  callApi,
  callApiData,
  callApiRef,
  parseApiRef,
  api,
  isOk,
  ApiError,
  uploadFile,
  imageUrl,
  TOKEN_IN_BODY_ON_RETRY,
  type CallOptions,
  type FileResult,
  type ExtraParamName,
} from './core';
export {
  CLIENT_ABORTED,
  CLIENT_DUPLICATE,
  CLIENT_FILE_ERROR,
  CLIENT_NETWORK,
  type Envelope,
} from './envelope';
export { clientCatalog, getEndpoint, UnknownEndpointError } from './catalog';
export { http } from './transport';
export { setLoginNavigator, goToLogin, endSession, type LoginNavigator } from './navigation';
export { setPresenter, getPresenter, toast, type Presenter, type ToastKind } from './presenter';
export { antdPresenter, createAntdPresenter, ProcessingOverlay } from './presenter-antd';
export { holdOverlay, overlayCount } from './overlay';
export { refreshAccessToken, pendingRefresh } from './refresh';
export { fileNameFromDisposition, saveBlob } from './download';
export { copyText } from './clipboard';
export * from './texts';
