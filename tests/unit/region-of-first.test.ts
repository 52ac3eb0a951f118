// Issue 33 item 6: the wall's province map was empty for the demo company — its client 杭州百货贸易公司
// has no address. A Chinese company name starts with the place it is registered in, so the name places
// a client when no address does.
import { describe, expect, it } from 'vitest';
import { regionOfFirst } from '../../src/server/domain/system/region-map.ts';

describe('regionOfFirst', () => {
  it('takes the first text naming a region: delivery address, client address, client name', () => {
    expect(regionOfFirst('广东省深圳市南山区', '上海市黄浦区', '杭州百货贸易公司')).toEqual({ province: '广东省', city: '深圳市' });
    expect(regionOfFirst('门店自提', '上海市黄浦区南京东路 100 号', '杭州百货贸易公司').province).toBe('上海市');
    expect(regionOfFirst(null, '', '杭州百货贸易公司')).toEqual({ province: '浙江省', city: '杭州市' });
    expect(regionOfFirst(null, undefined, '美好生活有限公司').province).toBe('未识别');
  });
});
