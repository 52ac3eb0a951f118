// One list contract for every list code. Generic resource lists take {page, pageSize, keyword, filters,
// sort}; hand-written lists declare their conditions as top-level fields. This adapter lets the latter
// take `filters` too (the renderer's list always sends conditions there), lifting them to the top level
// and validating the result against the handler's own schema.
import type { InputSchema, OpHandler } from './context.ts';
import { validateInput } from './validate-input.ts';

export function acceptingFilters<I>(h: OpHandler<I>): OpHandler<I> {
  const own = (h.input ?? { type: 'object' }) as InputSchema & { properties?: Record<string, unknown> };
  const outer: InputSchema = {
    ...own,
    required: [],
    properties: { ...(own.properties ?? {}), filters: { type: 'object', title: '筛选条件' } },
  };
  return {
    input: outer,
    run(ctx, input) {
      const { filters, ...rest } = input as Record<string, unknown> & { filters?: Record<string, unknown> };
      // Explicit top-level values win over the same names inside filters.
      const lifted = validateInput<I>(own, { ...(filters ?? {}), ...rest });
      return h.run(ctx, lifted);
    },
  };
}
