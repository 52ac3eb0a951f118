// Rewrites the rights lists of the README's demo-login rows from the seed's role constants (run after changing a role):
// `node --import tsx scripts/readme-rights-rows.ts`. tests/unit/readme-rights.test.ts holds the rows to the same constants.
import fs from 'node:fs';
import { CLERK_RIGHTS, FINANCE_RIGHTS, SALES_RIGHTS, STORE_RIGHTS } from '../src/server/db/seed.ts';

const ROLES: Array<[string, readonly string[]]> = [
  ['CLERK_RIGHTS', CLERK_RIGHTS], ['SALES_RIGHTS', SALES_RIGHTS], ['STORE_RIGHTS', STORE_RIGHTS], ['FINANCE_RIGHTS', FINANCE_RIGHTS],
];
let text = fs.readFileSync('README.md', 'utf8');
for (const [name, rights] of ROLES) {
  // "| role 名: `a`, `b` (`NAME_RIGHTS` in" — the list between the role's colon and the constant's name
  const row = new RegExp(`(role [^:|]+: )((?:\`[^\`]+\`(?:, )?)+)( \\(\`${name}\`)`);
  if (!row.test(text)) throw new Error(`README 中找不到 ${name} 的一行`);
  text = text.replace(row, (_all, head: string, _list: string, tail: string) => head + rights.map((r) => `\`${r}\``).join(', ') + tail);
}
fs.writeFileSync('README.md', text);
console.log('README demo rows rewritten from the seed');
