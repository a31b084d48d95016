// The one translation of a refusal into a page for the signed-in app: the console's routes let the
// gate's and the domain's Refusals propagate, and the web app's error handler answers with this.
import type { Context } from 'hono';
import type { ErrorCode, Refusal } from '../kernel/errors.js';
import { Layout } from './pages/layout.js';
import type { WebEnv } from './session.js';

const STATUS: Partial<Record<ErrorCode, 400 | 403 | 404 | 409 | 410>> = {
  not_found: 404,
  owner_only: 403,
  role_insufficient: 403,
  area_disabled: 403,
  invalid_input: 400,
  plan_expired: 410,
};

export function refusalPage(c: Context<WebEnv>, err: Refusal) {
  return c.html(
    <Layout title="Not possible" user={c.get('user')} csrf={c.get('csrf')}>
      <div class="card">
        <h1>Not possible</h1>
        <p class="error" data-code={err.code}>
          {err.message}
        </p>
        {err.hint ? <p>{err.hint}</p> : null}
        <p>Nothing was changed.</p>
        <p>
          <a href="/">Back to your websites</a>
        </p>
      </div>
    </Layout>,
    STATUS[err.code] ?? 409,
  );
}
