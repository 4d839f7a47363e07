// Node flags (and malloc settings) for the server process, in one place for `npm start` and the
// benchmark.
import { availableParallelism } from 'node:os';

/**
 * Young generation for 10,000 live players: each answer allocates ~10 KB on its way through `ws`,
 * engine.io, socket.io and the answer's storage, and with V8's default 16 MB semi-space a burst
 * of 10,000 answers in a second ran ~7 scavenges that promoted enough to start a full mark of the
 * ~150 MB heap in the middle of the burst (~300 ms of marking on the server's one core). See
 * docs/decisions/010.
 */
const SEMI_SPACE_MB = 64;

/**
 * With one CPU to run on, V8's helper threads for concurrent marking and parallel scavenges can
 * only take turns with the main thread, and a full GC of 10,000 players' heap then held the event
 * loop for up to ~550 ms (live benchmark). GC on the main thread alone keeps its steps short; with
 * more CPUs the helpers run beside it. See docs/decisions/010.
 * @param {number} cpus the CPUs the server may run on
 * @returns {string[]}
 */
export function serverNodeFlags(cpus = availableParallelism()) {
  const young = `--max-semi-space-size=${SEMI_SPACE_MB}`;
  return cpus <= 1 ? ['--single-threaded-gc', young] : [young];
}

/**
 * glibc's malloc serves an allocation of 128 KB or more with its own mmap, given back when freed,
 * but after such a block is freed it raises that threshold (up to 32 MB) and serves later ones
 * from its arenas, which keep freed pages resident. The server's large short-lived buffers (PGlite
 * starting in its worker thread, socket and file buffers) then stayed in its resident memory: an
 * idle server held ~580 MB instead of ~340 MB (docs/decisions/022). Setting the threshold fixes it.
 */
const MMAP_THRESHOLD = 128 * 1024;

/**
 * glibc gives each thread that allocates at once an arena of its own (up to 8 per core), and
 * each keeps its freed pages: the PGlite worker, libuv's pool (argon2, sharp, files) and V8's
 * helpers each left some resident in an idle server. Two arenas were ~20 MB less at idle
 * (docs/decisions/026); every large allocation goes to mmap anyway (above).
 */
const ARENA_MAX = 2;

/**
 * Environment variables the server process starts with, unless the operator set them already.
 * @param {NodeJS.ProcessEnv} env the environment it would otherwise get
 * @returns {Record<string, string>}
 */
export function serverEnv(env = process.env) {
  return {
    ...(env.MALLOC_MMAP_THRESHOLD_ ? {} : { MALLOC_MMAP_THRESHOLD_: String(MMAP_THRESHOLD) }),
    ...(env.MALLOC_ARENA_MAX ? {} : { MALLOC_ARENA_MAX: String(ARENA_MAX) }),
  };
}
