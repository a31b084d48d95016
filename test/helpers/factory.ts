// A slim fixture: one workspace with just what most tool tests need — a company (credits, AI consent
// and the advanced-editor grant as the demo has them), an owner, an editor and a viewer, a main site
// with a home page and one hero section, a second site, and three connections (default scopes, all
// scopes, whole workspace). The demo (src/demo/seed.ts) stays the full seed for `npm start` and for
// tests that need its leads, bookings, documents, domains or analytics; this takes a fraction of its
// time, so a test can make a fresh workspace of its own cheaply.
import { createConnection } from '../../src/auth/connections.js';
import type { Db } from '../../src/db/client.js';
import * as t from '../../src/db/schema.js';
import { hashPassword } from '../../src/domain/users/passwords.js';
import { newId } from '../../src/kernel/ids.js';
import { SCOPES } from '../../src/kernel/scopes.js';
import { uniqueTag } from './db.js';

export type FixtureUser = { id: string; email: string; password: string };
export type Workspace = {
  companyId: string;
  users: { owner: FixtureUser; editor: FixtureUser; viewer: FixtureUser };
  websites: { main: string; events: string };
  pages: { home: string };
  sections: { hero: string };
  tokens: { default: string; all: string; workspace: string };
  connections: { default: string; all: string; workspace: string };
};

export type WorkspaceOptions = { credits?: number; aiConsent?: boolean; advancedEditor?: boolean };

const PASSWORD = 'fixture-pass-1234';
let passwordHash: Promise<string> | null = null;

export async function makeWorkspace(db: Db, o: WorkspaceOptions = {}): Promise<Workspace> {
  passwordHash ??= hashPassword(PASSWORD);
  const tag = uniqueTag();
  const companyId = newId('co');
  await db.insert(t.companies).values({
    id: companyId,
    name: `Fixture Bakery ${tag}`,
    plan: 'pro',
    siteLimit: 3,
    credits: o.credits ?? 40,
    aiConsent: o.aiConsent ?? true,
    advancedEditor: o.advancedEditor ?? true,
  });
  const user = async (who: string): Promise<FixtureUser> => {
    const id = newId('usr');
    const email = `${who}+${tag}@fixture.sitegate.test`;
    await db.insert(t.users).values({ id, email, name: who, passwordHash: await passwordHash! });
    return { id, email, password: PASSWORD };
  };
  const owner = await user('owner');
  const editor = await user('editor');
  const viewer = await user('viewer');
  await db.insert(t.companyMembers).values([
    { companyId, userId: owner.id, role: 'owner' },
    { companyId, userId: editor.id, role: 'member' },
    { companyId, userId: viewer.id, role: 'member' },
  ]);
  const main = newId('site');
  const events = newId('site');
  await db.insert(t.websites).values([
    { id: main, companyId, name: 'Fixture Bakery' },
    { id: events, companyId, name: 'Fixture Bakery Events' },
  ]);
  await db.insert(t.websiteMembers).values([
    { websiteId: main, userId: owner.id, role: 'owner' },
    { websiteId: main, userId: editor.id, role: 'editor' },
    { websiteId: main, userId: viewer.id, role: 'viewer' },
    { websiteId: events, userId: owner.id, role: 'owner' },
  ]);
  const home = newId('page');
  await db.insert(t.pages).values({ id: home, websiteId: main, slug: 'home', title: 'Home', position: 0 });
  const hero = newId('sec');
  await db.insert(t.sections).values({
    id: hero,
    websiteId: main,
    pageId: home,
    type: 'hero',
    content: { heading: 'Fresh bread every morning' },
    position: 0,
  });
  const connect = async (name: string, scopes?: readonly string[], reach?: 'workspace') => {
    const r = await createConnection(db, { userId: owner.id, websiteId: main, name, scopes, reach });
    return { token: r.token!, id: r.connection.id };
  };
  const def = await connect('Fixture assistant (default scopes)');
  const all = await connect('Fixture assistant (all scopes)', SCOPES);
  const ws = await connect('Fixture assistant (whole workspace)', SCOPES, 'workspace');
  return {
    companyId,
    users: { owner, editor, viewer },
    websites: { main, events },
    pages: { home },
    sections: { hero },
    tokens: { default: def.token, all: all.token, workspace: ws.token },
    connections: { default: def.id, all: all.id, workspace: ws.id },
  };
}
