// GET /invitations/:token and POST /invitations/:token/accept: the invited person accepts (signed in,
// CSRF-checked). Rules live in src/domain/access/accept.ts.
import type { Context, Hono } from 'hono';
import { acceptInvitation, viewInvitation } from '../../domain/access/accept.js';
import type { AppDeps } from '../deps.js';
import { CsrfField, Layout } from '../pages/layout.js';
import { type RefusalStatus, answerRefusalsWith } from '../refusal.js';
import { type WebEnv, requireUser } from '../session.js';

export function mountInvitations(app: Hono<WebEnv>, deps: AppDeps): void {
  const { db, clock } = deps.services;

  const message = (title: string, text: string, status: 200 | RefusalStatus) => (c: Context<WebEnv>) =>
    c.html(
      <Layout title={title} user={c.get('user')} csrf={c.get('csrf')}>
        <div class="card">
          <h1>{title}</h1>
          <p>{text}</p>
        </div>
      </Layout>,
      status,
    );
  // An unknown, expired or someone else's invitation is answered on the invitation's own card.
  app.use(
    '/invitations/*',
    requireUser(),
    answerRefusalsWith((c, err, status) => message('Invitation', err.message, status)(c)),
  );

  app.get('/invitations/:token', async (c) => {
    const token = c.req.param('token');
    const v = await viewInvitation(db, token, c.get('user')!, clock());
    if (!v.forThisUser) {
      return message(
        'Invitation',
        'This invitation was sent to another address. Sign in with the address it was sent to.',
        403,
      )(c);
    }
    return c.html(
      <Layout title="Invitation" user={c.get('user')} csrf={c.get('csrf')}>
        <div class="card">
          <h1>Join {v.websiteName}</h1>
          <p>You are invited as {v.level === 'editor' ? 'an editor' : 'a viewer'} of this website.</p>
          <form method="post" action={`/invitations/${encodeURIComponent(token)}/accept`}>
            <CsrfField csrf={c.get('csrf')} />
            <button type="submit" id="accept">
              Accept
            </button>
          </form>
        </div>
      </Layout>,
    );
  });

  app.post('/invitations/:token/accept', async (c) => {
    const r = await acceptInvitation(db, c.req.param('token'), c.get('user')!, clock());
    return message('Invitation accepted', `You are now a ${r.role} of this website.`, 200)(c);
  });
}
