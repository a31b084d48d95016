// `sitegate idp`: runs the development identity provider (src/auth/oauth/idp.ts) on
// 127.0.0.1:IDP_PORT against the same users table. With the embedded PGlite database only one
// process may open DATA_DIR, so `sitegate serve --idp` runs it inside the serving process instead.
import { loadConfig } from '../config.js';
import { openDatabase } from '../db/client.js';

export async function idpCommand(): Promise<void> {
  const config = loadConfig();
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    bounds: config.dbBounds,
  });
  const { startIdp } = await import('../auth/oauth/idp.js');
  const idp = await startIdp({ db: database.db, audience: config.oauthAudience, port: config.idpPort });
  process.stdout.write(
    `Development identity provider: ${idp.issuer}\n` +
      `Access tokens are issued for ${config.oauthAudience}.\n` +
      `Start the server with OAUTH_ISSUER=${idp.issuer} (same DATABASE_URL), or use \`sitegate serve --idp\`.\n`,
  );
  const stop = async () => {
    await idp.close();
    await database.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
