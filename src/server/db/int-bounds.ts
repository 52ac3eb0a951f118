// The integers a database column of type `integer` holds on both databases: PostgreSQL's int4 (ids,
// references, counts). A larger number from a request is refused where input is read — never sent to
// PostgreSQL, which fails the statement ("out of range for type integer"), nor to SQLite, which would
// store it. Fields that hold more (bigint columns) say so with an explicit maximum.
export const DB_INT_MAX = 2_147_483_647;
export const DB_INT_MIN = -2_147_483_648;

/** A safe integer a database integer column can hold. */
export function fitsDbInt(n: number): boolean {
  return Number.isSafeInteger(n) && n >= DB_INT_MIN && n <= DB_INT_MAX;
}
