// Reordering a realm list (linkifiers, custom profile fields): the client sends every id once, in
// the new order, and the server stores positions 1..n in the table's sort_order column.
import type { Db } from '../db';

/** True when `wanted` names each of the table's ids exactly once. */
export function enumeratesAllIds(db: Db, table: string, wanted: readonly number[]): boolean {
  const existing = db
    .prepare<[], { id: number }>(`SELECT id FROM ${table}`)
    .all()
    .map((row) => row.id);
  const wantedSet = new Set(wanted);
  return (
    wantedSet.size === wanted.length &&
    existing.length === wanted.length &&
    existing.every((id) => wantedSet.has(id))
  );
}

export function storeOrder(db: Db, table: string, ordered: readonly number[]): void {
  const setOrder = db.prepare(`UPDATE ${table} SET sort_order = ? WHERE id = ?`);
  db.transaction(() => ordered.forEach((id, index) => setOrder.run(index + 1, id)))();
}
