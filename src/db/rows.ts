// `db.execute` answers `{ rows }` on both drivers (node-postgres and PGlite); this reads them typed.
export function rowsOf<T>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] } | null)?.rows ?? []) as T[];
}
