// `npm run schemas:check`: every schema file valid and every cross-reference resolvable.
import { checkSchemas, formatProblem } from '../src/server/catalog/schema-check.ts';
import { generatedEndpoints } from '../src/server/documents/index.ts';

// the codes document definitions generate are in the catalog the server serves too
const problems = checkSchemas(undefined, generatedEndpoints());
if (problems.length) {
  for (const p of problems) console.error(formatProblem(p));
  console.error(`\n${problems.length} 个问题`);
  process.exit(1);
}
console.log('schemas: OK');
