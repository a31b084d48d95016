// Opaque keyset cursors for the CRM lists (R-CRM-4):
// newest first by (createdAt, id); the cursor is the last row's key, base64url JSON.
import { invalidInput } from '../../kernel/errors.js';

export type Key = { t: string; id: string };

export function encodeCursor(key: { createdAt: Date; id: string }): string {
  return Buffer.from(JSON.stringify({ t: key.createdAt.toISOString(), id: key.id })).toString('base64url');
}

export function decodeCursor(cursor: string): { createdAt: Date; id: string } {
  try {
    const v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Partial<Key>;
    const createdAt = new Date(String(v.t));
    if (typeof v.id !== 'string' || v.id.length > 64 || Number.isNaN(createdAt.getTime())) throw new Error();
    return { createdAt, id: v.id };
  } catch {
    throw invalidInput(
      'That cursor is not valid.',
      'Pass the nextCursor of the previous page, or omit cursor.',
    );
  }
}
