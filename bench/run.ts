// `npm run bench`: every benchmark module in turn, each printing its own figures.
// BENCH=name[,name] runs only those (ladder, writes, mcp, protocol, commits, content, import,
// fidelity, migrate-big, startup, site, mail, apps, growth).
const ALL = [
  'ladder',
  'writes',
  'mcp',
  'protocol',
  'commits',
  'content',
  'import',
  'fidelity',
  'migrate-big',
  'startup',
  'site',
  'mail',
  'apps',
  'growth',
];
const only = process.env.BENCH?.split(',').filter(Boolean);
for (const name of only ?? ALL) {
  let mod: { bench?: () => Promise<void> };
  try {
    mod = await import(`./${name}.ts`);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND' && !only) continue;
    throw err;
  }
  console.log(`\n=== bench: ${name}`);
  await mod.bench?.();
}
process.exit(0);
