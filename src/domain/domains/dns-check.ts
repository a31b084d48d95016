// DNS look-ups for domain verification (R-DOM-2): a node:dns Resolver whose servers
// come from DNS_SERVERS (tests point it at a local dns2 server), with a bounded timeout. A failed
// look-up of any kind counts as "record not there yet"; it never throws.
import { Resolver } from 'node:dns/promises';

export type DnsChecker = {
  txt(name: string): Promise<string[]>;
  a(name: string): Promise<string[]>;
  cname(name: string): Promise<string[]>;
};

export function createDnsChecker(servers: readonly string[], timeoutMs = 2_000): DnsChecker {
  const resolver = new Resolver({ timeout: timeoutMs, tries: 2 });
  if (servers.length) resolver.setServers([...servers]);
  const safe = async <T>(f: () => Promise<T[]>): Promise<T[]> => {
    try {
      return await f();
    } catch {
      return [];
    }
  };
  const host = (s: string) => s.toLowerCase().replace(/\.$/, '');
  return {
    txt: (name) => safe(async () => (await resolver.resolveTxt(name)).map((chunks) => chunks.join(''))),
    a: (name) => safe(() => resolver.resolve4(name)),
    cname: (name) => safe(async () => (await resolver.resolveCname(name)).map(host)),
  };
}
