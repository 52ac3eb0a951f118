// The data-management families' hand-written calls (cdm 0191 单据编号规则): the rules list with the next
// number of each, the series a rule may name, and the form's preview — the binding only; the logic is in
// src/server/domain/master-data/number-rules.ts. (The other families are generic resources.)
import type { OpHandler } from '../catalog/context.ts';
import { listNumberRules, previewNumberRule, seriesOptions, type PreviewInput } from '../domain/master-data/number-rules.ts';
import { LIST_INPUT, type ListInput } from '../resources/query.ts';
import type { OpsDeps } from './index.ts';

export function masterDataFamiliesOps(deps: OpsDeps): Record<string, OpHandler> {
  const numberRule = deps.resources.get('numberRule')!;
  return {
    'numberRule.list': {
      input: LIST_INPUT,
      run: (ctx, input: ListInput) => listNumberRules(ctx, deps.resources, numberRule, input),
    },
    'numberRule.series': { run: async () => seriesOptions() },
    'numberRule.preview': {
      input: {
        type: 'object',
        properties: {
          series: { type: ['string', 'null'], maxLength: 10, title: '编号系列' },
          prefix: { type: ['string', 'null'], maxLength: 10, title: '前缀' },
          datePart: { type: ['string', 'null'], maxLength: 10, title: '日期部分' },
          serialWidth: { type: ['integer', 'string', 'null'], maxLength: 2, title: '流水号位数' },
        },
      },
      run: (ctx, input: PreviewInput) => previewNumberRule(ctx, input),
    },
  };
}
