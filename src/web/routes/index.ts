// Every group of web routes beyond /api/mcp. Each area adds its module here.
import type { Hono } from 'hono';
import type { AppDeps } from '../deps.js';
import type { WebEnv } from '../session.js';
import { mountApprovals } from './approvals.js';
import { mountLogin } from './login.js';
import { mountSchemas } from './schemas.js';

export type RouteModule = (app: Hono<WebEnv>, deps: AppDeps) => void;

export const ROUTES: RouteModule[] = [mountLogin, mountApprovals, mountSchemas];
