// The Activity line of a call whose tool commits in transactions of its own (`transaction: 'own'`:
// import_site, migrate_site_from_url, generate_image, connect_domain). A 'one'-mode write's line is
// inserted in the call's transaction (`recordIn`); an 'own' tool's must commit with its change the
// same way, or a crash between the tool's commit and a later write of the line would leave a committed
// change without its line. So the call path hands the tool `commitLine(tx, data)`, which its
// committing transaction calls with the answer (or the part of it known there); the line goes through
// the same `recordIn`. When no transaction called it (a call that committed nothing), the line is
// written once the tool has answered.
import type { Db } from '../../db/client.js';
import type { ActivityLine, ActivityRecorder } from './recorder.js';

/** Writes the call's Activity line in `tx`, the transaction that commits the call's change. */
export type CommitLine = (tx: Db, data: unknown) => Promise<void>;

export function lineAtCommit(recorder: ActivityRecorder, line: (data: unknown) => ActivityLine) {
  let inCommit = false;
  return {
    commitLine: (async (tx, data) => {
      await recorder.recordIn(tx, line(data));
      inCommit = true;
    }) satisfies CommitLine,
    /** After the tool answered: the line, unless its committing transaction holds it already. */
    async settle(db: Db, data: unknown): Promise<void> {
      if (!inCommit) await recorder.recordIn(db, line(data));
    },
  };
}
