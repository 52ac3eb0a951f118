// A screen file may reuse another screen's body: {"extends": "procurement/purchaseOrder-byId", route,
// title, ...}. Two routes that show the same thing (a new purchase order and an existing one) then share
// one definition. The routing keys and whatever the extending file sets win; everything else comes from
// the base file. One level only: a base that itself extends is refused by the schema check.

/** Keys the client reads eagerly for routes, menu and guard: always the extending file's own. */
export const ROUTING_KEYS = ['route', 'title', 'permission', 'menu', 'hidden', 'children', 'kind', 'flag'] as const;

export type ScreenObject = Record<string, unknown>;

export function extendsOf(screen: ScreenObject | null | undefined): string | undefined {
  return typeof screen?.extends === 'string' ? screen.extends : undefined;
}

export function mergeScreen(base: ScreenObject, own: ScreenObject): ScreenObject {
  const out: ScreenObject = {};
  for (const [k, v] of Object.entries(base)) if (k !== 'extends' && !(ROUTING_KEYS as readonly string[]).includes(k)) out[k] = v;
  for (const [k, v] of Object.entries(own)) if (k !== 'extends') out[k] = v;
  return out;
}
