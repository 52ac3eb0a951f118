// The light widgets of filters and simple forms, fetched as one chunk (see columns/basic.ts). Heavier
// widgets (tree select, uploads, rights tree) stay in their own chunks.
export { default as input } from './input';
export { default as textarea } from './textarea';
export { default as number } from './number';
export { default as money } from './money';
export { default as numberRange } from './numberRange';
export { default as select } from './select';
export { default as boolean } from './boolean';
export { default as switchWidget } from './switch';
export { default as date } from './date';
export { default as dateRange } from './dateRange';
export { default as password } from './password';
export { default as tags } from './tags';
