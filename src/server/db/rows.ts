/** The rows of a raw query's result (`db.execute`): node-postgres and PGlite both carry `rows`. */
export function rowsOf<T = Record<string, unknown>>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}
