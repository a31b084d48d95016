// The mail sender (src/net/smtp.ts) draining a backlog: messages a second through one session (one
// connection for up to 100 messages) against one connection per message (the sender before sessions,
// and nodemailer's transport), alternating, to a local smtp-server over smtps:// with a sign-in, on its
// self-signed test certificate. Real relays are farther away, so their handshakes cost more than here.
import { smtpSender } from '../src/net/smtp.js';
import { startSmtp } from '../test/helpers/smtp.js';

const MESSAGES = Number(process.env.BENCH_MAIL_MESSAGES ?? 200);
const PAIRS = 3;

export async function bench(): Promise<void> {
  const login = { user: 'bench', pass: 'bench-pass' };
  const server = await startSmtp({ tls: 'implicit', login });
  const url = `${server.url.replace('//', `//${login.user}:${login.pass}@`)}?tls.rejectUnauthorized=false`;
  const text = 'A lead from the contact form.\n'.repeat(20);
  const drain = async (perConnection: number) => {
    const before = server.stats.connections;
    const smtp = smtpSender(url, {}, perConnection).session();
    const t0 = performance.now();
    try {
      for (let i = 0; i < MESSAGES; i++)
        await smtp.send({ from: 'mail@bench.test', to: `lead${i}@example.com`, subject: 'New lead', text });
    } finally {
      smtp.end();
    }
    const seconds = (performance.now() - t0) / 1000;
    return { perSecond: MESSAGES / seconds, connections: server.stats.connections - before };
  };
  try {
    await drain(100); // warm-up: TLS, JIT
    const rows: string[] = [];
    for (let pair = 1; pair <= PAIRS; pair++) {
      const single = await drain(1);
      const session = await drain(100);
      rows.push(
        `| ${pair} | ${single.perSecond.toFixed(0)} (${single.connections} connections) | ${session.perSecond.toFixed(0)} (${session.connections}) | ${(session.perSecond / single.perSecond).toFixed(2)}× |`,
      );
    }
    console.log(`${MESSAGES} messages per leg, smtps:// with a sign-in, local smtp-server`);
    console.log('| pair | one connection per message, msg/s | one session, msg/s | ratio |');
    console.log('|---|---|---|---|');
    for (const r of rows) console.log(r);
  } finally {
    await server.close();
  }
}
