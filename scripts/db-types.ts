// `npm run db:types`: regenerates src/server/db/types.ts (the table types domain code queries through)
// from the migrations and the managed document definitions. Run it after adding a migration or a field
// to a managed document; tests/unit/db-types.test.ts fails until you do.
import fs from 'node:fs';
import path from 'node:path';
import { DB_TYPES_FILE, generateDbTypes } from './lib/db-types.ts';

const file = path.resolve(import.meta.dirname, '..', DB_TYPES_FILE);
const text = await generateDbTypes();
const before = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
if (before === text) console.log(`${DB_TYPES_FILE}: up to date`);
else {
  fs.writeFileSync(file, text);
  console.log(`${DB_TYPES_FILE}: written (${text.split('\n').length} lines)`);
}
