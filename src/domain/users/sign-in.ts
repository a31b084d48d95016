// Checking an email and password (owner pages, the development identity provider). An unknown
// email is checked against a dummy hash so the answer takes as long as for a known one.
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { users } from '../../db/schema.js';
import { verifyPassword } from './passwords.js';

const DUMMY_HASH = 'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';

export type SignedIn = { id: string; email: string; name: string };

export async function checkCredentials(db: Db, email: string, password: string): Promise<SignedIn | null> {
  const [user] = await db.select().from(users).where(eq(users.email, email.trim().toLowerCase()));
  const ok = await verifyPassword(password, user?.passwordHash ?? DUMMY_HASH);
  return user && ok ? { id: user.id, email: user.email, name: user.name } : null;
}
