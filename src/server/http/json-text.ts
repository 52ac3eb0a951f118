// A handler's answer already serialised: the `data` of the envelope as JSON text (a cached list page).
// The app wraps it in the same envelope ok() gives, without parsing or serialising it again.
import { OK } from '../../core/codes.ts';
import { ok } from './envelope.ts';

export class JsonText {
  constructor(readonly text: string) {}
}

const OK_MSG = JSON.stringify(ok(null).msg);

/** The envelope of a successful answer around JSON text: `{"code":"200","msg":…,"data":<text>}`. */
export function okEnvelopeText(data: JsonText): string {
  return `{"code":${JSON.stringify(OK)},"msg":${OK_MSG},"data":${data.text}}`;
}
