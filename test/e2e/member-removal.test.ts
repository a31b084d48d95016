// Removing a member across two real `sitegate serve` processes sharing one PostgreSQL: the owner
// removes the editor through the console on process A; the editor's very next request on process B
// (signed in there, the draft preview already open once) no longer reaches the site. Runs with
// DATABASE_URL (CI's PostgreSQL pass); the in-process variant is test/web/members.test.ts.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Child, backend, newDataDir, start, stop } from '../reliability/harness.js';
import { signIn } from '../helpers/web.js';

const url = process.env.DATABASE_URL;
type Users = Record<'owner' | 'editor', { email: string; password: string }>;

let db: Awaited<ReturnType<typeof backend>> | null = null;
const children: Child[] = [];
beforeAll(async () => {
  if (!url) return;
  db = await backend();
  // The first process seeds the demo; the second finds it seeded and serves the same data.
  const dir = newDataDir('members-a');
  children.push(await start(dir, db.env));
  children.push(await start(newDataDir('members-b'), db.env, `${dir}/demo-out-b.json`));
}, 180_000);
afterAll(async () => {
  for (const c of children) await stop(c);
  await db?.drop();
});

it.skipIf(!url)(
  'a member removed on one process is refused at their next request on the other',
  async () => {
    const [a, b] = children as [Child, Child];
    const users = (a.demo as unknown as { users: Users }).users;
    const main = a.demo.websites.main;
    const editor = await signIn(b.base, users.editor.email, users.editor.password);
    expect((await editor.get(`/editor/${main}/`)).status).toBe(200);

    const owner = await signIn(a.base, users.owner.email, users.owner.password);
    const members = await owner.get(`/dashboard/sites/${main}/members`);
    const editorId = members.html
      .split('data-member="')
      .slice(1)
      .find((row) => row.includes(users.editor.email))
      ?.split('"')[0];
    expect(editorId).toBeTruthy();
    expect((await owner.post(`/dashboard/sites/${main}/members/${editorId}/remove`)).status).toBe(303);

    expect((await editor.get(`/editor/${main}/`)).status).toBe(404);
    expect((await editor.get(`/dashboard/sites/${main}`)).status).toBe(404);
  },
  120_000,
);
