import { Worker } from 'node:worker_threads';
import type { SeasonParts, SeasonProblem } from '@hunch/contract';
import type { SeasonFormat } from './season-text';

/**
 * Season documents are read in a thread of their own (decision 040): a 2 MB file took the main
 * thread 2-5 s to parse, check and place its problems, and every player's call and live answer
 * waited behind it. Here the main thread only sends the text and receives the result.
 */

export type ReaderRequest =
  | { op: 'read'; id: number; text: string; format: SeasonFormat }
  | { op: 'locate'; id: number; paths: string[] }
  | { op: 'release'; id: number };

export type ReaderAnswer =
  | { id: number; problems: SeasonProblem[] }
  | { id: number; value: unknown; parts: SeasonParts; problems: SeasonProblem[] }
  | { id: number; places: ({ line: number; column: number } | null)[] }
  | { id: number; error: string }
  | { id: number };

/** A document read whole: its value, what of it parses, its shape's problems. */
export interface SeasonReading {
  value: unknown;
  parts: SeasonParts;
  problems: SeasonProblem[];
  /** The problems, each with the line and column of its path in the text where it has none yet. */
  placed(problems: SeasonProblem[]): Promise<SeasonProblem[]>;
  /** The thread lets go of the document. */
  release(): void;
}

/** The thread stops after this long without a document: an idle server holds no second heap. */
const IDLE_MS = 30_000;
/** A document's parse holds some tens of MB; a file built to hold more is refused, not the server. */
const WORKER_HEAP_MB = 512;

const workerUrl = import.meta.url.endsWith('.ts')
  ? new URL('./season-read-worker-tsx.mjs', import.meta.url)
  : // Bundled (`npm start`): server/dist/main.mjs beside server/dist/season-read-worker.mjs.
    new URL('./season-read-worker.mjs', import.meta.url);

const UNREADABLE = 'The document could not be read: it needs more memory than a season file may take';

let worker: Worker | undefined;
let nextId = 1;
const waiting = new Map<number, { resolve: (a: ReaderAnswer) => void; reject: (e: Error) => void }>();
const holding = new Set<number>();
let idleTimer: NodeJS.Timeout | undefined;

function startWorker(): Worker {
  const started = new Worker(workerUrl, { resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } });
  started.on('message', (answer: ReaderAnswer) => {
    const waiter = waiting.get(answer.id);
    waiting.delete(answer.id);
    waiter?.resolve(answer);
  });
  const fail = (err: Error) => {
    if (worker !== started) return;
    worker = undefined;
    holding.clear();
    for (const waiter of waiting.values()) waiter.reject(err);
    waiting.clear();
  };
  started.on('error', fail);
  started.on('exit', () => fail(new Error('The season reader stopped')));
  return started;
}

function stopWhenIdle(): void {
  clearTimeout(idleTimer);
  // Held only while it owes an answer: a command that imports a file ends when it is done.
  if (waiting.size === 0) worker?.unref();
  if (waiting.size > 0 || holding.size > 0) return;
  idleTimer = setTimeout(() => {
    const idle = worker;
    worker = undefined;
    void idle?.terminate();
  }, IDLE_MS);
  idleTimer.unref();
}

function ask(request: ReaderRequest): Promise<ReaderAnswer> {
  clearTimeout(idleTimer);
  worker ??= startWorker();
  const sent = worker;
  sent.ref();
  return new Promise<ReaderAnswer>((resolve, reject) => {
    waiting.set(request.id, { resolve, reject });
    sent.postMessage(request);
  }).finally(stopWhenIdle);
}

/** Reads a season document's text in the reader's thread: its syntax errors, or the reading. */
export async function readSeason(
  text: string,
  format: SeasonFormat,
): Promise<SeasonReading | { problems: SeasonProblem[] }> {
  const id = nextId++;
  let answer: ReaderAnswer;
  try {
    answer = await ask({ op: 'read', id, text, format });
  } catch (err) {
    // The thread ran out of its heap reading this document: the file's doing, not the server's.
    if ((err as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY')
      return { problems: [{ path: '', message: UNREADABLE }] };
    throw err;
  }
  if ('error' in answer) throw new Error(`The season reader failed: ${answer.error}`);
  if (!('problems' in answer)) throw new Error('The season reader answered a read without a result');
  if (!('parts' in answer)) return { problems: answer.problems };
  holding.add(id);
  const { value, parts, problems } = answer;
  return {
    value,
    parts,
    problems,
    async placed(found) {
      const unplaced = found.filter((p) => p.line === undefined);
      if (unplaced.length === 0 || !holding.has(id)) return found;
      const located = await ask({ op: 'locate', id, paths: unplaced.map((p) => p.path) }).catch(() => null);
      if (!located || !('places' in located)) return found;
      const places = new Map(unplaced.map((p, k) => [p, located.places[k]]));
      return found.map((p) => {
        const place = places.get(p);
        return place ? { ...p, ...place } : p;
      });
    },
    release() {
      if (!holding.delete(id)) return;
      void ask({ op: 'release', id }).catch(() => undefined);
    },
  };
}
