// The renderer's registries (modelled on amis-core's factory): a screen schema names a column type,
// widget, action or detail section by a string; the implementation is registered under that name
// with a loader, fetched only when a schema uses it (each its own chunk), and cached. A name nobody
// registered is not a crash: `resolveAll` reports it with its schema path and the screen draws an
// error box (SchemaProblems) where that part would be.

export type Loader<T> = () => Promise<T | { default: T }>;

export interface SchemaProblem {
  /** Where in the screen schema, e.g. `columns[3].type`. */
  path: string;
  message: string;
}

function unwrap<T>(m: T | { default: T }): T {
  return m && typeof m === 'object' && 'default' in (m as object) ? (m as { default: T }).default : (m as T);
}

export class Registry<T> {
  private readonly loaders = new Map<string, Loader<T>>();
  private readonly loaded = new Map<string, T>();
  private readonly pending = new Map<string, Promise<T>>();

  /** @param what Chinese noun used in error messages, e.g. 列类型. */
  constructor(readonly what: string) {}

  /** Register (or replace) `type`. A loader may return the value or a module with a default export. */
  register(type: string, loader: Loader<T>): this {
    this.loaders.set(type, loader);
    this.loaded.delete(type);
    this.pending.delete(type);
    return this;
  }

  /** Register an already loaded value (tests, tiny built-ins). */
  define(type: string, value: T): this {
    this.loaders.set(type, async () => value);
    this.loaded.set(type, value);
    return this;
  }

  has(type: string): boolean {
    return this.loaders.has(type);
  }

  types(): string[] {
    return [...this.loaders.keys()];
  }

  /** The value when already loaded (synchronous renders after resolveAll). */
  peek(type: string): T | undefined {
    return this.loaded.get(type);
  }

  load(type: string): Promise<T> {
    const done = this.loaded.get(type);
    if (done !== undefined) return Promise.resolve(done);
    const inFlight = this.pending.get(type);
    if (inFlight) return inFlight;
    const loader = this.loaders.get(type);
    if (!loader) return Promise.reject(new Error(`未知的${this.what} "${type}"`));
    const p = loader().then(
      (m) => {
        const v = unwrap(m);
        this.loaded.set(type, v);
        this.pending.delete(type);
        return v;
      },
      (e: unknown) => {
        this.pending.delete(type);
        throw e;
      },
    );
    this.pending.set(type, p);
    return p;
  }

  /** The problem for an unknown type, or null. */
  check(type: string, path: string): SchemaProblem | null {
    return this.has(type) ? null : { path, message: `未知的${this.what} "${type}"` };
  }
}

/** One use of a registered type in a schema, with its path for error messages. */
export interface Use {
  registry: Pick<Registry<unknown>, 'what' | 'check' | 'load'>;
  type: string;
  path: string;
}

/**
 * Load every type a schema uses, in parallel. Unknown types and failed loads become problems; the
 * caller draws what loaded and shows the problems.
 */
export async function resolveAll(uses: readonly Use[]): Promise<SchemaProblem[]> {
  const problems: SchemaProblem[] = [];
  await Promise.all(
    uses.map(async (u) => {
      const unknown = u.registry.check(u.type, u.path);
      if (unknown) {
        problems.push(unknown);
        return;
      }
      try {
        await u.registry.load(u.type);
      } catch (e) {
        problems.push({ path: u.path, message: `${u.registry.what} "${u.type}" 加载失败：${e instanceof Error ? e.message : String(e)}` });
      }
    }),
  );
  return problems.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
