// /settings/advanced/developers (R-WEB-1): adapters only; the rules live in src/auth/ and
// src/domain/activity/. A new token goes POST → 303 → GET (token-reveal.ts): shown once on the GET,
// so a reload neither shows it again nor creates another connection.
import type { Context, Hono } from 'hono';
import { createConnection, listConnections, revokeConnection } from '../../auth/connections.js';
import { delegationKey } from '../../auth/oauth/delegation.js';
import { createDeliveryToken, listDeliveryTokens, revokeDeliveryToken } from '../../auth/delivery.js';
import { ownedWebsites } from '../../auth/owner.js';
import { ownerTimeZone } from '../../domain/sites/owner-home.js';
import { listActivity } from '../../domain/activity/list.js';
import type { AppDeps } from '../deps.js';
import { DevelopersPage, type DevelopersProps } from '../pages/developers.js';
import { postedScopes } from '../pages/grant-fields.js';
import { clientSnippets } from '../pages/snippets.js';
import { type RefusalStatus, answerRefusalsWith } from '../refusal.js';
import { type WebEnv, cookiePolicy, requireUser } from '../session.js';
import { tokenReveal } from '../token-reveal.js';

const BASE = '/settings/advanced/developers';

export function mountDevelopers(app: Hono<WebEnv>, deps: AppDeps): void {
  const { db, clock, config } = deps.services;
  const reveal = tokenReveal(delegationKey(config), {
    path: BASE,
    secure: cookiePolicy(config.baseUrl).secure,
  });
  const mcpUrl = `${config.baseUrl}/api/mcp`;

  const render = async (
    c: Context<WebEnv>,
    extra: Partial<DevelopersProps> = {},
    status: 200 | RefusalStatus = 200,
  ) => {
    const user = c.get('user')!;
    const sites = await ownedWebsites(db, user.id);
    const siteIds = new Set(sites.map((s) => s.id));
    const companyIds = [...new Set(sites.map((s) => s.companyId))];
    const connections = (await Promise.all(companyIds.map((id) => listConnections(db, id))))
      .flat()
      .filter((conn) => siteIds.has(conn.websiteId));
    const connectionId = c.req.query('connectionId') || undefined;
    const outcome = c.req.query('outcome') || undefined;
    const before = Number(c.req.query('before')) || undefined;
    const activity = await listActivity(
      db,
      {
        viewerId: user.id,
        connectionId:
          connectionId && connections.some((x) => x.id === connectionId) ? connectionId : undefined,
        outcome,
        before,
      },
      clock(),
    );
    return c.html(
      <DevelopersPage
        user={user}
        csrf={c.get('csrf')}
        sites={sites}
        connections={connections}
        deliveryTokens={await listDeliveryTokens(db, [...siteIds])}
        activity={activity}
        filter={{ connectionId, outcome }}
        timeZone={await ownerTimeZone(db, user.id)}
        {...extra}
      />,
      status,
    );
  };
  // A refused create or revoke answers with this page again and the refusal's message.
  const pageAgain = answerRefusalsWith((c, e, status) =>
    render(c, { message: { kind: 'error', text: e.message } }, status),
  );

  // After a revoke (POST → 303 here) the page says it worked.
  const REVOKED: Record<string, string> = {
    connection:
      'Revoked. The connection’s token no longer works; any assistant using it is refused from now on.',
    delivery: 'Revoked. The delivery token no longer works.',
  };
  app.get(BASE, requireUser(), (c) => {
    const done = REVOKED[c.req.query('revoked') ?? ''];
    const fresh = reveal.take(c, c.get('user')!.id, clock());
    const created = fresh && {
      ...fresh,
      snippets: fresh.kind === 'connection' ? clientSnippets(mcpUrl, fresh.token) : [],
    };
    return render(c, {
      ...(done ? { message: { kind: 'ok', text: done } } : {}),
      ...(created ? { created } : {}),
    });
  });

  app.post(`${BASE}/connections`, requireUser(), pageAgain, async (c) => {
    const form = await c.req.parseBody({ all: true });
    const { token } = await createConnection(db, {
      userId: c.get('user')!.id,
      websiteId: String(form.websiteId ?? ''),
      name: String(form.name ?? ''),
      reach: form.reach === 'workspace' ? 'workspace' : 'website',
      scopes: postedScopes(form),
    });
    reveal.put(c, c.get('user')!.id, { kind: 'connection', token: token! }, clock());
    return c.redirect(BASE, 303);
  });

  app.post(`${BASE}/connections/:id/revoke`, requireUser(), pageAgain, async (c) => {
    await revokeConnection(db, c.get('user')!.id, c.req.param('id'), clock());
    return c.redirect(`${BASE}?revoked=connection`, 303);
  });

  app.post(`${BASE}/delivery`, requireUser(), pageAgain, async (c) => {
    const form = await c.req.parseBody();
    const { token } = await createDeliveryToken(db, c.get('user')!.id, String(form.websiteId ?? ''));
    reveal.put(c, c.get('user')!.id, { kind: 'delivery', token }, clock());
    return c.redirect(BASE, 303);
  });

  app.post(`${BASE}/delivery/:id/revoke`, requireUser(), pageAgain, async (c) => {
    await revokeDeliveryToken(db, c.get('user')!.id, c.req.param('id'), clock());
    return c.redirect(`${BASE}?revoked=delivery`, 303);
  });
}
