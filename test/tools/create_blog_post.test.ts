// create_blog_post: a draft post page holding one blog_body section; a repeated title gets a new address.
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { pages, sections } from '../../src/db/schema.js';
import { toolKit } from './kit.js';

const kit = toolKit();

it('matches its contract snapshot', () => kit.expectContract('create_blog_post'));

it('makes a post with a blog_body section; a repeated title gets a new address', async () => {
  const w = await kit.workspace();
  const args = {
    title: 'Easter buns',
    body: 'Hot cross buns are **back**.\n\n- Friday\n- Saturday',
    excerpt: 'Buns!',
  };
  const r = await kit.call(w.tokens.default, 'create_blog_post', args);
  expect(r.ok).toBe(true);
  expect(r.data?.slug).toBe('blog/easter-buns');
  const [page] = await kit.db.select().from(pages).where(eq(pages.id, r.data!.pageId));
  expect(page).toMatchObject({ kind: 'post', title: 'Easter buns', excerpt: 'Buns!' });
  const body = await kit.db.select().from(sections).where(eq(sections.pageId, r.data!.pageId));
  expect(body).toMatchObject([{ id: r.data!.sectionId, type: 'blog_body', content: { body: args.body } }]);
  const again = await kit.call(w.tokens.default, 'create_blog_post', args);
  expect(again.data?.slug).toBe('blog/easter-buns-2');
});

it('refuses a body with a script link, writing nothing', async () => {
  const w = await kit.workspace();
  await kit.expectRefusal(
    'invalid_input',
    () => kit.call(w.tokens.default, 'create_blog_post', { title: 'T', body: 'Hi [x](javascript:alert(1))' }),
    { tool: 'create_blog_post', companyIds: [w.companyId] },
  );
});
