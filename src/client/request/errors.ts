// What the user sees for each answer (spec §8). Called once per call with its final envelope.
//   200             nothing
//   5011, 5019      clear local storage and go to /login, once (public calls such as login: error toast)
//   500             the server-error modal with the message, a copy and a close button
//   silent codes    nothing: handed back to the caller (isSilentCode)
//   anything else   the server's message as an error toast (stays until dismissed)
// A quiet call (CallOptions.quiet) shows none of the toasts or the modal; it still ends a session.

import { ACCESS_REFUSED, OK, SERVER_ERROR, SESSION_ENDED, TOKEN_INVALID, isSilentCode, type Envelope } from '../../core/codes';
import { CLIENT_ABORTED, CLIENT_DUPLICATE } from './envelope';
import { endSession } from './navigation';
import { getPresenter } from './presenter';
import { SERVER_ERROR_TITLE } from './texts';

export interface PresentContext {
  /** The call needs no token (/auth/public/*): 5011/5019 are then shown, not a logout. */
  publicCall: boolean;
  /** CallOptions.quiet: refusals and server errors are the caller's to show. */
  quiet?: boolean;
}

export function presentEnvelope(env: Envelope, ctx: PresentContext): void {
  const p = getPresenter();
  switch (env.code) {
    case OK:
    case CLIENT_DUPLICATE:
    case CLIENT_ABORTED:
      return;
    case SESSION_ENDED:
    case ACCESS_REFUSED:
      if (ctx.publicCall) p.toast('error', env.msg || env.code);
      else endSession(env.msg || undefined);
      return;
    case TOKEN_INVALID:
      // Reaches here only when refresh/retry could not help; the refresh coordinator already acted.
      if (ctx.publicCall) p.toast('error', env.msg || env.code);
      return;
    case SERVER_ERROR:
      if (!ctx.quiet) p.serverError(SERVER_ERROR_TITLE, env.msg);
      return;
    default:
      if (isSilentCode(env.code) || ctx.quiet) return;
      p.toast('error', env.msg || env.code);
  }
}
