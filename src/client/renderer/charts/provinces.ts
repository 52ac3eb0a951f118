// Province names as the China map knows them. Addresses, the region table and clerks write a province
// in several forms (广东 / 广东省, 广西 / 广西壮族自治区, 上海 / 上海市, 香港特别行政区); the map's
// features carry the short form, so every name is reduced to it before it is matched, and values of
// two spellings of one province are added up instead of one hiding the other.

/** The 34 provincial-level divisions, in the short form the shipped map's features are named by. */
export const PROVINCES = [
  '北京', '天津', '河北', '山西', '内蒙古', '辽宁', '吉林', '黑龙江', '上海', '江苏', '浙江', '安徽',
  '福建', '江西', '山东', '河南', '湖北', '湖南', '广东', '广西', '海南', '重庆', '四川', '贵州', '云南',
  '西藏', '陕西', '甘肃', '青海', '宁夏', '新疆', '台湾', '香港', '澳门',
] as const;

const KNOWN = new Set<string>(PROVINCES);
// Longest first: 广西壮族自治区 must lose 壮族自治区, not just 区.
const SUFFIX = /(特别行政区|壮族自治区|回族自治区|维吾尔自治区|自治区|省|市)$/;

/** The short form of a province name (广东省 → 广东, 新疆维吾尔自治区 → 新疆), or null when it is none. */
export function provinceName(raw: string): string | null {
  const name = raw.replace(/\s+/g, '');
  if (KNOWN.has(name)) return name;
  const short = name.replace(SUFFIX, '');
  return KNOWN.has(short) ? short : null;
}

export interface ProvinceItems {
  /** One item per province found, short names, values of several spellings added up. */
  placed: { name: string; value: number }[];
  /** Names that are no province (未识别, a typo), kept so the chart can say what it leaves out. */
  unplaced: { name: string; value: number }[];
}

export function provinceItems(items: readonly { name: string; value: number }[]): ProvinceItems {
  const placed = new Map<string, number>();
  const unplaced: { name: string; value: number }[] = [];
  for (const item of items) {
    const name = provinceName(item.name);
    if (name) placed.set(name, (placed.get(name) ?? 0) + item.value);
    else unplaced.push({ name: item.name, value: item.value });
  }
  return { placed: [...placed].map(([name, value]) => ({ name, value })), unplaced };
}
