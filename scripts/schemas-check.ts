// `npm run schemas:check`: every schema file valid and every cross-reference resolvable.
import { checkSchemas, formatProblem } from '../src/server/catalog/schema-check.ts';

const problems = checkSchemas();
if (problems.length) {
  for (const p of problems) console.error(formatProblem(p));
  console.error(`\n${problems.length} 个问题`);
  process.exit(1);
}
console.log('schemas: OK');
