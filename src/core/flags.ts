// Company behaviour switches (spec §6). The original decided them by hard-coded company ids; here each
// company stores named flags, edited in /baseConfig/setConfig. Schemas refer to them by name.

export const COMPANY_FLAGS = {
  presale: '启用预售',
  invoiceStock: '启用发票库存',
  negativeStock: '允许负库存',
  orderApproval: '销售订单需审批',
  purchaseApproval: '采购订单需审批',
  containerManagement: '启用集装箱管理',
  multiCurrency: '启用多币种',
  ipWhitelist: '启用 IP 白名单',
  priceLimit: '销售价受上下限约束',
  creditCheck: '销售订单检查信用额度',
  creditCheckOnDelivery: '发货时再次检查信用额度',
  locationRequired: '出入库必须指定库位',
  testCompany: '测试公司',
} as const;

export type CompanyFlag = keyof typeof COMPANY_FLAGS;
export type CompanyFlags = Partial<Record<CompanyFlag, boolean>>;

export function parseFlags(raw: unknown): Record<CompanyFlag, boolean> {
  let obj: Record<string, unknown> = {};
  if (typeof raw === 'string') {
    try {
      obj = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      obj = {};
    }
  } else if (raw && typeof raw === 'object') obj = raw as Record<string, unknown>;
  const out = {} as Record<CompanyFlag, boolean>;
  for (const k of Object.keys(COMPANY_FLAGS) as CompanyFlag[]) out[k] = obj[k] === true;
  return out;
}
