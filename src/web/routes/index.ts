// Every group of web routes beyond /api/mcp. Each area adds its module here.
import type { Hono } from 'hono';
import type { AppDeps } from '../deps.js';
import type { WebEnv } from '../session.js';
import { mountLogin } from './login.js';
import { mountPreview } from './preview.js';

export type RouteModule = (app: Hono<WebEnv>, deps: AppDeps) => void;

export const ROUTES: RouteModule[] = [mountLogin, mountPreview];
