// Every TypeScript source file under a folder (default src/), for the architecture checks.
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

export function sources(dir = path.resolve('src'), out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) sources(p, out);
    else if (/\.tsx?$/.test(name)) out.push(p);
  }
  return out;
}
