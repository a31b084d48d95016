// Benchmark of migrate_site_from_url of a 300-page site served on 127.0.0.1 (a home page,
// an about and a contact page, 27 pages of post listings and 270 dated posts, each with a picture, a
// table and a code block), run in a child process of its own so that its peak memory is its own. The
// child prints the time, the pages fetched against the crawler's bound, what came along and what was
// reported, and its memory: resident set before the migration and at its peak, and the JavaScript
// heap at its peak. Two legs: the database in the process (in-memory PGlite, whose memory counts),
// and, when DATABASE_URL is set, in PostgreSQL as a server runs it. Bar: the crawl stays within its
// bounds and the process within 300 MB.
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { CRAWL_DEFAULTS } from '../src/migrate/crawler.js';
import { migrateSite } from '../src/migrate/migrate.js';
import { fixtureImage } from '../test/fixtures/serve.js';
import { directCtx } from './direct-ctx.js';

const PAGES = 300;
const POSTS = 270;
const PER_LISTING = 10;
/** The most pages one migration fetches (the tool's own cap on maxPages). */
const MAX_PAGES = 200;
const MB = 1024 * 1024;

const shell = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title} | Long Harbour</title></head><body><header><a href="/"><img src="/img/logo.png" alt="Long Harbour"></a><nav><a href="/">Home</a><a href="/about.html">About</a><a href="/blog/">Journal</a><a href="/contact.html">Contact</a></nav></header><main>${body}</main><footer><p>Long Harbour Trust, 4 Quay Row · <a href="mailto:hello@longharbour.example">hello@longharbour.example</a></p></footer></body></html>`;

const day = (i: number) => {
  const d = new Date(Date.UTC(2025, 11, 31) - i * 86_400_000);
  return { iso: d.toISOString().slice(0, 10), path: d.toISOString().slice(0, 10).replace(/-/g, '/') };
};
const postPath = (i: number) => `/blog/${day(i).path}/note-${i}.html`;
const paragraph = (i: number, n: number) =>
  `<p>Note ${i}, part ${n}: the tide came in at ${(i + n) % 12} and the boats of the inner harbour swung on their moorings while the crew of the Margaret checked the lines, the pumps and the lamps before the evening crossing.</p>`;

function site(): Map<string, string> {
  const pages = new Map<string, string>();
  pages.set(
    '/',
    shell(
      'Home',
      `<section class="intro"><h1>The Long Harbour Trust</h1><p>Boats, people and notes from the longest harbour wall on the coast.</p><a class="button" href="/contact.html">Visit us</a></section><section><h2>What we do</h2><div class="cards">${[1, 2, 3].map((n) => `<div class="card"><img src="/img/work-${n}.jpg" alt="Work ${n}"><h3>Work ${n}</h3><p>What the trust does, part ${n}.</p></div>`).join('')}</div></section>`,
    ),
  );
  pages.set('/about.html', shell('About', `<h1>About</h1>${paragraph(0, 1)}${paragraph(0, 2)}`));
  pages.set(
    '/contact.html',
    shell('Contact', '<h1>Contact</h1><p>Call <a href="tel:+441632960999">01632 960999</a>.</p>'),
  );
  const listings = Math.ceil(POSTS / PER_LISTING);
  for (let l = 0; l < listings; l++) {
    const items = Array.from({ length: PER_LISTING }, (_, k) => l * PER_LISTING + k).filter((i) => i < POSTS);
    // Numbered pages, as generators draw them: every page of the journal one step from any other.
    const pager = Array.from(
      { length: listings },
      (_, n) => `<a href="/blog/${n ? `page/${n + 1}/` : ''}">${n + 1}</a>`,
    );
    const more = `<nav class="pager">${pager.join(' ')}</nav>`;
    pages.set(
      l === 0 ? '/blog/' : `/blog/page/${l + 1}/`,
      shell(
        'Journal',
        `<h1>Journal</h1>${items.map((i) => `<article class="entry"><h2><a href="${postPath(i)}">Harbour note ${i}</a></h2><time datetime="${day(i).iso}">${day(i).iso}</time><p>A short summary of note ${i}.</p></article>`).join('')}${more}`,
      ),
    );
  }
  for (let i = 0; i < POSTS; i++) {
    const body = Array.from({ length: 8 }, (_, n) => paragraph(i, n)).join('');
    pages.set(
      postPath(i),
      shell(
        `Harbour note ${i}`,
        `<article><header><h1>Harbour note ${i}</h1><p class="byline"><time datetime="${day(i).iso}">${day(i).iso}</time></p></header><figure><img src="/img/note-${i}.jpg" alt="The harbour, note ${i}"><figcaption>The harbour on the day of note ${i}.</figcaption></figure>${body}<h2>Tides</h2><table><tr><th>High</th><th>Low</th></tr><tr><td>0${i % 10}:12</td><td>1${i % 10}:40</td></tr></table><pre><code>tide --port long-harbour --day ${day(i).iso}</code></pre>${body}<p><a href="/blog/">Back to the journal</a></p></article>`,
      ),
    );
  }
  if (pages.size !== PAGES) throw new Error(`the site has ${pages.size} pages, not ${PAGES}`);
  return pages;
}

/** The measured run, in the child process. */
async function child(): Promise<void> {
  const pages = site();
  const server = createServer(async (req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    if (path.endsWith('.jpg') || path.endsWith('.png'))
      return void res.writeHead(200, { 'content-type': 'image/jpeg' }).end(await fixtureImage(path));
    const html = pages.get(path);
    if (html) return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
    res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const hostPort = `127.0.0.1:${(server.address() as { port: number }).port}`;
  const { ctx, authorizeTarget, close } = await directCtx(hostPort);
  global.gc?.();
  const before = process.memoryUsage();
  let peakRss = before.rss;
  let peakHeap = before.heapUsed;
  const sample = setInterval(() => {
    const m = process.memoryUsage();
    peakRss = Math.max(peakRss, m.rss);
    peakHeap = Math.max(peakHeap, m.heapUsed);
  }, 20);
  const t0 = performance.now();
  const r = await migrateSite(ctx, { url: `http://${hostPort}/`, maxPages: MAX_PAGES }, { authorizeTarget });
  const ms = Math.round(performance.now() - t0);
  clearInterval(sample);
  const maxRss = process.resourceUsage().maxRSS * 1024;
  console.log(
    JSON.stringify({
      ms,
      pagesFetched: r.pagesFetched,
      pagesFailed: r.pagesFailed,
      truncated: r.truncated,
      pages: r.pages,
      sections: r.sections,
      assetsSkipped: r.assetsSkipped,
      rssBefore: before.rss,
      peakRss: Math.max(peakRss, maxRss),
      peakHeap,
    }),
  );
  await close();
  server.close();
}

/** One measured run in a child process; `databaseUrl` puts the database in PostgreSQL, else in-process. */
async function run(databaseUrl?: string): Promise<Record<string, number | boolean>> {
  const out = await new Promise<string>((resolve, reject) => {
    const p = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', fileURLToPath(import.meta.url)], {
      env: { ...process.env, MIGRATE_BIG_CHILD: '1', BENCH_DATABASE_URL: databaseUrl ?? '' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let text = '';
    p.stdout.on('data', (d) => {
      text += d;
    });
    p.on('error', reject);
    p.on('exit', (code) => (code === 0 ? resolve(text) : reject(new Error(`child exited ${code}`))));
  });
  return JSON.parse(out.trim().split('\n').at(-1)!) as Record<string, number | boolean>;
}

function report(r: Record<string, number | boolean>, where: string): void {
  const within = Number(r.pagesFetched) <= MAX_PAGES && Number(r.peakRss) <= 300 * MB;
  console.log(
    `migrate_site_from_url of a ${PAGES}-page site, database ${where}: ${r.ms} ms end to end; fetched ${r.pagesFetched} of ${PAGES} pages (crawler bound ${MAX_PAGES}, time bound ${CRAWL_DEFAULTS.timeMs} ms, truncated ${r.truncated}), ${r.pagesFailed} failed; ${r.pages} pages and ${r.sections} sections imported, ${r.assetsSkipped} image(s) reported as not brought in`,
  );
  console.log(
    `  memory: resident ${(Number(r.rssBefore) / MB).toFixed(0)} MB before the migration, ${(Number(r.peakRss) / MB).toFixed(0)} MB at the peak (the whole process); JavaScript heap at its peak ${(Number(r.peakHeap) / MB).toFixed(0)} MB; within the crawler's bounds and 300 MB: ${within ? 'met' : 'MISSED'}`,
  );
}

export async function bench(): Promise<void> {
  report(await run(), 'in the process (in-memory PGlite)');
  // With PostgreSQL, as a server runs in production: a scratch database of its own, dropped after.
  const url = process.env.DATABASE_URL;
  if (!url) return console.log('  (DATABASE_URL not set: the PostgreSQL leg is skipped)');
  const { default: pg } = await import('pg');
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  const name = `sitegate_bench_migrate_${process.pid}`;
  await admin.query(`CREATE DATABASE ${name}`);
  try {
    const scratch = new URL(url);
    scratch.pathname = `/${name}`;
    report(await run(scratch.href), 'in PostgreSQL (outside the process)');
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

if (process.env.MIGRATE_BIG_CHILD) await child();
else if (import.meta.url === `file://${process.argv[1]}`) await bench();
