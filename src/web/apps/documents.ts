// The MCP App documents (R-APP-2), read once per process. `npm run build` (scripts/build.mjs) writes
// them beside this module's compiled form; a service running from its sources (development, the tests)
// has no build, and makes them with the same function (scripts/build-apps.mjs) on first use.
import { existsSync, readFileSync } from 'node:fs';
import type { AppId } from '../../mcp/apps/catalogue.js';

const BUILT = new URL('./built/', import.meta.url);
const BUILDER = new URL('../../../scripts/build-apps.mjs', import.meta.url);

let documents: Promise<ReadonlyMap<AppId, string>> | undefined;

async function load(): Promise<ReadonlyMap<AppId, string>> {
  const { APP_DOCUMENTS, buildAppDocuments } = await import(BUILDER.href);
  const ids = Object.keys(APP_DOCUMENTS) as AppId[];
  if (ids.every((id) => existsSync(new URL(`${id}.html`, BUILT)))) {
    return new Map(ids.map((id) => [id, readFileSync(new URL(`${id}.html`, BUILT), 'utf8')]));
  }
  return new Map(Object.entries(await buildAppDocuments()) as Array<[AppId, string]>);
}

export function appDocuments(): Promise<ReadonlyMap<AppId, string>> {
  documents ??= load().catch((err) => {
    documents = undefined;
    throw err;
  });
  return documents;
}
