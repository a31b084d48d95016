// The read-only content API for delivery tokens (R-AUTH-6): published content only, GET only,
// `Authorization: Bearer sg_dlv_…`. Nothing here can write, and /api/mcp refuses these tokens.
import type { Context, Hono } from 'hono';
import { websiteForDeliveryToken } from '../../auth/delivery.js';
import { publishedSite } from '../../domain/sites/published.js';
import type { AppDeps } from '../deps.js';

export function mountContent(app: Hono, deps: AppDeps): void {
  const { db } = deps.services;
  const site = async (c: Context) => {
    const m = /^Bearer\s+(\S+)$/i.exec(c.req.header('authorization') ?? '');
    const websiteId = m ? await websiteForDeliveryToken(db, m[1]!) : null;
    return websiteId ? ((await publishedSite(db, websiteId)) ?? undefined) : undefined;
  };
  const unauthorized = (c: Context) => {
    c.header('WWW-Authenticate', 'Bearer realm="sitegate-content"');
    return c.json({ error: 'invalid_token', message: 'Send Authorization: Bearer sg_dlv_…' }, 401);
  };
  app.get('/v1/content/site', async (c) => {
    const s = await site(c);
    if (s === undefined) return unauthorized(c);
    if (!s.snapshot) return c.json({ error: 'not_found', message: 'This website is not published.' }, 404);
    return c.json({
      website: { id: s.id, name: s.name },
      publishedRev: s.snapshot.rev,
      publishedAt: s.publishedAt?.toISOString() ?? null,
      pages: s.snapshot.pages.map((p) => ({ slug: p.slug, title: p.title, kind: p.kind })),
    });
  });
  app.get('/v1/content/pages/:slug', async (c) => {
    const s = await site(c);
    if (s === undefined) return unauthorized(c);
    const page = s.snapshot?.pages.find((p) => p.slug === c.req.param('slug'));
    if (!page) return c.json({ error: 'not_found', message: 'No published page with this slug.' }, 404);
    return c.json({
      slug: page.slug,
      title: page.title,
      kind: page.kind,
      seo: { title: page.seoTitle, description: page.seoDescription },
      sections: page.sections
        .filter((x) => !x.hidden)
        .map((x) => ({ id: x.id, type: x.type, content: x.content, layout: x.layout })),
    });
  });
}
