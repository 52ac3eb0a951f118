// The document benchmark's lines, generated in the page: a purchase order's lines with packs
// (24 small units a carton, 6 a box), a 4-decimal unit price and an empty remark.
export interface DocLine {
  id: number;
  productCode: string;
  productName: string;
  unitBig: string;
  unitMid: string;
  unitSmall: string;
  bigQty: number;
  midQty: number;
  /** Quantity in small units. */
  qty: number;
  /** Unit price, 4 decimals (always ≥ 1, so a change of the quantity changes the amount total). */
  price: string;
  remark: string;
}

const NAMES = ['螺丝刀套装', '不锈钢保温杯', '无线鼠标', '蓝牙耳机', '办公椅', '打印纸 A4', '电动牙刷', '笔记本支架'];

export function makeDocLines(n: number): DocLine[] {
  const out: DocLine[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const tenThousandths = 10000 + ((i * 7919) % 990000);
    out[i] = {
      id: i + 1,
      productCode: `SKU-${String(i + 1).padStart(6, '0')}`,
      productName: `${NAMES[i % NAMES.length]} ${i % 97}`,
      unitBig: '箱',
      unitMid: '盒',
      unitSmall: '个',
      bigQty: 24,
      midQty: 6,
      qty: 1 + ((i * 37) % 500),
      price: `${Math.floor(tenThousandths / 10000)}.${String(tenThousandths % 10000).padStart(4, '0')}`,
      remark: '',
    };
  }
  return out;
}

// LineTable's body height for virtual rows; the baseline uses the same.
export const DOC_SCROLL_Y = 480;
