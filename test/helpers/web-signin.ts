// A signed-in browser stand-in over plain HTTP: keeps cookies, signs in through /login and reads the
// CSRF token from the pages, so tests drive the owner pages exactly as forms would.
export type WebSession = {
  get(path: string): Promise<{ status: number; html: string; location: string | null }>;
  post(
    path: string,
    fields: Record<string, string | string[]>,
  ): Promise<{ status: number; html: string; location: string | null }>;
  csrf: string;
};

export async function signIn(base: string, email: string, password: string): Promise<WebSession> {
  const jar = new Map<string, string>();
  const store = (res: Response) => {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const i = pair!.indexOf('=');
      jar.set(pair!.slice(0, i), pair!.slice(i + 1));
    }
  };
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const csrfOf = (html: string) => /name="_csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';
  const request = async (path: string, init: RequestInit = {}) => {
    const res = await fetch(`${base}${path}`, {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as Record<string, string>), cookie: cookie() },
    });
    store(res);
    return { status: res.status, html: await res.text(), location: res.headers.get('location') };
  };
  const session: WebSession = {
    csrf: '',
    get: (path) => request(path),
    async post(path, fields) {
      const body = new URLSearchParams();
      body.append('_csrf', session.csrf);
      for (const [k, v] of Object.entries(fields)) for (const x of [v].flat()) body.append(k, x);
      return request(path, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
    },
  };
  const login = await request('/login');
  session.csrf = csrfOf(login.html);
  const r = await session.post('/login', { email, password, next: '/' });
  if (r.status !== 303) throw new Error(`sign-in failed: ${r.status}`);
  session.csrf = csrfOf((await request('/')).html);
  return session;
}
