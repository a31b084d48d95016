// /dashboard/connect: device-code approval and OAuth client binding (R-PAIR-1, R-AUTH-5). Owner
// only; user-code look-ups are rate-limited per signed-in user against guessing.
import type { Context, Hono } from 'hono';
import {
  bindOAuthClient,
  dismissPendingSignIn,
  pendingSignInByCode,
  pendingSignIns,
} from '../../auth/oauth/binding.js';
import { ownedWebsites } from '../../auth/owner.js';
import { ownerTimeZone } from '../../domain/sites/owner-home.js';
import { approvePairing, declinePairing, pendingPairingByUserCode } from '../../auth/pairing.js';
import { Refusal } from '../../kernel/errors.js';
import type { AppDeps } from '../deps.js';
import { ConnectPage, type ConnectProps } from '../pages/connect.js';
import { postedScopes } from '../pages/grant-fields.js';
import { type RefusalStatus, answerRefusalsWith } from '../refusal.js';
import { type WebEnv, requireUser } from '../session.js';

const CODE_BUCKET = { key: 'pair-code', perMinute: 10 };

export function mountConnect(app: Hono<WebEnv>, deps: AppDeps): void {
  const { db, clock, config } = deps.services;

  const render = async (
    c: Context<WebEnv>,
    extra: Partial<ConnectProps> = {},
    status: 200 | RefusalStatus = 200,
  ) => {
    const user = c.get('user')!;
    const [sites, pending, timeZone] = await Promise.all([
      ownedWebsites(db, user.id),
      pendingSignIns(db, user.id, clock()),
      ownerTimeZone(db, user.id),
    ]);
    return c.html(
      <ConnectPage
        user={user}
        csrf={c.get('csrf')}
        sites={sites}
        pending={pending}
        timeZone={timeZone}
        {...extra}
      />,
      status,
    );
  };
  // A refusal answers with this page again and its message; a look-up keeps the code that was typed.
  const pageAgain = answerRefusalsWith((c, e, status) => {
    const code = c.req.method === 'GET' ? c.req.query('code')?.trim() : undefined;
    return render(c, { ...(code ? { code } : {}), message: { kind: 'error', text: e.message } }, status);
  });

  app.get('/dashboard/connect', requireUser(), pageAgain, async (c) => {
    const code = c.req.query('code')?.trim();
    if (!code) {
      const dismissed = c.req.query('dismissed') === '1';
      return render(
        c,
        dismissed ? { message: { kind: 'ok', text: 'Dismissed. It is no longer listed.' } } : {},
      );
    }
    await deps.limits.consumeKey(CODE_BUCKET, c.get('user')!.id);
    const [pairing, signIn] = await Promise.all([
      pendingPairingByUserCode(db, code, clock()),
      pendingSignInByCode(db, code, clock()),
    ]);
    return render(c, { code, pairing, signIn });
  });

  app.post('/dashboard/connect/pairing', requireUser(), pageAgain, async (c) => {
    const form = await c.req.parseBody({ all: true });
    const user = c.get('user')!;
    const userCode = String(form.code ?? '');
    const websiteId = String(form.websiteId ?? '');
    await deps.limits.consumeKey(CODE_BUCKET, user.id);
    if (form.decision === 'decline') {
      await declinePairing(db, { userId: user.id, userCode, websiteId }, clock());
      return render(c, { message: { kind: 'ok', text: 'Declined. The tool gets no access.' } });
    }
    await approvePairing(
      db,
      {
        userId: user.id,
        userCode,
        websiteId,
        reach: form.reach === 'workspace' ? 'workspace' : 'website',
        scopes: postedScopes(form),
      },
      clock(),
    );
    return render(c, { message: { kind: 'ok', text: 'Approved. You can go back to your terminal.' } });
  });

  app.post('/dashboard/connect/oauth', requireUser(), pageAgain, async (c) => {
    const form = await c.req.parseBody({ all: true });
    const user = c.get('user')!;
    if (!config.oauthIssuer) {
      return render(c, { message: { kind: 'error', text: 'OAuth is not configured (OAUTH_ISSUER).' } }, 400);
    }
    const code = typeof form.code === 'string' && form.code ? form.code : undefined;
    if (code) await deps.limits.consumeKey(CODE_BUCKET, user.id);
    const conn = await bindOAuthClient(
      db,
      {
        userId: user.id,
        issuer: config.oauthIssuer,
        code,
        clientId: String(form.clientId ?? ''),
        websiteId: String(form.websiteId ?? ''),
        reach: form.reach === 'workspace' ? 'workspace' : 'website',
        scopes: postedScopes(form),
      },
      clock(),
    );
    return render(c, { message: { kind: 'ok', text: `Connected: ${conn.name}.` } });
  });

  // An abandoned sign-in of the person's own: dismissed, then POST → 303 back to the page.
  app.post('/dashboard/connect/oauth/:id/dismiss', requireUser(), pageAgain, async (c) => {
    const done = await dismissPendingSignIn(db, c.get('user')!.id, c.req.param('id'), clock());
    if (!done) throw new Refusal('not_found', 'There is no such pending sign-in.');
    return c.redirect('/dashboard/connect?dismissed=1', 303);
  });
}
