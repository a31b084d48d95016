// The owner app's own 404, in its layout with a way home. Published sites answer their own 404
// (src/web/routes/site-load.ts); this is only for paths of BASE_URL's host that match no route.
import type { SessionUser } from '../session.js';
import { Layout } from './layout.js';

export function NotFoundPage(props: { user: SessionUser | null; csrf: string }) {
  return (
    <Layout title="Page not found" user={props.user} csrf={props.csrf}>
      <h1>Page not found</h1>
      <div class="card" id="not-found">
        <p>There is no page at this address. It may have moved, or the link may be mistyped.</p>
        <p>
          <a href="/">Go to Sitegate home</a>
        </p>
      </div>
    </Layout>
  );
}
