// The embedded database on disk, durable across a power cut (not only a killed process).
//
// PGlite starts PostgreSQL with `-F` (fsync off), and its Node file system cannot sync anyway: the
// WebAssembly's fdatasync is a no-op and its fsync calls a file operation Emscripten's NODEFS does not
// have. A commit's WAL reached the kernel's page cache, which survives `kill -9` but not a power cut or
// a crashed machine; with no sync at checkpoints either, such a cut could also leave the data folder
// inconsistent (PostgreSQL's own warning about fsync=off).
//
// Here NODEFS gets that file operation (a real fsync of the file's descriptor), set before PostgreSQL
// starts, and PostgreSQL runs with fsync=on and wal_sync_method=fsync, the method that reaches it
// (PGLITE_START_PARAMS, src/db/client.ts): each commit syncs its WAL before it returns, checkpoints
// sync the data files, and a start after a crash syncs the folder, as PostgreSQL does. A failed sync
// reaches PostgreSQL as an I/O error, never as a success. `createPglite` (src/db/client.ts), which the
// server and `sitegate restore` both use, is the one place PGlite is put on a folder through it.
import { fsyncSync } from 'node:fs';
import { NodeFS } from '@electric-sql/pglite/nodefs';

type NodeFsOps = {
  stream_ops: { fsync?: (stream: { nfd: number }) => number };
  tryFSOperation<T>(op: () => T): T;
};

/** PGlite's Node file system on `dir`, with the fsync its Emscripten layer lacks. */
export class SyncingNodeFS extends NodeFS {
  override async init(...args: Parameters<NodeFS['init']>) {
    const result = await super.init(...args);
    const { emscriptenOpts } = result;
    emscriptenOpts.preRun = [
      ...(emscriptenOpts.preRun ?? []),
      (mod) => {
        const nodefs = mod.NODEFS as unknown as NodeFsOps;
        // tryFSOperation turns Node's error into the errno PostgreSQL sees (EIO and the like).
        nodefs.stream_ops.fsync = (stream) => {
          nodefs.tryFSOperation(() => fsyncSync(stream.nfd));
          return 0;
        };
      },
    ];
    return result;
  }
}
