// link: text that opens the column's `link` route (the list wraps any column that has `link`; this
// type only marks the intent and checks that a route is given).
import text from './text';
import type { ColumnTypeDef } from './types';

const link: ColumnTypeDef = { ...text };
export default link;
