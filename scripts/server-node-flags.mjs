// Node flags for the server process, in one place for `npm start` and the benchmark.
import { availableParallelism } from 'node:os';

/**
 * With one CPU to run on, V8's helper threads for concurrent marking and parallel scavenges can
 * only take turns with the main thread, and a full GC of 10,000 players' heap then held the event
 * loop for up to ~550 ms (live benchmark). GC on the main thread alone keeps its steps short; with
 * more CPUs the helpers run beside it. See docs/decisions/010.
 * @param {number} cpus the CPUs the server may run on
 * @returns {string[]}
 */
export function serverNodeFlags(cpus = availableParallelism()) {
  return cpus <= 1 ? ['--single-threaded-gc'] : [];
}
