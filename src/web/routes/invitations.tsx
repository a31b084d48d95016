// GET /invitations/:token and POST /invitations/:token/accept: the invited person accepts (signed in,
// CSRF-checked). Rules live in src/domain/access/accept.ts.
import type { Context, Hono } from 'hono';
import { acceptInvitation, viewInvitation } from '../../domain/access/accept.js';
import { Refusal } from '../../kernel/errors.js';
import type { AppDeps } from '../deps.js';
import { CsrfField, Layout } from '../pages/layout.js';
import { type WebEnv, requireUser } from '../session.js';

export function mountInvitations(app: Hono<WebEnv>, deps: AppDeps): void {
  const { db, clock } = deps.services;
  app.use('/invitations/*', requireUser());

  const message = (title: string, text: string, status: 200 | 403 | 404 | 410) => (c: Context<WebEnv>) =>
    c.html(
      <Layout title={title} user={c.get('user')} csrf={c.get('csrf')}>
        <div class="card">
          <h1>{title}</h1>
          <p>{text}</p>
        </div>
      </Layout>,
      status,
    );
  const refusal = (err: unknown) => {
    if (!(err instanceof Refusal)) throw err;
    const status = err.code === 'not_found' ? 404 : err.code === 'plan_expired' ? 410 : 403;
    return message('Invitation', err.message, status);
  };

  app.get('/invitations/:token', async (c) => {
    const token = c.req.param('token');
    try {
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
    } catch (err) {
      return refusal(err)(c);
    }
  });

  app.post('/invitations/:token/accept', async (c) => {
    try {
      const r = await acceptInvitation(db, c.req.param('token'), c.get('user')!, clock());
      return message('Invitation accepted', `You are now a ${r.role} of this website.`, 200)(c);
    } catch (err) {
      return refusal(err)(c);
    }
  });
}
