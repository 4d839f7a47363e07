import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

// V8 collects its young generation when it fills up, wherever the process is: at 10,000 players a
// scavenge of the 64 MB young generation (decision 010) holds the event loop 15–45 ms, and when it
// fell inside a question's broadcast every later slice waited for it. The conductor collects it in
// the quiet moment before each step instead (decision 013), so a broadcast starts with it empty.
//
// V8's `gc()` is taken from a context of its own, made while the flag is briefly on: the app's own
// global scope never gets a `gc` (as `--expose-gc` would give every module), and contexts made later
// (by `vm` in a dependency) do not either.

type Gc = (options: { type: 'minor' | 'major'; execution: 'sync' | 'async' }) => void;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as Gc;
setFlagsFromString('--no-expose-gc');

/** A scavenge of the young generation, now (a few ms when most of it is garbage). */
export function collectYoungGeneration(): void {
  gc({ type: 'minor', execution: 'sync' });
}
