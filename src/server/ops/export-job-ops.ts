// The export centre's calls (cdm 0199xx): start a background export of any export code the caller may
// call, list the caller's jobs, download a finished job's file, remove a finished job. The logic lives
// in src/server/domain/export-jobs.ts.
import { findEndpoint, type EndpointEntry } from '../../core/catalog.ts';
import type { OpHandler } from '../catalog/context.ts';
import { acceptingFilters } from '../catalog/list-filters.ts';
import {
  downloadExportJob, JOB_ID_INPUT, JOB_LIST_INPUT, listExportJobs, removeExportJob, START_INPUT, startExportJob,
  type ExportTargets, type JobListInput, type StartInput,
} from '../domain/export-jobs.ts';
import { resourceResolver } from '../resources/index.ts';
import { allOps, type OpsDeps } from './index.ts';

/**
 * The handler bound to a catalog entry, resolved the way the server binds it. Hand-written handlers come
 * from a second, lazily built set of ops (this module is one of them, so it cannot take the server's).
 */
export function targetsOf(deps: OpsDeps): ExportTargets {
  const resource = resourceResolver(deps.resources);
  let ops: Record<string, OpHandler> | null = null;
  return {
    entry: (family, code) => findEndpoint(deps.catalog, family, code),
    handler(entry: EndpointEntry) {
      const [kind, name] = entry.handler.split(':', 2) as [string, string];
      if (kind === 'resource') {
        const dot = name.lastIndexOf('.');
        return resource(name.slice(0, dot), name.slice(dot + 1));
      }
      ops ??= allOps(deps);
      return ops[name];
    },
  };
}

export function exportJobOps(deps: OpsDeps): Record<string, OpHandler> {
  const targets = targetsOf(deps);
  return {
    'exportJob.start': { input: START_INPUT, run: (ctx, input: StartInput) => startExportJob(ctx, targets, input) },
    'exportJob.list': acceptingFilters({ input: JOB_LIST_INPUT, run: (ctx, input: JobListInput) => listExportJobs(ctx, input) }),
    'exportJob.download': { input: JOB_ID_INPUT, run: (ctx, input: { id: number }) => downloadExportJob(ctx, input.id) },
    'exportJob.remove': { input: JOB_ID_INPUT, run: (ctx, input: { id: number }) => removeExportJob(ctx, input.id) },
  };
}
