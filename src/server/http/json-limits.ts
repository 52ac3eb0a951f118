// Limits every JSON request body meets before it is parsed, whatever the code: nesting depth (a body
// nested thousands deep made recursive code further on — the list page key — overflow the stack and
// answer 500). The body size is Fastify's bodyLimit (app.ts).

/** Deepest nesting of objects and arrays a request body may have; real bodies stay under 10. */
export const MAX_JSON_DEPTH = 32;

/** True when the JSON text nests objects/arrays deeper than `max` (brackets inside strings do not count). */
export function jsonDeeperThan(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}
