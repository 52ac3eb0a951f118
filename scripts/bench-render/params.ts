// Page parameters: ?mode=renderer|protable&rows=N&virtual=1
const params = new URLSearchParams(location.search);
export const mode = params.get('mode') ?? 'renderer';
export const n = Number(params.get('rows') ?? 1000);
export const virtual = params.get('virtual') === '1';
export const SCROLL_Y = 600;
