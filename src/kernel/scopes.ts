// The scope table of R-TOOL-1, the website roles of R-TOOL-2 and the agency areas of R-SURF-4.

export const SCOPES = [
  'site:read',
  'content:write',
  'publish',
  'ai:generate',
  'crm:read',
  'crm:write',
  'settings:write',
  'domain:write',
  'access:write',
  'communications:write',
  'commerce:write',
  'workspace:write',
] as const;
export type Scope = (typeof SCOPES)[number];

/** `site:read` is always on; `content:write` is on by default; the rest are off (R-TOOL-1). */
export const DEFAULT_SCOPES: readonly Scope[] = ['site:read', 'content:write'];
export const ALWAYS_ON: Scope = 'site:read';

export const SCOPE_LABELS: Record<Scope, string> = {
  'site:read': 'Read business, site, draft, published content, brand and analytics',
  'content:write': 'Create and edit draft pages, sections and posts',
  publish: 'Publish the draft to the live site (after your approval)',
  'ai:generate': 'Generate images into the library (spends credits)',
  'crm:read': 'Read leads, bookings and contacts (personal data)',
  'crm:write': 'Update customer records and bookings, never delete',
  'settings:write': 'Business/profile settings and site configuration',
  'domain:write': 'Connect or verify a domain you already own, never buy one',
  'access:write': 'Invite people (after your approval)',
  'communications:write': 'Send invoices, quotes or invitations (after your approval)',
  'commerce:write': 'Draft services and products; status without personal data',
  'workspace:write': 'Create a new site, or a company (after your approval)',
};

export function isScope(s: string): s is Scope {
  return (SCOPES as readonly string[]).includes(s);
}

/** Normalises a requested scope list: known scopes only, `site:read` always included, stable order. */
export function normaliseScopes(requested: readonly string[]): Scope[] {
  const set = new Set<string>([ALWAYS_ON, ...requested]);
  return SCOPES.filter((s) => set.has(s));
}

export const ROLES = ['viewer', 'editor', 'owner'] as const;
export type Role = (typeof ROLES)[number];
export const roleRank = (r: Role): number => ROLES.indexOf(r);
export function isRole(s: string): s is Role {
  return (ROLES as readonly string[]).includes(s);
}

/** Areas an agency can switch off for a client company; every tool belongs to exactly one. */
export const AREAS = [
  'site',
  'content',
  'publishing',
  'commerce',
  'settings',
  'domains',
  'access',
  'invoicing',
  'ai',
  'workspace',
  'crm',
] as const;
export type Area = (typeof AREAS)[number];
