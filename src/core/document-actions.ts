// What a document's `get` says the caller may do with it now (the server's document engine decides from
// status × rights; the client's `document` kind draws exactly these buttons).

/** One action offered now: a call sending {id, version} (transitions, removal) or a link (follow-ups). */
export interface DocumentAction {
  name: string;
  label: string;
  /** `family:code` the button calls with {id, version} (transitions, remove) */
  api?: string;
  /** route the button opens, `{field}` from the document (follow-up documents) */
  to?: string;
  confirm?: string;
  danger?: boolean;
  overlay?: boolean;
}

/** The part of a document's `get` answer about what may be done with it. */
export interface DocumentPermissions {
  /** save may change the document now */
  editable: boolean;
  removable: boolean;
  actions: DocumentAction[];
  /** every call and link the server decides on, offered now or not */
  governed: string[];
}
