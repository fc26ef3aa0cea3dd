// A window writing a shared store, as a real process of its own (forked by the
// unit and integration tests): the store code as built, the store lock included.
//   storeWriter <index|touches|archive> <file> <name> <rounds>
//     waits for 'go' on its IPC channel, then each round a fresh store (a window
//     that opens, writes one entry and closes) adds `<name>-<round>` and writes;
//     sends {done, log} when all are written.
//   storeWriter hold <file>
//     takes the store lock of <file>, sends 'held' and keeps it (until killed).
import * as lockfile from 'proper-lockfile';
import { STORE_LOCK } from '../../src/node/storeLock';
import { FileTouches } from '../../src/sessions/checkpoints/fileTouches';
import { SessionIndex } from '../../src/sessions/store/sessionIndex';
import { TranscriptArchive } from '../../src/sessions/store/transcriptArchive';

const [mode, file, name, roundsArg] = process.argv.slice(2) as [string, string, string, string];
const send = (m: unknown) => process.send?.(m);

async function write(): Promise<void> {
  const log: string[] = [];
  const rounds = Number(roundsArg);
  for (let i = 0; i < rounds; i++) {
    if (mode === 'index') {
      const index = new SessionIndex(file, { log: (m) => log.push(m) });
      index.touch('race', `${name}-${i}`, '/w');
      await index.flush();
    } else if (mode === 'archive') {
      // `file` is the archive folder; every window appends to the same session's archive.
      const archive = new TranscriptArchive(file, () => 64 * 1024 * 1024, (e) => log.push(String(e)));
      archive.append('race', 'shared', { sessionUpdate: '_race', n: `${name}-${i}` });
      await archive.flush();
    } else {
      const touches = new FileTouches(file, (m) => log.push(m));
      touches.record({ agentId: 'race', sessionId: name, turnId: `${name}-${i}`, text: '', at: i, files: ['/w/f.txt'] });
      await touches.flush();
    }
  }
  send({ done: rounds, log });
}

if (mode === 'hold') {
  void lockfile.lock(file, { realpath: false, stale: STORE_LOCK.staleMs }).then(() => send('held'));
  setInterval(() => undefined, 1000);
} else {
  process.on('message', (m) => {
    if (m === 'go') void write().then(() => process.disconnect());
  });
  send('ready');
}
