// The authenticated caller that every tool call carries: one connection and its creator.
import type { Scope } from './scopes.js';

export type Reach = 'website' | 'workspace';

export type Caller = {
  connectionId: string;
  companyId: string;
  creatorId: string;
  reach: Reach;
  /** The connection's own website: its only site for website reach, the default for workspace reach. */
  websiteId: string;
  scopes: readonly Scope[];
  clientKind: 'api_token' | 'cli' | 'oauth';
  /** How the caller proved itself: an API token, or an OAuth access token turned into a delegation. */
  via: 'token' | 'oauth';
  /**
   * The workspace's cache version this caller was read at (src/db/versions.ts): on PostgreSQL, caches
   * hold entries per version and the edge re-reads it on every request. Absent: nothing is cached.
   */
  cacheVersion?: string;
};
