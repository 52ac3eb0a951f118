// `npm run backup -- FILE`: the database (SQLite under DATA_DIR, or PostgreSQL at DATABASE_URL) and the
// uploaded files into one .tar, while the server keeps running (src/server/backup/backup.ts).
import { loadConfig } from '../src/server/config.ts';
import { backup } from '../src/server/backup/backup.ts';

const file = process.argv[2];
if (!file || file.startsWith('-')) {
  console.error('用法：npm run backup -- 备份文件.tar');
  process.exit(2);
}
const started = Date.now();
try {
  const m = await backup(loadConfig(), file, (line) => console.log(line));
  console.log(`备份完成：${file}（${m.dialect === 'postgres' ? 'PostgreSQL' : 'SQLite'}，迁移 ${m.migrations.length} 个，文件 ${m.files} 个，用时 ${((Date.now() - started) / 1000).toFixed(1)} 秒）`);
} catch (e) {
  console.error(`备份失败：${(e as Error).message}`);
  process.exit(1);
}
