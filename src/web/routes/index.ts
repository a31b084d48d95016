// Every group of web routes beyond /api/mcp. Each area adds its module here.
import type { Hono } from 'hono';
import type { AppDeps } from '../deps.js';
import type { WebEnv } from '../session.js';
import { mountAdmin } from './admin.js';
import { mountApprovals } from './approvals.js';
import { mountConnect } from './connect.js';
import { mountConsole } from './console.js';
import { mountAnalytics } from './analytics.js';
import { mountBookings } from './bookings.js';
import { mountCustomers } from './customers.js';
import { mountProducts } from './products.js';
import { mountServices } from './services.js';
import { mountPageEditor } from './page-editor.js';
import { mountMembers } from './members.js';
import { mountContent } from './content.js';
import { mountDevelopers } from './developers.js';
import { mountHome } from './home.js';
import { mountInvitations } from './invitations.js';
import { mountLogin } from './login.js';
import { mountPreview } from './preview.js';
import { mountPairing } from './pairing.js';
import { mountSchemas } from './schemas.js';
import { mountPublishedSite } from './site.js';
import { mountVisitorMcp } from './visitor-mcp.js';

export type RouteModule = (app: Hono<WebEnv>, deps: AppDeps) => void;

export const ROUTES: RouteModule[] = [
  mountHome,
  mountLogin,
  mountApprovals,
  mountDevelopers,
  mountConnect,
  mountSchemas,
  mountPreview,
  mountInvitations,
  mountConsole,
  mountPageEditor,
  mountBookings,
  mountServices,
  mountProducts,
  mountCustomers,
  mountMembers,
  mountAnalytics,
];

/** JSON APIs without a session (no form CSRF guard): mounted on the root app before the pages. */
export type ApiModule = (app: Hono, deps: AppDeps) => void;
/** The published site is here too: it sets no cookie, so it stays outside the session middleware. */
export const API_ROUTES: ApiModule[] = [
  mountPairing,
  mountContent,
  mountAdmin,
  mountVisitorMcp,
  mountPublishedSite,
];
