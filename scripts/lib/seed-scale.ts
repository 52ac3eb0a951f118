// Fills one company with data at scale: a category tree, suppliers, clients, products and their prices
// on every price list of the company. Deterministic (a seeded PRNG), batched multi-row inserts inside
// transactions, on SQLite or PostgreSQL. Additive: product codes continue after the highest P-code.
import { sql } from 'kysely';
import type { DB, Dialect } from '../../src/server/db/connection.ts';
import { addPosting, addPostings, PRODUCT_KEYWORDS, rowGrams, type Postings } from '../../src/server/resources/keyword-index.ts';
import { prng } from './bulk.ts';

export interface SeedScaleOptions {
  company: string;
  products: number;
  /** postgres: VACUUM ANALYZE afterwards (visibility map and statistics; autovacuum will not kick in mid-benchmark). Required on PostgreSQL. */
  dialect?: Dialect;
  suppliers?: number;
  clients?: number;
  /** PRNG seed: the same seed gives the same data. */
  seed?: number;
  /** Progress lines (default: none). */
  log?: (line: string) => void;
}

export interface SeedScaleReport {
  companyId: number;
  categories: number;
  suppliers: number;
  clients: number;
  products: number;
  productPrices: number;
  firstCode: string | null;
  lastCode: string | null;
  ms: number;
}

interface CategorySeed {
  code: string;
  name: string;
  hs: string;
  /** [code, name, nouns (Chinese, English), specs] */
  children: Array<[string, string, Array<[string, string]>, string[]]>;
}

// Realistic Chinese product vocabulary per category; a product name is brand + material/adjective + noun.
const CATEGORIES: CategorySeed[] = [
  { code: 'C01', name: '五金工具', hs: '7318', children: [
    ['C0101', '紧固件', [['十字螺丝', 'Phillips screw'], ['自攻螺丝', 'Self-tapping screw'], ['内六角螺丝', 'Hex socket screw'], ['六角螺母', 'Hex nut'], ['平垫圈', 'Flat washer'], ['膨胀螺丝', 'Expansion bolt'], ['木螺丝', 'Wood screw']], ['M3×10', 'M4×16', 'M5×20', 'M6×30', 'M8×40', 'M10×50']],
    ['C0102', '手动工具', [['螺丝刀套装', 'Screwdriver set'], ['活动扳手', 'Adjustable wrench'], ['尖嘴钳', 'Needle-nose pliers'], ['羊角锤', 'Claw hammer'], ['钢卷尺', 'Tape measure'], ['美工刀', 'Utility knife']], ['6寸', '8寸', '10寸', '12寸', '5米', '3米']],
    ['C0103', '电动工具', [['充电电钻', 'Cordless drill'], ['角磨机', 'Angle grinder'], ['电锤', 'Rotary hammer'], ['热风枪', 'Heat gun'], ['电动螺丝刀', 'Electric screwdriver']], ['12V', '18V', '220V 800W', '220V 1200W']],
    ['C0104', '门窗五金', [['不锈钢合页', 'Stainless hinge'], ['门吸', 'Door stopper'], ['抽屉滑轨', 'Drawer slide'], ['拉手', 'Cabinet handle'], ['门锁', 'Door lock']], ['4寸', '5寸', '300mm', '400mm', '96孔距', '128孔距']],
  ] },
  { code: 'C02', name: '电子电器', hs: '8516', children: [
    ['C0201', '照明', [['LED灯泡', 'LED bulb'], ['LED灯管', 'LED tube'], ['吸顶灯', 'Ceiling lamp'], ['台灯', 'Desk lamp'], ['手电筒', 'Flashlight']], ['5W', '9W', '12W', '18W', '24W']],
    ['C0202', '插座线材', [['排插', 'Power strip'], ['延长线', 'Extension cord'], ['USB充电器', 'USB charger'], ['数据线', 'Data cable'], ['转换插头', 'Travel adapter']], ['1.5米', '3米', '5米', '2口', '4口']],
    ['C0203', '小家电', [['电热水壶', 'Electric kettle'], ['电吹风', 'Hair dryer'], ['电风扇', 'Electric fan'], ['电饭煲', 'Rice cooker'], ['加湿器', 'Humidifier']], ['1.5L', '1.7L', '3L', '5L', '1200W', '1800W']],
  ] },
  { code: 'C03', name: '日用百货', hs: '3924', children: [
    ['C0301', '清洁用品', [['拖把', 'Mop'], ['扫把套装', 'Broom set'], ['垃圾袋', 'Garbage bag'], ['洗洁精', 'Dish soap'], ['抹布', 'Cleaning cloth']], ['大号', '中号', '小号', '500ml', '1L', '100只装']],
    ['C0302', '收纳用品', [['收纳箱', 'Storage box'], ['衣架', 'Clothes hanger'], ['置物架', 'Storage rack'], ['真空压缩袋', 'Vacuum bag']], ['20L', '35L', '55L', '10只装', '三层', '四层']],
    ['C0303', '个人护理', [['牙刷', 'Toothbrush'], ['毛巾', 'Towel'], ['浴巾', 'Bath towel'], ['梳子', 'Comb'], ['指甲刀', 'Nail clipper']], ['单支', '4支装', '34×74cm', '70×140cm']],
  ] },
  { code: 'C04', name: '家居厨具', hs: '7323', children: [
    ['C0401', '锅具', [['不粘炒锅', 'Non-stick wok'], ['汤锅', 'Stock pot'], ['平底锅', 'Frying pan'], ['高压锅', 'Pressure cooker']], ['24cm', '28cm', '30cm', '32cm', '4L', '6L']],
    ['C0402', '餐具', [['陶瓷碗', 'Ceramic bowl'], ['筷子', 'Chopsticks'], ['不锈钢勺', 'Stainless spoon'], ['餐盘', 'Dinner plate'], ['保温杯', 'Vacuum flask']], ['4.5寸', '8寸', '10双装', '6只装', '500ml']],
    ['C0403', '厨房小工具', [['削皮刀', 'Peeler'], ['菜板', 'Cutting board'], ['保鲜盒', 'Food container'], ['刀具套装', 'Knife set'], ['开瓶器', 'Bottle opener']], ['小号', '大号', '3件套', '5件套', '1L']],
  ] },
  { code: 'C05', name: '文具办公', hs: '9608', children: [
    ['C0501', '书写工具', [['中性笔', 'Gel pen'], ['圆珠笔', 'Ballpoint pen'], ['记号笔', 'Marker'], ['铅笔', 'Pencil'], ['荧光笔', 'Highlighter']], ['0.5mm', '0.7mm', '12支装', '黑色', '蓝色', '红色']],
    ['C0502', '纸品本册', [['笔记本', 'Notebook'], ['A4复印纸', 'A4 copy paper'], ['便利贴', 'Sticky notes'], ['文件袋', 'File bag']], ['A5', 'B5', '500张', '70g', '80g']],
    ['C0503', '办公用品', [['订书机', 'Stapler'], ['计算器', 'Calculator'], ['剪刀', 'Scissors'], ['胶带', 'Adhesive tape'], ['文件夹', 'Folder']], ['12号', '24/6', '18mm', '48mm', '10个装']],
  ] },
  { code: 'C06', name: '纺织服装', hs: '6109', children: [
    ['C0601', '服装', [['纯棉T恤', 'Cotton T-shirt'], ['工作服', 'Workwear'], ['雨衣', 'Raincoat'], ['围裙', 'Apron']], ['S', 'M', 'L', 'XL', 'XXL']],
    ['C0602', '劳保用品', [['劳保手套', 'Work gloves'], ['防护口罩', 'Face mask'], ['安全帽', 'Safety helmet'], ['反光背心', 'Safety vest']], ['均码', '12双装', '50只装', '红色', '黄色']],
  ] },
  { code: 'C07', name: '汽车配件', hs: '8708', children: [
    ['C0701', '汽车用品', [['车载充电器', 'Car charger'], ['雨刮器', 'Wiper blade'], ['汽车脚垫', 'Car floor mat'], ['车载手机支架', 'Phone holder']], ['14寸', '16寸', '22寸', '26寸', '通用款']],
    ['C0702', '维修配件', [['火花塞', 'Spark plug'], ['机油滤芯', 'Oil filter'], ['刹车片', 'Brake pad'], ['汽车灯泡', 'Car bulb']], ['H4', 'H7', '前轮', '后轮', '通用']],
  ] },
  { code: 'C08', name: '户外运动', hs: '9506', children: [
    ['C0801', '户外装备', [['帐篷', 'Tent'], ['睡袋', 'Sleeping bag'], ['折叠椅', 'Folding chair'], ['登山杖', 'Trekking pole'], ['头灯', 'Headlamp']], ['单人', '双人', '3-4人', '铝合金', '碳纤维']],
    ['C0802', '健身器材', [['瑜伽垫', 'Yoga mat'], ['哑铃', 'Dumbbell'], ['跳绳', 'Jump rope'], ['弹力带', 'Resistance band']], ['6mm', '10mm', '5kg', '10kg', '2.8米']],
  ] },
  { code: 'C09', name: '玩具礼品', hs: '9503', children: [
    ['C0901', '玩具', [['积木', 'Building blocks'], ['毛绒玩具', 'Plush toy'], ['遥控车', 'RC car'], ['拼图', 'Jigsaw puzzle']], ['100片', '500片', '30cm', '45cm', '1:16']],
    ['C0902', '礼品', [['礼品盒', 'Gift box'], ['贺卡', 'Greeting card'], ['钥匙扣', 'Keychain'], ['马克杯', 'Mug']], ['小号', '大号', '350ml', '10张装']],
  ] },
  { code: 'C10', name: '包装材料', hs: '4819', children: [
    ['C1001', '纸箱', [['五层瓦楞纸箱', '5-ply carton'], ['三层瓦楞纸箱', '3-ply carton'], ['飞机盒', 'Mailer box']], ['1号', '3号', '5号', '7号', '12号']],
    ['C1002', '包装耗材', [['封箱胶带', 'Packing tape'], ['气泡膜', 'Bubble wrap'], ['缠绕膜', 'Stretch film'], ['打包带', 'Strapping band'], ['快递袋', 'Courier bag']], ['45mm', '60mm', '50cm', '100米', '100只装']],
  ] },
];

const BRANDS = ['永固', '金狮', '东成', '得力', '晨光', '美的', '苏泊尔', '公牛', '雷士', '佳洁', '宏达', '华美', '恒通', '鑫源', '长城', '飞鹰', '天工', '盛邦', '绿源', '顺发'];
const ADJECTIVES = ['不锈钢', '加厚', '镀锌', '碳钢', '环保', '家用', '工业级', '便携式', '多功能', '加长', '防滑', '304', '耐高温', '经典款', '升级款', '', '', ''];
const ORIGINS = ['浙江宁波', '浙江义乌', '广东深圳', '广东佛山', '江苏苏州', '山东青岛', '福建厦门', '河北沧州', '上海', '天津'];
const BIG_UNITS = ['箱', '件', '包'];
const MID_UNITS = ['盒', '包', '袋', '打'];
const SMALL_UNITS = ['个', '件', '只', '把', '套', '支', '卷', '双'];
const SUPPLIER_NAMES = ['五金制品厂', '塑料制品有限公司', '电器有限公司', '日用品厂', '文具有限公司', '纺织品有限公司', '汽配有限公司', '包装材料厂', '工贸有限公司', '实业有限公司'];
const CLIENT_NAMES = ['百货贸易公司', '建材商行', '五金批发部', '超市有限公司', '进出口有限公司', '商贸有限公司', '电子商务有限公司', '日用品批发中心'];
const CITIES = ['宁波', '义乌', '深圳', '佛山', '苏州', '青岛', '厦门', '杭州', '广州', '温州', '台州', '东莞', '泉州', '临沂', '金华'];

const pick = <T>(rnd: () => number, list: readonly T[]): T => list[Math.floor(rnd() * list.length)];
const int = (rnd: () => number, lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));

/** EAN-13 with a valid check digit, Chinese prefix 69. */
function ean13(n: number): string {
  const body = '69' + String(n).padStart(10, '0').slice(-10);
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(body[i]) * (i % 2 ? 3 : 1);
  return body + ((10 - (sum % 10)) % 10);
}

const PRODUCT_CODE = /^P(\d{7,})$/;
export const productCode = (n: number) => `P${String(n).padStart(7, '0')}`;

/** Largest batch whose bound parameters stay well under both engines' limits (SQLite 32766, PostgreSQL 65535). */
function batchRows(columns: number): number {
  return Math.max(1, Math.floor(30000 / columns));
}

async function insertBatched(db: DB, table: string, rows: Record<string, unknown>[]): Promise<void> {
  if (!rows.length) return;
  const size = batchRows(Object.keys(rows[0]).length);
  for (let i = 0; i < rows.length; i += size) await db.insertInto(table).values(rows.slice(i, i + size)).execute();
}

async function idsByCode(db: DB, table: string, companyId: number): Promise<Map<string, number>> {
  const rows = await db.selectFrom(table).select(['id', 'code']).where('companyId', '=', companyId).execute();
  return new Map(rows.map((r) => [String(r.code), Number(r.id)]));
}

export async function seedScale(db: DB, opts: SeedScaleOptions): Promise<SeedScaleReport> {
  const started = Date.now();
  const log = opts.log ?? (() => undefined);
  const rnd = prng(opts.seed ?? 20261121);
  const company = await db.selectFrom('company').select(['id']).where('code', '=', opts.company).executeTakeFirst();
  if (!company) throw new Error(`公司代码 “${opts.company}” 不存在（先运行服务器或 seedIfEmpty 生成演示公司）`);
  const companyId = Number(company.id);
  const now = new Date().toISOString();
  const stamp = { companyId, version: 1, createdAt: now, updatedAt: now };
  const report: SeedScaleReport = { companyId, categories: 0, suppliers: 0, clients: 0, products: 0, productPrices: 0, firstCode: null, lastCode: null, ms: 0 };

  // Categories: ten top-level, each with leaves (created once; reruns reuse them).
  await db.transaction().execute(async (trx) => {
    const existing = await idsByCode(trx, 'category', companyId);
    for (const [i, top] of CATEGORIES.entries()) {
      let topId = existing.get(top.code);
      if (!topId) {
        const row = await trx.insertInto('category').values({ ...stamp, code: top.code, name: top.name, sort: i + 1 }).returning('id').executeTakeFirstOrThrow();
        topId = Number(row.id);
        report.categories++;
      }
      const leaves = top.children.filter(([code]) => !existing.has(code));
      await insertBatched(trx, 'category', leaves.map(([code, name], j) => ({ ...stamp, parentId: topId, code, name, sort: j + 1 })));
      report.categories += leaves.length;
    }
  });
  const categoryIds = await idsByCode(db, 'category', companyId);

  // Suppliers and clients.
  const supplierCount = opts.suppliers ?? 200;
  const clientCount = opts.clients ?? 500;
  const currency = await db.selectFrom('company').select('currencyId').where('id', '=', companyId).executeTakeFirst();
  const currencyId = currency?.currencyId == null ? null : Number(currency.currencyId);
  const salePrices = await db.selectFrom('priceTitle').select(['id', 'kind']).where('companyId', '=', companyId).where('enabled', '=', 1).orderBy('id').execute();
  const saleTitle = salePrices.find((p) => p.kind === 'sale');
  await db.transaction().execute(async (trx) => {
    const haveS = await idsByCode(trx, 'supplier', companyId);
    const suppliers: Record<string, unknown>[] = [];
    for (let i = 1; i <= supplierCount; i++) {
      const code = `SUP${String(i).padStart(4, '0')}`;
      const city = pick(rnd, CITIES);
      const name = `${city}${pick(rnd, BRANDS)}${pick(rnd, SUPPLIER_NAMES)}${i}`;
      if (haveS.has(code)) continue;
      suppliers.push({ ...stamp, code, name, contact: `${pick(rnd, ['陈', '王', '李', '张', '刘', '杨', '黄', '吴'])}经理`, phone: `1${int(rnd, 30, 99)}${String(int(rnd, 0, 99999999)).padStart(8, '0')}`,
        address: `${city}市工业园区${int(rnd, 1, 300)}号`, currencyId, paymentDays: pick(rnd, [0, 15, 30, 45, 60]), enabled: 1 });
    }
    await insertBatched(trx, 'supplier', suppliers);
    report.suppliers = suppliers.length;
    const haveC = await idsByCode(trx, 'client', companyId);
    const clients: Record<string, unknown>[] = [];
    for (let i = 1; i <= clientCount; i++) {
      const code = `CLI${String(i).padStart(5, '0')}`;
      const city = pick(rnd, CITIES);
      if (haveC.has(code)) continue;
      clients.push({ ...stamp, code, name: `${city}${pick(rnd, BRANDS)}${pick(rnd, CLIENT_NAMES)}${i}`, contact: `${pick(rnd, ['赵', '钱', '孙', '周', '郑', '冯', '沈', '韩'])}先生`,
        phone: `0${int(rnd, 10, 999)}-${int(rnd, 10000000, 89999999)}`, address: `${city}市商贸城${int(rnd, 1, 50)}区${int(rnd, 1, 999)}号`, currencyId,
        priceTitleId: saleTitle ? Number(saleTitle.id) : null, creditLimit: int(rnd, 0, 100) * 1_000_000, enabled: 1 });
    }
    await insertBatched(trx, 'client', clients);
    report.clients = clients.length;
  });
  const supplierIds = [...(await idsByCode(db, 'supplier', companyId)).values()];

  // Products: continue after the highest P-code already present.
  const last = await db.selectFrom('product').select('code').where('companyId', '=', companyId).where('code', 'like', 'P%')
    .orderBy(sql`length(code)`, 'desc').orderBy('code', 'desc').limit(1).executeTakeFirst();
  const lastMatch = last ? PRODUCT_CODE.exec(String(last.code)) : null;
  let next = lastMatch ? Number(lastMatch[1]) + 1 : 1;
  const leaves = CATEGORIES.flatMap((top) => top.children.map(([code, , nouns, specs]) => ({ id: categoryIds.get(code)!, hs: top.hs, nouns, specs })));
  const CHUNK = 20_000;
  for (let done = 0; done < opts.products; done += CHUNK) {
    const n = Math.min(CHUNK, opts.products - done);
    const products: Record<string, unknown>[] = [];
    const basePrice: number[] = [];
    for (let i = 0; i < n; i++, next++) {
      const leaf = pick(rnd, leaves);
      const [noun, nounEn] = pick(rnd, leaf.nouns);
      const brand = pick(rnd, BRANDS);
      const adjective = pick(rnd, ADJECTIVES);
      const spec = pick(rnd, leaf.specs);
      const midQty = pick(rnd, [1, 6, 10, 12, 20, 24]);
      const big = midQty * pick(rnd, [2, 4, 5, 10]);
      // price in fen: 0.50 to 3,000.00 yuan, skewed towards cheap goods
      const price = Math.round(50 + Math.pow(rnd(), 3) * 299_950);
      basePrice.push(price);
      products.push({
        ...stamp, code: productCode(next), barcode: ean13(next + 10_000_000), name: `${brand}${adjective}${noun} ${spec}`,
        nameEn: `${nounEn} ${spec}`, categoryId: leaf.id, brand, specification: spec, hsCode: `${leaf.hs}${String(int(rnd, 0, 9999)).padStart(4, '0')}00`.slice(0, 10),
        origin: pick(rnd, ORIGINS), imageId: null, status: rnd() < 0.05 ? 'stopped' : 'onSale', locked: rnd() < 0.01 ? 1 : 0,
        supplierId: supplierIds.length ? pick(rnd, supplierIds) : null, unitBig: pick(rnd, BIG_UNITS), unitMid: midQty > 1 ? pick(rnd, MID_UNITS) : null,
        unitSmall: pick(rnd, SMALL_UNITS), midQty, bigQty: big, cartonWeight: int(rnd, 500, 30_000), cartonVolume: int(rnd, 5_000, 200_000),
        price, remark: rnd() < 0.1 ? '常规备货' : null,
      });
    }
    await db.transaction().execute(async (trx) => {
      await insertBatched(trx, 'product', products);
      const codes = products.map((p) => p.code as string);
      const ids = new Map<string, number>();
      // Look the new ids up by code range (one indexed range scan, no giant IN list).
      const rows = await trx.selectFrom('product').select(['id', 'code']).where('companyId', '=', companyId)
        .where('code', '>=', codes[0]).where('code', '<=', codes[codes.length - 1]).execute();
      for (const r of rows) ids.set(String(r.code), Number(r.id));
      // The keyword index, as every product write keeps it (resources/keyword-index.ts).
      const keywords: Postings = new Map();
      for (const p of products) {
        const productId = ids.get(p.code as string)!;
        for (const g of rowGrams(PRODUCT_KEYWORDS, p)) addPosting(keywords, g, productId);
      }
      await addPostings(trx, opts.dialect ?? 'sqlite', PRODUCT_KEYWORDS, companyId, keywords, true);
      const prices: Record<string, unknown>[] = [];
      for (const [i, p] of products.entries()) {
        const productId = ids.get(p.code as string)!;
        for (const t of salePrices) {
          // purchase lists ~70% of the reference price, sale lists the reference price (integers, fen)
          const value = t.kind === 'purchase' ? Math.round((basePrice[i] * 7) / 10) : basePrice[i];
          prices.push({ ...stamp, priceTitleId: Number(t.id), productId, price: value });
        }
      }
      await insertBatched(trx, 'productPrice', prices);
      report.productPrices += prices.length;
    });
    report.products += n;
    report.firstCode ??= products[0]?.code as string;
    report.lastCode = (products[products.length - 1]?.code as string) ?? report.lastCode;
    log(`  商品 ${report.products}/${opts.products}（${((Date.now() - started) / 1000).toFixed(1)} 秒）`);
  }
  // Fresh statistics so the planner picks the right indexes for lists over the new rows.
  if (opts.dialect === 'postgres') {
    for (const t of ['category', 'supplier', 'client', 'product', 'product_price', 'product_keyword']) await sql`vacuum analyze ${sql.table(t)}`.execute(db);
  } else {
    await sql`analyze`.execute(db);
  }
  report.ms = Date.now() - started;
  return report;
}
