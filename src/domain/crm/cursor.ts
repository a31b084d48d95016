// Keyset cursors of the CRM lists (R-CRM-4): newest first by (createdAt, id); the cursor is the last
// row's key (src/kernel/cursor.ts).
import { decodeKey, encodeKey, isKeyId } from '../../kernel/cursor.js';

export function encodeCursor(key: { createdAt: Date; id: string }): string {
  return encodeKey({ t: key.createdAt.toISOString(), id: key.id });
}

export function decodeCursor(cursor: string): { createdAt: Date; id: string } {
  return decodeKey(
    cursor,
    (v) => {
      const createdAt = new Date(String(v.t));
      return isKeyId(v.id) && !Number.isNaN(createdAt.getTime()) ? { createdAt, id: v.id } : null;
    },
    'Pass the nextCursor of the previous page, or omit cursor.',
  );
}
