// A signed-in browser stand-in for tests: fetch with a cookie jar, the CSRF field read from the pages.
// `post` adds the current page's `_csrf` unless told not to.

/** `html` is the same text as `body`, for tests that read pages. */
export type WebResponse = { status: number; location: string | null; body: string; html: string };

export type WebSession = {
  get(path: string): Promise<WebResponse>;
  post(
    path: string,
    form?: Record<string, string | string[]>,
    opts?: { csrf?: boolean },
  ): Promise<WebResponse>;
  csrf(): string;
  /** The `Cookie` header this session sends, for tests that build a request by hand. */
  cookies(): string;
};

const CSRF_RE = /name="_csrf" value="([^"]*)"/;

export function webClient(baseUrl: string): WebSession {
  const jar = new Map<string, string>();
  let csrf = '';
  const remember = (res: Response) => {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (/max-age=0|expires=thu, 01 jan 1970/i.test(line) || value === '') jar.delete(name);
      else jar.set(name, value);
    }
  };
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const wrap = async (res: Response): Promise<WebResponse> => {
    remember(res);
    const body = await res.text();
    const m = CSRF_RE.exec(body);
    if (m) csrf = m[1]!;
    return { status: res.status, location: res.headers.get('location'), body, html: body };
  };
  return {
    async get(path) {
      return wrap(await fetch(baseUrl + path, { headers: { cookie: cookie() }, redirect: 'manual' }));
    },
    async post(path, form = {}, opts = {}) {
      const body = new URLSearchParams();
      for (const [k, v] of Object.entries(form)) for (const x of [v].flat()) body.append(k, x);
      if (opts.csrf !== false) body.set('_csrf', csrf);
      return wrap(
        await fetch(baseUrl + path, {
          method: 'POST',
          headers: { cookie: cookie(), 'content-type': 'application/x-www-form-urlencoded' },
          body,
          redirect: 'manual',
        }),
      );
    },
    csrf: () => csrf,
    cookies: cookie,
  };
}

/** Signs in through the real /login form; throws if the credentials are refused. */
export async function signIn(baseUrl: string, email: string, password: string): Promise<WebSession> {
  const web = webClient(baseUrl);
  await web.get('/login');
  const res = await web.post('/login', { email, password, next: '/approvals' });
  if (res.status !== 303) throw new Error(`sign-in failed with ${res.status}`);
  await web.get('/approvals'); // the session's own CSRF token replaces the pre-sign-in one
  return web;
}
