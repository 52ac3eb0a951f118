// 客户分布 / 销售分布 (cdm 019815–019816): clients and sales by province and city of China, the region read
// from the address text with the bundled division table below (no geocoder, no tile server: nothing leaves
// the machine). A province is found by its full or short name at the start of the address (北京市 / 北京,
// 广西壮族自治区 / 广西); the city is the next unit ending in 市, 自治州, 地区 or 盟 (the four municipalities
// are their own city); an address that starts with a city instead is placed by the table of large cities.
// What cannot be read is 未识别, so every client and order is counted somewhere.
// 客户分布: each client once (by its address) with its orders and sales. 销售分布: each sold order (past
// draft, not cancelled) at its delivery address, else its client's address; by province, city or salesman.
import { sql } from 'kysely';
import type { CallContext, InputSchema } from '../../catalog/context.ts';
import { big, Groups, PAGING, reportPage, type Measure, type ReportPaging, type Row } from '../reports/common.ts';
import { SOLD_STATUSES } from '../reports/sale-report.ts';
import { groupByInput, screenGroupings } from '../reports/screen-groupings.ts';
import { TypedTenant } from '../../db/typed.ts';

const MUNICIPALITIES = ['北京', '天津', '上海', '重庆'];
const PROVINCES: [short: string, full: string][] = [
  ...MUNICIPALITIES.map((s) => [s, `${s}市`] as [string, string]),
  ...['河北', '山西', '辽宁', '吉林', '黑龙江', '江苏', '浙江', '安徽', '福建', '江西', '山东', '河南', '湖北', '湖南', '广东', '海南', '四川', '贵州', '云南', '陕西', '甘肃', '青海', '台湾']
    .map((s) => [s, `${s}省`] as [string, string]),
  ['内蒙古', '内蒙古自治区'], ['广西', '广西壮族自治区'], ['西藏', '西藏自治区'], ['宁夏', '宁夏回族自治区'], ['新疆', '新疆维吾尔自治区'],
  ['香港', '香港特别行政区'], ['澳门', '澳门特别行政区'],
];

/** Large cities by the province they are in (an address that starts with the city). */
const CITIES: Record<string, string[]> = {
  河北: ['石家庄', '唐山', '保定', '邯郸', '廊坊', '秦皇岛'], 山西: ['太原', '大同'], 辽宁: ['沈阳', '大连', '鞍山'], 吉林: ['长春'], 黑龙江: ['哈尔滨', '大庆'],
  江苏: ['南京', '苏州', '无锡', '常州', '南通', '徐州', '扬州'], 浙江: ['杭州', '宁波', '温州', '绍兴', '嘉兴', '金华', '义乌', '台州'],
  安徽: ['合肥', '芜湖'], 福建: ['福州', '厦门', '泉州'], 江西: ['南昌', '赣州'], 山东: ['济南', '青岛', '烟台', '潍坊', '临沂'],
  河南: ['郑州', '洛阳'], 湖北: ['武汉', '宜昌', '襄阳'], 湖南: ['长沙', '株洲'], 广东: ['广州', '深圳', '东莞', '佛山', '珠海', '中山', '汕头', '惠州'],
  海南: ['海口', '三亚'], 四川: ['成都', '绵阳'], 贵州: ['贵阳'], 云南: ['昆明'], 陕西: ['西安'], 甘肃: ['兰州'], 青海: ['西宁'],
  内蒙古: ['呼和浩特', '包头'], 广西: ['南宁', '桂林', '柳州'], 西藏: ['拉萨'], 宁夏: ['银川'], 新疆: ['乌鲁木齐'], 台湾: ['台北', '高雄'],
};

const UNKNOWN = '未识别';

export interface Region { province: string; city: string }

/** Province and city of an address (未识别 where the text does not say). */
export function regionOf(address: unknown): Region {
  const text = String(address ?? '').replace(/[\s\u3000]/g, '').replace(/^中国/, '');
  if (!text) return { province: UNKNOWN, city: UNKNOWN };
  for (const [short, full] of PROVINCES) {
    const at = text.startsWith(full) ? full.length : text.startsWith(short) ? short.length : -1;
    if (at < 0) continue;
    if (MUNICIPALITIES.includes(short) || short === '香港' || short === '澳门') return { province: full, city: full };
    const rest = text.slice(at).replace(/^(省|自治区)/, '');
    const m = /^(.{1,10}?(?:市|自治州|地区|盟))/.exec(rest);
    if (m) return { province: full, city: m[1]! };
    const known = (CITIES[short] ?? []).find((c) => rest.startsWith(c));
    return { province: full, city: known ? `${known}市` : UNKNOWN };
  }
  for (const [short, cities] of Object.entries(CITIES)) {
    const c = cities.find((x) => text.startsWith(x));
    if (c) return { province: PROVINCES.find((p) => p[0] === short)![1], city: `${c}市` };
  }
  return { province: UNKNOWN, city: UNKNOWN };
}

/**
 * The region of the first of the texts that names one: a delivery address, then the client's address,
 * then the client's name — a Chinese company name begins with the place it is registered in
 * (行政区划 + 字号 + 行业 + 组织形式: 杭州百货贸易公司 is in 杭州), so a client without an address is placed too.
 */
export function regionOfFirst(...texts: unknown[]): Region {
  for (const t of texts) {
    const r = regionOf(t);
    if (r.province !== UNKNOWN) return r;
  }
  return { province: UNKNOWN, city: UNKNOWN };
}

const CLIENT_SCREEN = 'system/clientMap';
const SALE_SCREEN = 'system/saleMap';

const CLIENT_MEASURES: Measure[] = [
  { field: 'clientCount', title: '客户数', kind: 'qty' },
  { field: 'orderCount', title: '订单数', kind: 'qty' },
  { field: 'salesAmount', title: '销售金额', kind: 'money' },
];
const SALE_MEASURES: Measure[] = [
  { field: 'orderCount', title: '订单数', kind: 'qty' },
  { field: 'qty', title: '销售数量', kind: 'qty' },
  { field: 'salesAmount', title: '销售金额', kind: 'money' },
];

export const CLIENT_MAP_INPUT: InputSchema = { type: 'object', properties: { ...PAGING, groupBy: groupByInput(CLIENT_SCREEN) } };
export const SALE_MAP_INPUT: InputSchema = { type: 'object', properties: { ...PAGING, groupBy: groupByInput(SALE_SCREEN) } };
export type MapInput = ReportPaging & { groupBy: string };

function place(groupBy: string, r: Region, extra: Row = {}): [string, Row] {
  // label: the chart's bar name
  if (groupBy === 'city') return [`${r.province}|${r.city}`, { province: r.province, region: r.city, label: r.city }];
  if (groupBy === 'salesman') return [`${String(extra.staffCode ?? '')}|${r.province}`, { ...extra, region: r.province, label: `${String(extra.staffName)} · ${r.province}` }];
  return [r.province, { region: r.province, label: r.province }];
}

export async function clientMap(ctx: CallContext, input: MapInput) {
  const tenant = TypedTenant.of(ctx.tenant);
  const clients = await tenant.select('client').select(['id', 'address', 'name']).execute();
  const sold = await tenant.select('salesOrder').select(['clientId', sql<number>`count(*)`.as('orders'), sql<string>`coalesce(sum(${sql.ref('totalAmountBase')}), 0)`.as('amount')])
    .where('status', 'in', SOLD_STATUSES).groupBy('clientId').execute();
  const byClient = new Map(sold.map((s) => [Number(s.clientId), s]));
  const groups = new Groups(CLIENT_MEASURES);
  for (const c of clients) {
    const s = byClient.get(Number(c.id));
    const [key, labels] = place(input.groupBy, regionOfFirst(c.address, c.name));
    groups.add(key, labels, { clientCount: 1n, orderCount: big(s?.orders), salesAmount: big(s?.amount) });
  }
  return reportPage(groups.list(), screenGroupings(CLIENT_SCREEN)[input.groupBy]!, CLIENT_MEASURES, input);
}

export async function saleMap(ctx: CallContext, input: MapInput) {
  const orders = await TypedTenant.of(ctx.tenant).select('salesOrder')
    .leftJoin('client', (j) => j.onRef('client.id', '=', 'salesOrder.clientId').onRef('client.companyId', '=', 'salesOrder.companyId'))
    .leftJoin('staff', (j) => j.onRef('staff.id', '=', 'salesOrder.salesmanId').onRef('staff.companyId', '=', 'salesOrder.companyId'))
    .select(['salesOrder.deliveryAddress', 'client.address', 'client.name as clientName', 'salesOrder.totalQty', 'salesOrder.totalAmountBase', 'staff.code as staffCode', 'staff.name as staffName'])
    .where('salesOrder.status', 'in', SOLD_STATUSES).execute();
  const groups = new Groups(SALE_MEASURES);
  for (const o of orders) {
    const r = regionOfFirst(o.deliveryAddress, o.address, o.clientName);
    const [key, labels] = place(input.groupBy, r, { staffCode: o.staffCode ?? '', staffName: o.staffName ?? '（未指定）' });
    groups.add(key, labels, { orderCount: 1n, qty: big(o.totalQty), salesAmount: big(o.totalAmountBase) });
  }
  return reportPage(groups.list(), screenGroupings(SALE_SCREEN)[input.groupBy]!, SALE_MEASURES, input);
}
