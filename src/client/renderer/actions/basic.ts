// The light actions, fetched as one chunk (see columns/basic.ts). `form` (formily) and `import`
// (upload dialog) stay in their own chunks so a list without them never loads that code.
export { default as link } from './link';
export { default as call } from './call';
export { default as refresh } from './refresh';
export { default as exportAction } from './export';
export { default as print } from './print';
