// The signed delegation (R-AUTH-3, R-LIM-3): after the edge verified an access token and found the
// one connection bound to its (issuer, subject, client), it signs a five-minute delegation naming
// that connection; the tool layer's caller is re-derived from the verified delegation only.
// HS256 with a server key: DELEGATION_SECRET, or a random key created once in DATA_DIR (0600).
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { SignJWT, jwtVerify } from 'jose';
import { createFileDurablySync, replaceFileDurablySync } from '../../kernel/durable-files.js';

const DELEGATION_SECONDS = 300;
const TYP = 'sitegate-delegation+jwt';

export type OAuthBinding = { issuer: string; subject: string; clientId: string };
export type Delegation = { connectionId: string; binding: OAuthBinding };

/** A key file's content: 32 random bytes, base64url. */
const KEY_TEXT = /^[A-Za-z0-9_-]{43}$/;

export function delegationKey(cfg: { delegationSecret?: string; dataDir: string }): Uint8Array {
  if (cfg.delegationSecret) return new TextEncoder().encode(cfg.delegationSecret);
  const file = path.join(cfg.dataDir, 'delegation.key');
  const read = () => {
    const text = existsSync(file) ? readFileSync(file, 'utf8').trim() : '';
    return KEY_TEXT.test(text) ? text : null;
  };
  let key = read();
  if (!key) {
    mkdirSync(cfg.dataDir, { recursive: true });
    // Written whole and synced, then linked into place: when two processes start at once the first
    // key wins and both read it, and a power cut leaves no key or a whole one, never an empty file.
    if (!createFileDurablySync(file, randomBytes(32).toString('base64url')) && !read()) {
      // A damaged key (an empty file from before keys were synced): a new one only ends the
      // five-minute delegations and request states signed with the old.
      replaceFileDurablySync(file, randomBytes(32).toString('base64url'));
    }
    key = read();
    if (!key) throw new Error(`${file} does not hold a delegation key; remove it and start again.`);
  }
  return new TextEncoder().encode(key);
}

export type DelegationSigner = {
  sign(d: Delegation, now: Date): Promise<string>;
  /** The delegation's content, or null when forged, expired, or meant for another server. */
  verify(jwt: string, now: Date): Promise<Delegation | null>;
};

export function delegationSigner(key: Uint8Array, server: string): DelegationSigner {
  const audience = `${server}#delegation`;
  return {
    sign(d, now) {
      const iat = Math.floor(now.getTime() / 1000);
      return new SignJWT({
        oauth: { iss: d.binding.issuer, sub: d.binding.subject, cid: d.binding.clientId },
      })
        .setProtectedHeader({ alg: 'HS256', typ: TYP })
        .setIssuer(server)
        .setAudience(audience)
        .setSubject(d.connectionId)
        .setIssuedAt(iat)
        .setExpirationTime(iat + DELEGATION_SECONDS)
        .sign(key);
    },
    async verify(jwt, now) {
      try {
        const { payload } = await jwtVerify(jwt, key, {
          issuer: server,
          audience,
          algorithms: ['HS256'],
          typ: TYP,
          currentDate: now,
          clockTolerance: 0,
          requiredClaims: ['exp', 'sub'],
        });
        const o = payload.oauth as { iss?: unknown; sub?: unknown; cid?: unknown } | undefined;
        if (
          !payload.sub ||
          typeof o?.iss !== 'string' ||
          typeof o.sub !== 'string' ||
          typeof o.cid !== 'string'
        )
          return null;
        return { connectionId: payload.sub, binding: { issuer: o.iss, subject: o.sub, clientId: o.cid } };
      } catch {
        return null;
      }
    },
  };
}
