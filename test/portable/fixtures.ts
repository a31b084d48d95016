// Fixtures for import tests: a real HTTP server on 127.0.0.1 serving images (and a few bad files),
// and a PortableSiteV1 builder. The server's host:port goes into CRAWL_ALLOW_HOSTS.
import { type Server, createServer } from 'node:http';
import sharp from 'sharp';

export type AssetServer = {
  base: string;
  hostPort: string;
  hits: Map<string, number>;
  close(): Promise<void>;
};

export async function pixel(color: string, format: 'png' | 'jpeg' = 'png'): Promise<Buffer> {
  return sharp({ create: { width: 8, height: 6, channels: 3, background: color } })
    .toFormat(format)
    .toBuffer();
}

export async function startAssetServer(extra: Record<string, { type: string; body: Buffer | string }> = {}) {
  const files: Record<string, { type: string; body: Buffer | string }> = {
    '/img/red.png': { type: 'image/png', body: await pixel('#ff0000') },
    '/img/blue.png': { type: 'image/png', body: await pixel('#0000ff') },
    '/img/green.jpg': { type: 'image/jpeg', body: await pixel('#00ff00', 'jpeg') },
    '/img/fake.png': { type: 'image/png', body: '<html><script>alert(1)</script></html>' },
    '/img/logo.png': { type: 'image/png', body: await pixel('#123456') },
    ...extra,
  };
  const hits = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const f = files[path];
    if (!f) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': f.type }).end(f.body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return {
    base: `http://127.0.0.1:${port}`,
    hostPort: `127.0.0.1:${port}`,
    hits,
    close: () => new Promise<void>((r) => server.close(() => r())),
  } satisfies AssetServer;
}

/** A small but complete site: three pages, every common section type, layouts, two images and a logo. */
export function sampleSite(base: string, tag = 'a') {
  return {
    version: 1 as const,
    name: `Imported Bakery ${tag}`,
    businessName: 'Imported Bakery Ltd',
    brand: {
      palette: { primary: '#8a4b2a', background: '#fffaf2' },
      fonts: { heading: 'Fraunces', body: 'Inter' },
      style: 'Warm and rustic',
      voice: 'Friendly',
      logo: 'asset:logo',
    },
    config: { locale: 'en', timezone: 'Europe/Amsterdam' },
    theme: { preset: 'warm', radius: 'md' },
    fonts: { heading: 'Fraunces', body: 'Inter' },
    pages: [
      {
        slug: 'home',
        title: 'Home',
        kind: 'page' as const,
        excerpt: null,
        seo: { title: 'Imported Bakery', description: 'Bread, every morning.' },
        sections: [
          {
            externalKey: 'home-hero',
            type: 'hero' as const,
            content: { heading: 'Fresh bread', subheading: 'Since 1987', imageUrl: 'asset:red' },
            layout: { width: 'full' as const, paddingY: 'lg' as const },
            hidden: false,
          },
          {
            externalKey: 'home-intro',
            type: 'text' as const,
            content: { heading: 'About us', body: 'We bake **every** day.' },
            layout: {},
            hidden: false,
          },
          {
            externalKey: 'home-gallery',
            type: 'gallery' as const,
            content: {
              images: [
                { url: 'asset:blue', alt: 'Blue' },
                { url: `${base}/img/green.jpg`, alt: 'Green' },
              ],
            },
            layout: { width: 'wide' as const },
            hidden: true,
          },
        ],
      },
      {
        slug: 'menu',
        title: 'Menu',
        kind: 'page' as const,
        excerpt: null,
        seo: { title: null, description: null },
        sections: [
          {
            externalKey: 'menu-faq',
            type: 'faq' as const,
            content: { items: [{ question: 'Gluten free?', answer: 'Some loaves.' }] },
            layout: {},
            hidden: false,
          },
          {
            externalKey: 'menu-cta',
            type: 'cta' as const,
            content: { heading: 'Order', buttonLabel: 'Call us', buttonUrl: 'https://example.com/order' },
            layout: { hideOnMobile: true },
            hidden: false,
          },
        ],
      },
      {
        slug: 'news-opening',
        title: 'We opened',
        kind: 'post' as const,
        excerpt: 'Our new shop.',
        date: '2026-03-01T12:00:00Z',
        seo: { title: 'Opening', description: null },
        sections: [
          {
            externalKey: 'post-body',
            type: 'blog_body' as const,
            content: { body: 'We opened a *second* shop.' },
            layout: {},
            hidden: false,
          },
        ],
      },
    ],
    assets: [
      { key: 'red', url: `${base}/img/red.png` },
      { key: 'blue', url: `${base}/img/blue.png` },
      { key: 'green', url: `${base}/img/green.jpg` },
      { key: 'logo', url: `${base}/img/logo.png` },
    ],
  };
}

/** A site of `pages` pages with `perPage` text sections each, no assets (caps and benchmark). */
export function bigSite(pages: number, perPage: number) {
  return {
    version: 1 as const,
    name: 'Big site',
    businessName: 'Big Co',
    pages: Array.from({ length: pages }, (_, p) => ({
      slug: `page-${p}`,
      title: `Page ${p}`,
      sections: Array.from({ length: perPage }, (_, n) => ({
        externalKey: `p${p}-s${n}`,
        type: 'text' as const,
        content: { heading: `Section ${n}`, body: `Body of section ${n} on page ${p}.` },
      })),
    })),
  };
}
