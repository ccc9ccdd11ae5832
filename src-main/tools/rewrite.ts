import { ConflictError } from '../common/errors';
import type { ForgeFS, WriteContext } from '../fs';
import { applyWrite, type WriteOptions, type WriteOutcome } from './write-pipeline';

/** The record changed between the read a new text was built from and the write lock. */
class ChangedMeanwhile extends Error {}

/**
 * Changes a record by building its new text from the current one (a reject, the tracker's close),
 * through the write pipeline. The text is rendered from a read taken before the write lock (the
 * pipeline plans and embeds outside it), so under the lock the record must still say exactly what
 * was read; if someone wrote it meanwhile (the PM moving a stop), the new text is built again from
 * the fresh one instead of overwriting their edit. `render` may throw to refuse (e.g. the record is
 * no longer in a state it applies to); it is called again on every fresh read.
 */
export async function rewriteRecord(
  fs: ForgeFS,
  path: string,
  render: (current: string) => string,
  writer: WriteContext,
  options: WriteOptions,
  attempts = 5,
): Promise<WriteOutcome> {
  for (let attempt = 1; ; attempt++) {
    const read = fs.readFile(path);
    const content = render(read);
    try {
      return await applyWrite(fs, path, content, writer, {
        ...options,
        precondition: (tx) => {
          options.precondition?.(tx);
          if (tx.readFile(path) !== read) throw new ChangedMeanwhile();
        },
      });
    } catch (e) {
      if (!(e instanceof ChangedMeanwhile)) throw e;
      if (attempt >= attempts) throw new ConflictError(`${path} kept changing while it was being written (${attempts} tries); nothing was written. Try again.`);
    }
  }
}
