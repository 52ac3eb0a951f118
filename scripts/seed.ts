// `npm run seed -- --products 100000 [--company demo] [--suppliers 200] [--clients 500] [--moves N]`
// Fills a company with data at scale, in the database the server uses: SQLite under DATA_DIR (default
// ./data) or PostgreSQL when DATABASE_URL is set. Migrates and creates the demo companies first.
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/server/config.ts';
import { openDatabase } from '../src/server/db/connection.ts';
import { prepareSchema } from '../src/server/schema.ts';
import { seedIfEmpty } from '../src/server/db/seed.ts';
import { seedMoves } from './lib/seed-moves.ts';
import { seedScale } from './lib/seed-scale.ts';

function count(raw: string | undefined, name: string, fallback: number): number {
  if (raw === undefined) return fallback;
  const n = Number(raw.replace(/[_,]/g, ''));
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} 必须是非负整数，当前为 “${raw}”`);
  return n;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      products: { type: 'string', default: '1000' },
      company: { type: 'string', default: 'demo' },
      suppliers: { type: 'string' },
      clients: { type: 'string' },
      moves: { type: 'string' },
      seed: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    console.log('用法：npm run seed -- --products 100000 [--company demo] [--suppliers 200] [--clients 500] [--moves N] [--seed 1]');
    return;
  }
  const config = loadConfig();
  const database = openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    await prepareSchema(database.db, database.dialect);
    if (await seedIfEmpty(database.db, database.dialect)) console.log('已创建演示公司 demo、demo2');
    const where = database.dialect === 'postgres' ? 'PostgreSQL (DATABASE_URL)' : `SQLite ${config.dataDir}/app.sqlite`;
    const products = count(values.products, 'products', 1000);
    console.log(`向公司 ${values.company} 写入 ${products} 个商品 → ${where}`);
    const r = await seedScale(database.db, {
      company: values.company!, products, dialect: database.dialect,
      suppliers: count(values.suppliers, 'suppliers', 200), clients: count(values.clients, 'clients', 500),
      seed: values.seed === undefined ? undefined : count(values.seed, 'seed', 0),
      log: (line) => console.log(line),
    });
    console.log(`完成：类别 +${r.categories}，供应商 +${r.suppliers}，客户 +${r.clients}，商品 +${r.products}（${r.firstCode ?? '-'} … ${r.lastCode ?? '-'}），商品价格 +${r.productPrices}，用时 ${(r.ms / 1000).toFixed(1)} 秒`);
    if (values.moves !== undefined) {
      const moves = count(values.moves, 'moves', 0);
      console.log(`向公司 ${values.company} 写入 ${moves} 条库存流水（含一致的库存余额）→ ${where}`);
      const m = await seedMoves(database.db, {
        company: values.company!, moves, dialect: database.dialect,
        seed: values.seed === undefined ? undefined : count(values.seed, 'seed', 0),
        log: (line) => console.log(line),
      });
      console.log(`完成：库位 ${m.locations}，库存键 ${m.keys}，库存流水 +${m.moves}，用时 ${(m.ms / 1000).toFixed(1)} 秒`);
    }
  } finally {
    await database.close();
  }
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
