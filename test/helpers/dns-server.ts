// A real DNS server on 127.0.0.1 (dns2, UDP, a free port) answering from an in-memory zone that
// tests edit while it runs. Names not in the zone get an empty answer (the resolver sees ENODATA).
import dns2 from 'dns2';

const { Packet } = dns2;

export type Zone = Map<string, { A?: string[]; CNAME?: string[]; TXT?: string[] }>;
export type TestDns = { zone: Zone; server: string; queries: number; close(): Promise<void> };

export async function startTestDns(): Promise<TestDns> {
  const zone: Zone = new Map();
  const state = { queries: 0 };
  const server = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      state.queries++;
      const response = Packet.createResponseFromRequest(request);
      const [q] = request.questions;
      const name = (q?.name ?? '').toLowerCase();
      const rec = zone.get(name);
      const add = (r: Record<string, unknown>) =>
        response.answers.push(
          Packet.createResourceFromQuestion(q!, { class: Packet.CLASS.IN, ttl: 1, ...r }),
        );
      if (rec && q?.type === Packet.TYPE.A) for (const address of rec.A ?? []) add({ address });
      if (rec && q?.type === Packet.TYPE.CNAME) for (const domain of rec.CNAME ?? []) add({ domain });
      if (rec && q?.type === Packet.TYPE.TXT) for (const data of rec.TXT ?? []) add({ data });
      send(response);
    },
  });
  const addresses = await server.listen({ udp: { port: 0, address: '127.0.0.1' } });
  const port = (addresses.udp as { port: number }).port;
  return {
    zone,
    server: `127.0.0.1:${port}`,
    get queries() {
      return state.queries;
    },
    close: async () => {
      await server.close();
    },
  };
}
