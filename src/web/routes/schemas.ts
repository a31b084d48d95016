// Public JSON Schemas of the service's formats: GET /schemas/portable-site-v1.json (R-IMP-1,
// docs/portable-site-v1.md). Generated once from the zod schema the importer enforces.
import type { Hono } from 'hono';
import { portableJsonSchema } from '../../portable/schema.js';
import type { AppDeps } from '../deps.js';
import type { WebEnv } from '../session.js';

export function mountSchemas(app: Hono<WebEnv>, _deps: AppDeps): void {
  const portable = JSON.stringify(portableJsonSchema(), null, 2);
  app.get('/schemas/portable-site-v1.json', (c) => {
    c.header('Content-Type', 'application/schema+json; charset=utf-8');
    return c.body(portable);
  });
}
