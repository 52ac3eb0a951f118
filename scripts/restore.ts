// `npm run restore -- FILE`: a backup into an empty DATA_DIR or an empty PostgreSQL database
// (src/server/backup/restore.ts). Start the server on it afterwards; it applies any newer migrations.
import { loadConfig } from '../src/server/config.ts';
import { restore } from '../src/server/backup/restore.ts';

const file = process.argv[2];
if (!file || file.startsWith('-')) {
  console.error('用法：npm run restore -- 备份文件.tar（目标：空的 DATA_DIR，或 DATABASE_URL 指向的空数据库）');
  process.exit(2);
}
const started = Date.now();
try {
  const m = await restore(loadConfig(), file, (line) => console.log(line));
  console.log(`恢复完成：${m.createdAt} 的备份，文件 ${m.files} 个，用时 ${((Date.now() - started) / 1000).toFixed(1)} 秒；请运行 npm run verify 核对`);
} catch (e) {
  console.error(`恢复失败：${(e as Error).message}`);
  process.exit(1);
}
