// A live fixture website on 127.0.0.1 (node:http) for crawl tests and the benchmark: robots.txt with
// disallowed paths, a booking widget, scripts, an embed, a contact form, images (one fake, one
// missing), a redirect, a redirect loop and a 404. `hits` counts every request by path.
import { type Server, createServer } from 'node:http';
import { pixel } from '../portable/fixtures.js';

export type FixtureSite = {
  base: string;
  hostPort: string;
  hits: Map<string, number>;
  /** Most requests the server was answering at the same time. */
  maxInFlight(): number;
  close(): Promise<void>;
};

const page = (title: string, body: string, head = '') =>
  `<!doctype html><html><head><title>${title}</title>${head}</head><body><nav><a href="/">Home</a><a href="/about">About</a></nav><main>${body}</main><footer><p>© Harbor Bakery</p></footer></body></html>`;

export function bakeryPages(): Record<string, string> {
  return {
    '/': page(
      'Harbor Bakery',
      `<h1>Harbor Bakery</h1><p>Fresh bread every morning.</p><img src="/img/hero.png" alt="Our shop">
       <h2>Visit us</h2><p>Open daily from 7 am &lt;script&gt; not really.</p>
       <ul><li><a href="/about">About</a></li><li><a href="/menu">Menu</a></li><li><a href="/contact">Contact</a></li>
       <li><a href="/booking">Book</a></li><li><a href="/private/secret">Staff</a></li><li><a href="/admin/panel">Admin</a></li>
       <li><a href="/loop-a">Loop</a></li><li><a href="/missing">Gone</a></li><li><a href="/old-about">Old about</a></li>
       <li><a href="/gallery">Gallery</a></li><li><a href="/staff">Staff (redirects into /private)</a></li><li><a href="https://example.com/elsewhere">Elsewhere</a></li>
       <li><a href="/files/menu.pdf">PDF</a></li><li><a href="mailto:hello@harbor.test">Mail</a></li></ul>
       <script>window.dataLayer=[];</script><script src="/js/analytics.js"></script>`,
      '<meta name="description" content="Family bakery on the harbour."><meta property="og:site_name" content="Harbor Bakery"><meta name="theme-color" content="#8A4B2A">',
    ),
    '/about': page(
      'About us',
      `<h1>About us</h1><p>Since 1987.</p><h2>Our story</h2><p>It started with one oven.</p><p>Then came two.</p>
       <blockquote>Best buns in town.</blockquote><h2>Team</h2><img src="/img/team1.png" alt="Anna"><img src="/img/team2.jpg" alt="Ben">`,
    ),
    '/menu': page(
      'Menu',
      `<h1>Menu</h1><h2>Bread</h2><ul><li>Sourdough</li><li>Rye</li></ul>
       <iframe src="https://www.youtube.com/embed/abc123"></iframe>`,
    ),
    '/contact': page(
      'Contact',
      `<h1>Contact</h1><p>Write to us.</p><a href="mailto:hello@harbor.test">hello@harbor.test</a>
       <form action="/send" method="post"><input name="email"><textarea name="msg"></textarea><button>Send</button></form>`,
    ),
    '/booking': page(
      'Book a table',
      `<h1>Book a table</h1><p>Reserve online.</p><div class="booking-widget"><iframe src="https://calendly.com/harbor/table"></iframe></div>
       <script src="https://assets.calendly.com/assets/external/widget.js"></script>`,
    ),
    '/gallery': page(
      'Gallery',
      `<h1>Gallery</h1><h2>Pictures</h2><img src="/img/team1.png" alt="Anna again"><img src="/img/fake.png" alt="Fake"><img src="/img/missing.png" alt="Missing">`,
    ),
    '/private/secret': page('Secret', '<h1>Do not crawl</h1><p>secret</p>'),
    '/admin/panel': page('Admin', '<h1>Admin</h1>'),
  };
}

/** `n` pages: home, about and n - 2 more linked from home (benchmark). */
export function manyPages(n: number): Record<string, string> {
  const links = Array.from({ length: n - 2 }, (_, i) => `<li><a href="/p/${i}">Page ${i}</a></li>`).join('');
  const out: Record<string, string> = {
    '/': page('Many', `<h1>Many pages</h1><p>Index.</p><ul>${links}</ul>`),
    '/about': page('About', '<h1>About</h1><p>About the many pages.</p>'),
  };
  for (let i = 0; i < n - 2; i++) {
    out[`/p/${i}`] = page(
      `Page ${i}`,
      `<h1>Page ${i}</h1><p>Intro ${i}.</p><h2>Part A</h2><p>Text A ${i}.</p><h2>Part B</h2><ul><li>x</li><li>y</li></ul>`,
    );
  }
  return out;
}

export async function startFixtureSite(pages: Record<string, string> = bakeryPages()): Promise<FixtureSite> {
  const images: Record<string, { type: string; body: Buffer | string }> = {
    '/img/hero.png': { type: 'image/png', body: await pixel('#aa5500') },
    '/img/team1.png': { type: 'image/png', body: await pixel('#0055aa') },
    '/img/team2.jpg': { type: 'image/jpeg', body: await pixel('#55aa00', 'jpeg') },
    '/img/fake.png': { type: 'image/png', body: '<svg onload="alert(1)"></svg>' },
  };
  const redirects: Record<string, string> = {
    '/loop-a': '/loop-b',
    '/loop-b': '/loop-a',
    '/old-about': '/about',
    '/staff': '/private/secret',
  };
  const hits = new Map<string, number>();
  let inFlight = 0;
  let maxInFlight = 0;
  const server: Server = createServer(async (req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    res.on('close', () => {
      inFlight -= 1;
    });
    await new Promise((r) => setTimeout(r, 10)); // a little latency, so concurrent requests overlap
    if (path === '/robots.txt') {
      res
        .writeHead(200, { 'content-type': 'text/plain' })
        .end('User-agent: *\nDisallow: /private\nDisallow: /admin/\n');
      return;
    }
    if (redirects[path]) {
      res.writeHead(302, { location: redirects[path] }).end();
      return;
    }
    const img = images[path];
    if (img) {
      res.writeHead(200, { 'content-type': img.type }).end(img.body);
      return;
    }
    const html = pages[path];
    if (html) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
      return;
    }
    res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return {
    base: `http://127.0.0.1:${port}`,
    hostPort: `127.0.0.1:${port}`,
    hits,
    maxInFlight: () => maxInFlight,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
