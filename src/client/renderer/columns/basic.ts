// The column types almost every list uses, fetched as one chunk the first time any of them is needed
// (one request instead of eight: browsers open at most six connections per host, so eight tiny
// chunks cost two round trips). Each type still lives in its own module.
export { default as text } from './text';
export { default as link } from './link';
export { default as number } from './number';
export { default as money } from './money';
export { default as date } from './date';
export { default as datetime } from './datetime';
export { default as enumType } from './enum';
export { default as boolean } from './boolean';
