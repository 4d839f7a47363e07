import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

// V8 collects its young generation when it fills up, wherever the process is: at 10,000 players a
// scavenge of the 64 MB young generation (decision 010) holds the event loop 15–45 ms, and when it
// fell inside a question's broadcast every later slice waited for it. So in the quiet moment before
// each step the conductor makes room (decision 013). Only when room is short: every scavenge ages
// what is alive, and a scavenge before every step promoted enough for the old generation to start
// a full mark inside the next burst of answers.
//
// V8's `gc()` is taken from a context of its own, made while the flag is briefly on: the app's own
// global scope never gets a `gc` (as `--expose-gc` would give every module), and contexts made later
// (by `vm` in a dependency) do not either.

type Gc = (options: { type: 'minor' | 'major'; execution: 'sync' | 'async' }) => void;

// A process started with --expose-gc (the benchmark's server) already has one, and keeps the flag.
const gc =
  (globalThis as { gc?: Gc }).gc ??
  (() => {
    setFlagsFromString('--expose-gc');
    const fromItsOwnContext = runInNewContext('gc') as Gc;
    setFlagsFromString('--no-expose-gc');
    return fromItsOwnContext;
  })();

/** Room a broadcast to 10,000 players needs in the young generation, with a wide margin. */
export const BROADCAST_HEADROOM = 16 * 1024 * 1024;

/**
 * Scavenges the young generation now if less than `headroom` bytes of it are free (a few ms when
 * most of it is garbage). Whether it did. While V8 keeps the young generation smaller than
 * `headroom` (it shrinks it in quiet times), that is every time, and cheap.
 */
export function makeRoomInYoungGeneration(headroom = BROADCAST_HEADROOM): boolean {
  const young = getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
  if (young && young.space_available_size >= headroom) return false;
  gc({ type: 'minor', execution: 'sync' });
  return true;
}
