// Page parameters: ?mode=renderer|protable|doc|docbase&rows=N&virtual=1 (rows: list rows or document lines)
const params = new URLSearchParams(location.search);
export const mode = params.get('mode') ?? 'renderer';
export const n = Number(params.get('rows') ?? 1000);
export const virtual = params.get('virtual') === '1';
export const SCROLL_Y = 600;
