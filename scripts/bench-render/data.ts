// The benchmark's rows, generated in the page (no server): 8 columns of mixed types.
export interface BenchRow {
  id: number;
  code: string;
  name: string;
  status: string;
  enabled: boolean;
  qty: number;
  amount: string;
  currencyId: number;
  day: string;
  createdAt: string;
}

const STATUSES = ['draft', 'confirmed', 'received', 'closed'];
const NAMES = ['螺丝刀套装', '不锈钢保温杯', '无线鼠标', '蓝牙耳机', '办公椅', '打印纸 A4', '电动牙刷', '笔记本支架'];

export function makeRows(n: number): BenchRow[] {
  const out: BenchRow[] = new Array(n);
  const base = Date.UTC(2024, 0, 1);
  for (let i = 0; i < n; i++) {
    const cents = (i * 7919) % 1000000;
    out[i] = {
      id: i + 1,
      code: `SKU-${String(i + 1).padStart(6, '0')}`,
      name: `${NAMES[i % NAMES.length]} ${i % 97}`,
      status: STATUSES[i % STATUSES.length]!,
      enabled: i % 3 !== 0,
      qty: (i * 13) % 500,
      amount: `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`,
      currencyId: (i % 2) + 1,
      day: new Date(base + (i % 365) * 86400000).toISOString().slice(0, 10),
      createdAt: new Date(base + i * 61000).toISOString(),
    };
  }
  return out;
}

export const STATUS_OPTIONS = [
  { value: 'draft', label: '草稿' },
  { value: 'confirmed', label: '已确认', color: 'blue' },
  { value: 'received', label: '已收货', color: 'green' },
  { value: 'closed', label: '已关闭' },
];

export const currencies = [
  { id: 1, currencyName: '人民币', currencyCharacter: '¥', code: 'CNY' },
  { id: 2, currencyName: '美元', currencyCharacter: '$', code: 'USD' },
];
