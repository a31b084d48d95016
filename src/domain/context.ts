// What every domain function receives: the transaction, the actor, the clock and the services.
// No module-level singletons: tests pass their own clock, database and services.
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { Db } from '../db/client.js';
import type { SiteRef } from '../gate/authorize.js';
import type { Role } from '../kernel/scopes.js';
import type { CommitLine } from './activity/at-commit.js';
import type { DnsChecker } from './domains/dns-check.js';
import type { BlobStore } from './library/blobs.js';
import type { Mailer } from './mail/mailer.js';
import type { ImageProvider } from './library/image-provider.js';

export type Clock = () => Date;
export type { SiteRef };

/** Long-lived services shared by every request of one process. Later areas add theirs here. */
export type Services = {
  config: Config;
  db: Db;
  log: Logger;
  clock: Clock;
  blobs: BlobStore;
  /** Delivers the mail outbox; absent in bare unit contexts (the outbox row is the source of truth). */
  mail?: Mailer;
  /** DNS look-ups for domain verification (DNS_SERVERS). */
  dns: DnsChecker;
  /** The image provider: local brand renderer, or IMAGE_PROVIDER_URL. */
  images: ImageProvider;
};

/** Who acts: a connection's creator through that connection, or a signed-in user in the web app. */
export type Actor = { userId: string; companyId: string; connectionId: string | null };

export type Progress = (progress: number, total: number | undefined, message: string) => Promise<void>;

/** The context of an action on one workspace (no particular website). */
export type WorkspaceCtx = {
  tx: Db;
  now: Date;
  actor: Actor;
  services: Services;
  progress: Progress;
  /** Runs a task after the surrounding transaction committed (e.g. deliver mail now); absent = never. */
  afterCommit?: (task: () => Promise<void>) => void;
};

/**
 * The context of an action on one website, already authorized by the gate for `role`. `website` says
 * which; websiteRowOf (sites/row.ts) reads the rest of its row where a tool needs it.
 */
export type SiteCtx = WorkspaceCtx & { website: SiteRef; role: Role };

/**
 * The same, for a read or for long work outside any one transaction (tools declared 'none' or 'own'):
 * `db` is the pool, where each statement stands alone or opens a short transaction of its own. There
 * is no `tx`, so nothing can mistake the pool for a transaction (R-REL-3).
 */
export type DirectSiteCtx = Omit<SiteCtx, 'tx'> & {
  db: Db;
  /**
   * For a write that commits in transactions of its own: writes the call's Activity line inside the
   * committing one (src/domain/activity/at-commit.ts). Absent outside a tool call.
   */
  commitLine?: CommitLine;
};

export const noProgress: Progress = async () => {};

/** A context of either kind, for helpers shared by reads and writes. */
export type AnySiteCtx = SiteCtx | DirectSiteCtx;

/** The handle a shared helper queries through: the call's transaction when there is one, else the pool. */
export function dbOf(ctx: AnySiteCtx): Db {
  return 'tx' in ctx ? ctx.tx : ctx.db;
}
