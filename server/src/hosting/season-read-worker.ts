import { parentPort } from 'node:worker_threads';
import { parseSeason } from '@hunch/contract';
import type { ReaderAnswer, ReaderRequest } from './season-reader';
import { readSeasonText, type SeasonText } from './season-text';

/**
 * The season reader's thread (decision 040): reads a document's text, checks its shape and keeps
 * what it read, to place the problems found later, until the import is done with it.
 */
const port = parentPort;
if (!port) throw new Error('season-read-worker runs as a worker thread');

const held = new Map<number, SeasonText>();

function answer(request: ReaderRequest): ReaderAnswer {
  switch (request.op) {
    case 'read': {
      const read = readSeasonText(request.text, request.format);
      if ('problems' in read) return { id: request.id, problems: read.problems };
      held.set(request.id, read);
      const { parts, problems } = parseSeason(read.value);
      return { id: request.id, value: read.value, parts, problems };
    }
    case 'locate': {
      const read = held.get(request.id);
      return { id: request.id, places: request.paths.map((path) => read?.locate(path) ?? null) };
    }
    case 'release':
      held.delete(request.id);
      return { id: request.id };
  }
}

port.on('message', (request: ReaderRequest) => {
  try {
    port.postMessage(answer(request));
  } catch (err) {
    port.postMessage({ id: request.id, error: err instanceof Error ? err.message : String(err) });
  }
});
