// Calling src/domain/ directly, for tests of behaviour that is the domain's alone: the file's shared
// test database (test/helpers/db.ts), the services a domain function may use, and a website context as
// the gate would hand it over (owner role by default). No HTTP server, no MCP client: a test of how a
// tool reaches the domain (gate, envelope, Activity) drives the server instead (test/helpers/server.ts).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { loadConfig } from '../../src/config.js';
import type { Db } from '../../src/db/client.js';
import { type Clock, type Services, type SiteCtx, noProgress } from '../../src/domain/context.js';
import { createDnsChecker } from '../../src/domain/domains/dns-check.js';
import { fileBlobStore } from '../../src/domain/library/blobs.js';
import { imageProviderFor } from '../../src/domain/library/image-provider.js';
import type { Role } from '../../src/kernel/scopes.js';
import { testDatabase } from './db.js';

/** The services of one test process on the file's database: a blob folder of its own, no mail. */
export async function testServices(
  o: { clock?: Clock; env?: Record<string, string> } = {},
): Promise<Services> {
  const db = (await testDatabase()).db;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'sitegate-domain-'));
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...o.env });
  return {
    config,
    db,
    log: pino({ level: process.env.TEST_LOG ?? 'silent' }),
    clock: o.clock ?? (() => new Date()),
    blobs: fileBlobStore(path.join(dataDir, 'blobs')),
    dns: createDnsChecker(config.dnsServers),
    images: imageProviderFor(config),
  };
}

/** Who acts and where: a website of a workspace, as a person with `role` on it. */
export type SiteActor = {
  companyId: string;
  websiteId: string;
  userId: string;
  role?: Role;
  connectionId?: string | null;
};

/**
 * Runs `fn` in one transaction on the website, as a tool declared with the default transaction mode
 * does once the gate has allowed the call: a refusal thrown inside rolls everything back.
 */
export function inSite<T>(services: Services, who: SiteActor, fn: (ctx: SiteCtx) => Promise<T>): Promise<T> {
  const db: Db = services.db;
  return db.transaction((tx) =>
    fn({
      tx,
      now: services.clock(),
      actor: { userId: who.userId, companyId: who.companyId, connectionId: who.connectionId ?? null },
      services,
      progress: noProgress,
      website: { id: who.websiteId, companyId: who.companyId },
      role: who.role ?? 'owner',
    }),
  );
}
