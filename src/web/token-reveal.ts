// The token a create form just made, carried across its POST-redirect-GET: the POST seals it into a
// short-lived cookie (AES-256-GCM, bound to the signed-in user), the GET that follows opens it, shows
// it and deletes the cookie. A reload sends no cookie, so it neither shows the token again nor
// re-submits the form. Nothing is stored on the server: the token's only plaintext copy stays with
// the browser that asked for it, for the few minutes until the redirect is followed.
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';

export type Revealed = { kind: 'connection' | 'delivery'; token: string };

const TTL_SECONDS = 300;
const IV_BYTES = 12;
const TAG_BYTES = 16;

export function tokenReveal(secret: Uint8Array, opts: { path: string; secure: boolean }) {
  const key = createHmac('sha256', secret).update('sitegate/token-reveal/v1').digest();
  const name = 'sg_new_token';
  const flags = { httpOnly: true, sameSite: 'Strict' as const, path: opts.path, secure: opts.secure };

  return {
    /** Seals `what` for `userId` into the cookie of the response about to redirect. */
    put(c: Context, userId: string, what: Revealed, now: Date): void {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(userId));
      const body = JSON.stringify({ ...what, exp: now.getTime() + TTL_SECONDS * 1000 });
      const sealed = Buffer.concat([iv, cipher.update(body, 'utf8'), cipher.final(), cipher.getAuthTag()]);
      setCookie(c, name, sealed.toString('base64url'), { ...flags, maxAge: TTL_SECONDS });
    },

    /** The sealed token for `userId`, once: the cookie is deleted whatever it held. */
    take(c: Context, userId: string, now: Date): Revealed | null {
      const value = getCookie(c, name);
      if (value === undefined) return null;
      deleteCookie(c, name, flags);
      // A token is 40 characters; anything far larger is not ours and is not decrypted.
      if (value.length > 1024) return null;
      const raw = Buffer.from(value, 'base64url');
      if (raw.length <= IV_BYTES + TAG_BYTES) return null;
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
        decipher.setAAD(Buffer.from(userId));
        decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
        const text = Buffer.concat([
          decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)),
          decipher.final(),
        ]).toString('utf8');
        const v = JSON.parse(text) as Revealed & { exp: number };
        if (v.exp < now.getTime()) return null;
        return { kind: v.kind === 'delivery' ? 'delivery' : 'connection', token: String(v.token) };
      } catch {
        // Forged, damaged, or sealed for another user or with an older key.
        return null;
      }
    },
  };
}
