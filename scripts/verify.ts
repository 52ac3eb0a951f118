// `npm run verify [-- --company demo] [--limit 1000] [--json]`
// Recomputes every stock balance from the ledger, and every open item (receivables, payables) from the
// allocation ledger (domain/finance/verify.ts), (the same code as /system/verification, cdm 019401) in
// the database the server uses — SQLite under DATA_DIR (default ./data) or PostgreSQL when DATABASE_URL is
// set — prints each difference and exits 1 if there is any (0: clean; 2: cannot check).
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/server/config.ts';
import { openDatabase } from '../src/server/db/connection.ts';
import { verifyStock } from '../src/server/domain/stock/verify.ts';
import { verifyFinance, type FinanceVerifyResult } from '../src/server/domain/finance/verify.ts';

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      company: { type: 'string' },
      limit: { type: 'string', default: '1000' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    console.log('用法：npm run verify -- [--company 公司代码] [--limit 1000] [--json]');
    return 0;
  }
  const limit = Number(values.limit);
  if (!Number.isInteger(limit) || limit < 1) throw new Error(`--limit 必须是正整数，当前为 “${values.limit}”`);
  const config = loadConfig();
  const database = openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    const where = database.dialect === 'postgres' ? 'PostgreSQL (DATABASE_URL)' : `SQLite ${config.dataDir}/app.sqlite`;
    const migrated = await database.db.selectFrom('schemaMigration').select('name').where('name', '=', '005-stock').executeTakeFirst().catch(() => undefined);
    if (!migrated) {
      console.error(`${where}：数据库尚未建立库存表（先启动服务器或运行 npm run seed）`);
      return 2;
    }
    let companyId: number | undefined;
    if (values.company) {
      const c = await database.db.selectFrom('company').select('id').where('code', '=', values.company).executeTakeFirst();
      if (!c) {
        console.error(`公司代码 “${values.company}” 不存在`);
        return 2;
      }
      companyId = Number(c.id);
    }
    const r = await verifyStock(database.db, { companyId, limit });
    const hasFinance = await database.db.selectFrom('schemaMigration').select('name').where('name', '=', '023-finance').executeTakeFirst();
    const f: FinanceVerifyResult = hasFinance ? await verifyFinance(database.db, { companyId, limit }) : { items: 0, allocations: 0, total: 0, differences: [] };
    const bad = r.total + f.total;
    if (values.json) {
      console.log(JSON.stringify({ ...r, finance: f }, null, 2));
      return bad ? 1 : 0;
    }
    console.log(`库存校验：${where}${values.company ? `，公司 ${values.company}` : ''}`);
    console.log(`  流水 ${r.moves.toLocaleString('en-US')} 条，余额 ${r.balances.toLocaleString('en-US')} 条，用时 ${(r.ms / 1000).toFixed(2)} 秒`);
    for (const d of r.differences) console.log(`  ✗ ${d.message}`);
    if (r.total > r.differences.length) console.log(`  …… 另有 ${r.total - r.differences.length} 个差异未列出（--limit）`);
    console.log(`财务校验：应收应付款项 ${f.items.toLocaleString('en-US')} 笔，核销流水 ${f.allocations.toLocaleString('en-US')} 条`);
    for (const d of f.differences) console.log(`  ✗ ${d.message}`);
    if (f.total > f.differences.length) console.log(`  …… 另有 ${f.total - f.differences.length} 个财务差异未列出（--limit）`);
    console.log(bad ? `发现 ${bad} 个差异` : '没有差异');
    return bad ? 1 : 0;
  } finally {
    await database.close();
  }
}

main().then(
  (code) => { process.exitCode = code; },
  (e) => {
    console.error(e instanceof Error ? e.message : e);
    process.exitCode = 2;
  },
);
