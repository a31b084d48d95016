// The console's products page: a product an assistant created (create_product) is a draft; the page
// lists it with its status and revision, links an assistant's waiting prepare_publish_product plan to
// its approval page, and the owner publishes it at its revision (visitors' assistants are then offered
// it) or takes it back; publishing by hand leaves the waiting plan unapprovable. Refusals (a stale page,
// another tenant, an editor, no CSRF token) change nothing.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { and, count, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Demo } from '../../src/demo/seed.js';
import { activity, products } from '../../src/db/schema.js';
import { uniqueTag } from '../helpers/db.js';
import { type TestServer, startTestServer } from '../helpers/server.js';
import { signIn } from '../helpers/web.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ seed: false });
});
afterAll(() => s?.close());

const db = () => s.sg.deps.services.db;
const listOf = (id: string) => `/dashboard/sites/${id}/products`;
const as = (who: { email: string; password: string }) => signIn(s.url, who.email, who.password);

/** A draft product made by an assistant. */
async function draftProduct(d: Demo) {
  const name = `Rye starter ${uniqueTag()}`;
  const made = await s.call(d.tokens.all, 'create_product', { name, priceCents: 1250 });
  expect(made.ok, JSON.stringify(made.error)).toBe(true);
  return { id: made.data!.productId as string, name };
}

/** The product's row and the number of the owner's publish/unpublish Activity lines. */
const stateOf = async (websiteId: string, productId: string) => {
  const [row] = await db()
    .select({ status: products.status, publishedRevision: products.publishedRevision })
    .from(products)
    .where(eq(products.id, productId));
  const [lines] = await db()
    .select({ n: count() })
    .from(activity)
    .where(
      and(
        eq(activity.websiteId, websiteId),
        inArray(activity.tool, ['publish_product', 'unpublish_product']),
      ),
    );
  return { ...row!, lines: lines!.n };
};

/** The names of the products a visitor's assistant is offered on the live site. */
async function offered(d: Demo): Promise<string[]> {
  const c = new Client({ name: 'visitor-test', version: '1.0.0' });
  await c.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/sites/${d.websites.main}/_api/mcp`)));
  const r = await c.callTool({ name: 'list_offerings', arguments: {} });
  await c.close();
  return (r.structuredContent as { data: { products: Array<{ name: string }> } }).data.products.map(
    (p) => p.name,
  );
}

describe('products', () => {
  it('lists an assistant’s draft with its waiting plan; the owner publishes it and takes it back', async () => {
    const d = await s.seed();
    const prod = await draftProduct(d);
    const plan = await s.call(d.tokens.all, 'prepare_publish_product', { productId: prod.id });
    expect(plan.ok).toBe(true);
    const planId = plan.data!.planId as string;
    const web = await as(d.users.owner);
    const page = await web.get(listOf(d.websites.main));
    expect(page.status).toBe(200);
    expect(page.html).toMatch(new RegExp(`data-product="${prod.id}" data-status="draft"`));
    expect(page.html).toContain(`href="/approvals/${planId}"`);
    expect(page.html).toContain(`id="publish-${prod.id}"`);
    expect(page.html).toContain('<input type="hidden" name="shown" value="draft:1"/>');
    // In the console's navigation, marked as the page the owner is on.
    expect(page.html).toContain(`<a href="${listOf(d.websites.main)}" aria-current="page">Products</a>`);
    expect(await offered(d)).not.toContain(prod.name);

    const r = await web.post(`${listOf(d.websites.main)}/${prod.id}/publish`, { shown: 'draft:1' });
    expect(r.status).toBe(303);
    expect(r.location).toBe(`${listOf(d.websites.main)}?done=published`);
    expect(await stateOf(d.websites.main, prod.id)).toEqual({
      status: 'public',
      publishedRevision: 1,
      lines: 1,
    });
    expect(await offered(d)).toContain(prod.name);
    // The assistant's plan described the draft: it can no longer be approved.
    const review = await web.get(`/approvals/${planId}`);
    expect(review.html).toContain('This changed since the plan was prepared');
    const after = await web.get(listOf(d.websites.main));
    expect(after.html).toContain('Public (revision 1)');
    expect(after.html).not.toContain(`href="/approvals/${planId}"`);

    const off = await web.post(`${listOf(d.websites.main)}/${prod.id}/unpublish`, { shown: 'public:1' });
    expect(off.status).toBe(303);
    expect(await stateOf(d.websites.main, prod.id)).toEqual({
      status: 'draft',
      publishedRevision: null,
      lines: 2,
    });
    expect(await offered(d)).not.toContain(prod.name);
  });

  it('a stale page, an already public product, another tenant, an editor and no CSRF token change nothing', async () => {
    const d = await s.seed();
    const prod = await draftProduct(d);
    const owner = await as(d.users.owner);
    await owner.get(listOf(d.websites.main));
    expect(
      (await owner.post(`${listOf(d.websites.main)}/${prod.id}/publish`, { shown: 'draft:1' })).status,
    ).toBe(303);
    const before = await stateOf(d.websites.main, prod.id);
    // The page still showed a draft (a second owner, or the approved plan, published it first).
    const stale = await owner.post(`${listOf(d.websites.main)}/${prod.id}/publish`, { shown: 'draft:1' });
    expect(stale.status).toBe(409);
    expect(stale.html).toContain('changed after your page was shown');
    // Publishing what is public.
    expect(
      (await owner.post(`${listOf(d.websites.main)}/${prod.id}/publish`, { shown: 'public:1' })).status,
    ).toBe(409);
    const other = await as(d.users.otherOwner);
    await other.get('/');
    expect(
      (await other.post(`${listOf(d.websites.main)}/${prod.id}/unpublish`, { shown: 'public:1' })).status,
    ).toBe(404);
    expect(
      (await other.post(`${listOf(d.websites.otherTenant)}/${prod.id}/unpublish`, { shown: 'public:1' }))
        .status,
    ).toBe(404);
    expect((await other.get(listOf(d.websites.main))).status).toBe(404);
    const editor = await as(d.users.editor);
    expect((await editor.get(listOf(d.websites.main))).status).toBe(403);
    await editor.get('/');
    expect(
      (await editor.post(`${listOf(d.websites.main)}/${prod.id}/unpublish`, { shown: 'public:1' })).status,
    ).toBe(403);
    await owner.get(listOf(d.websites.main));
    expect(
      (
        await owner.post(
          `${listOf(d.websites.main)}/${prod.id}/unpublish`,
          { shown: 'public:1' },
          { csrf: false },
        )
      ).status,
    ).toBe(403);
    expect(await stateOf(d.websites.main, prod.id)).toEqual(before);
    // No tool makes a product public: only the plan, which the owner approves.
    const { tools } = await (await s.client(d.tokens.all)).listTools();
    expect(
      tools
        .map((t) => t.name)
        .filter((n) => /product/.test(n))
        .sort(),
    ).toEqual(['create_product', 'list_products', 'prepare_publish_product']);
  });
});
