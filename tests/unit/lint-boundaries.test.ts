// The layering rules of eslint.config.js refuse what they are meant to refuse (and `npm run lint` runs
// them over the tree in `npm test`): a rule that never fires would guard nothing.
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const eslint = new ESLint({ cwd: root });

async function problems(file: string, code: string): Promise<string[]> {
  const [r] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return r!.messages.map((m) => m.message);
}

describe('import boundaries', () => {
  it('client code cannot import server code, nor server code client code', async () => {
    expect((await problems('src/client/x.ts', "import { createServer } from '../server/server.ts';\n")).join()).toContain('talks to the server over HTTP');
    expect((await problems('src/server/x.ts', "import { toast } from '../client/request/index.ts';\n")).join()).toContain('does not import client code');
    expect((await problems('src/core/x.ts', "import { toast } from '../client/request/index.ts';\n")).join()).toContain('src/core is shared');
  });

  it('the renderer imports no shell or screen file; the engine no particular document', async () => {
    expect((await problems('src/client/renderer/x.ts', "import { Shell } from '../shell/Layout';\n")).join()).toContain('The renderer is generic');
    expect((await problems('src/client/renderer/x.ts', "import po from '../../../schemas/screens/procurement/list.json';\n")).join()).toContain('The renderer is generic');
    expect((await problems('src/server/documents/engine2.ts', "import { PO_TITLE } from '../domain/procurement/purchase-order.ts';\n")).join()).toContain('knows no particular document');
  });

  it('domain code casts no row to Row; ops/ holds no query', async () => {
    expect((await problems('src/server/domain/x.ts', 'type Row = Record<string, unknown>;\nexport const f = async (q: { execute(): Promise<unknown> }) => (await q.execute()) as Row[];\n')).join()).toContain('no `as Row`');
    expect((await problems('src/server/documents/types/x.ts', 'type Row = Record<string, unknown>;\nexport const f = (v: unknown) => v as Row | undefined;\n')).join()).toContain('no `as Row`');
    expect((await problems('src/server/ops/x.ts', "export const f = (db: any) => db.selectFrom('product').selectAll().execute();\n")).join()).toContain('binding only');
    expect((await problems('src/server/ops/x.ts', "export const f = (ctx: any) => ctx.tenant.select('product').selectAll().execute();\n")).join()).toContain('binding only');
    // declared rows (a table named at run time) and ops calling a domain function pass
    expect(await problems('src/server/domain/x.ts', 'type Row = Record<string, unknown>;\nexport const rows: Row[] = [];\n')).toEqual([]);
    expect(await problems('src/server/ops/x.ts', "import { f } from '../domain/x.ts';\nexport const run = (ctx: unknown) => f(ctx);\n")).toEqual([]);
  });

  it('allowed imports pass', async () => {
    expect(await problems('src/client/x.ts', "import { OK } from '../core/codes';\n")).toEqual([]);
    expect(await problems('src/server/documents/types/x.ts', "import { PO_TITLE } from '../../domain/procurement/purchase-order.ts';\n")).toEqual([]);
  });
});
