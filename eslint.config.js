// ESLint checks the architecture's arrows (DESIGN §2): client and server share only src/core; the
// generic renderer knows no screen, shell or module; the document engine knows no particular document.
// `npm test` runs it (npm run lint). Style is left to the editor; these rules guard the layering.
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

const restrict = (files, patterns) => ({
  files,
  rules: { 'no-restricted-imports': ['error', { patterns }] },
});
// one schema path (issue 33 item 3): the migrations alone leave out the managed document tables
const ONE_SCHEMA_PATH = {
  group: ['**/db/migrate', '**/db/migrate.ts'], importNames: ['migrate'],
  message: 'Make or update the schema with prepareSchema (src/server/schema.ts): the migrations and the managed document tables together.',
};

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'test-output/**', 'data/**'] },
  {
    files: ['**/*.ts', '**/*.tsx'],
    extends: [tseslint.configs.base],
    linterOptions: { reportUnusedDisableDirectives: 'off' },
  },
  {
    files: ['src/client/**/*.tsx', 'src/client/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    // hooks called in the same order every render; dependency lists are reviewed by hand
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'off' },
  },
  restrict(['src/core/**'], [
    { group: ['**/client/**', '**/server/**'], message: 'src/core is shared by client and server: it imports neither.' },
  ]),
  restrict(['src/client/**'], [
    { group: ['**/server/**', '**/server'], message: 'The client talks to the server over HTTP only; share types through src/core.' },
  ]),
  restrict(['src/server/**'], [
    { group: ['**/client/**', '**/client'], message: 'The server does not import client code; share types through src/core.' },
    ONE_SCHEMA_PATH,
  ]),
  restrict(['scripts/**'], [ONE_SCHEMA_PATH]),
  restrict(['src/server/schema.ts'], [
    { group: ['**/client/**', '**/client'], message: 'The server does not import client code; share types through src/core.' },
  ]),
  restrict(['src/client/renderer/**'], [
    { group: ['**/shell/**', '**/schemas/screens/**'], message: 'The renderer is generic: no shell or screen-specific code (register a widget, column, action or kind instead).' },
    { group: ['**/server/**', '**/server'], message: 'The client talks to the server over HTTP only; share types through src/core.' },
  ]),
  {
    // Domain code and document definitions read the typed database (src/server/db/typed.ts): a row cast
    // to Row would hide a wrong table or column from the compiler. (Generic layers — the engine, the
    // resources, tables named at run time — keep Row, declared, and say why.)
    files: ['src/server/domain/**/*.ts', 'src/server/documents/types/*.ts'],
    rules: {
      'no-restricted-syntax': ['error', {
        selector: "TSAsExpression > TSTypeReference.typeAnnotation[typeName.name='Row'], TSAsExpression > TSUnionType.typeAnnotation > TSTypeReference[typeName.name='Row'], TSAsExpression > TSArrayType.typeAnnotation > TSTypeReference[typeName.name='Row']",
        message: 'Domain code queries through the typed view (TypedTenant / typed(db)): no `as Row`.',
      }],
    },
  },
  {
    // ops/ is binding only: input schema, headers, one call into a domain module. Queries live in domain/.
    files: ['src/server/ops/**/*.ts'],
    rules: {
      'no-restricted-syntax': ['error', {
        selector: "CallExpression[callee.property.name=/^(selectFrom|updateTable|insertInto|deleteFrom)$/], CallExpression[callee.object.name=/^(tenant|t)$/][callee.property.name=/^(select|update|insert|delete)$/], CallExpression[callee.object.property.name='tenant'][callee.property.name=/^(select|update|insert|delete)$/]",
        message: 'ops/ is binding only: move the query into a domain module.',
      }],
    },
  },
  restrict(['src/server/documents/*.ts'], [
    { group: ['**/domain/procurement/**', '**/documents/types/*', './types/*', '!./types/index.ts'], message: 'The document engine knows no particular document: put it in a definition under documents/types/.' },
    { group: ['**/client/**', '**/client'], message: 'The server does not import client code; share types through src/core.' },
    ONE_SCHEMA_PATH,
  ]),
);
