import path from 'node:path';
import yauzl from 'yauzl';
import { HttpError } from '../platform/http/http-error';
import { SeasonRefusal } from './season-refusal';
import type { SeasonFormat } from './season-text';

/**
 * Limits on a .zip bundle, checked on the central directory before anything is inflated, and again
 * while inflating (yauzl refuses an entry whose data runs past its declared size).
 */
export const BUNDLE_LIMITS = {
  /** The upload itself. */
  maxBytes: 20 * 1024 * 1024,
  maxEntries: 200,
  /** One entry, inflated: the season file or one image before re-encoding. */
  maxEntryBytes: 5 * 1024 * 1024,
  /** Every entry together, inflated. */
  maxTotalBytes: 50 * 1024 * 1024,
  /** Inflated over compressed size: pictures hardly compress, a bomb compresses a thousandfold. */
  maxRatio: 100,
};
export type BundleLimits = typeof BUNDLE_LIMITS;

export interface Bundle {
  season: { name: string; text: string; format: SeasonFormat };
  /** Every other file, by its path relative to the season file's folder. */
  files: Map<string, Buffer>;
}

const SEASON_FILES: Record<string, SeasonFormat> = {
  'season.yaml': 'yaml',
  'season.yml': 'yaml',
  'season.json': 'json',
};

const refuse = (message: string) => new SeasonRefusal([{ path: '', message }]);

/** True when the bytes start like a zip archive (a local file header, or an empty archive). */
export function looksLikeZip(bytes: Buffer): boolean {
  return bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && (bytes[2] === 3 || bytes[2] === 5);
}

/** Skipped quietly: folders, and what archivers add (__MACOSX/, .DS_Store). */
const ignored = (name: string) =>
  name.endsWith('/') || name.startsWith('__MACOSX/') || path.posix.basename(name).startsWith('.');

/**
 * Reads a season bundle: `season.yaml` or `season.json` (at the top, or in the one folder that
 * holds everything) and the images it names. Too large is a 413; a broken or hostile archive, a 400
 * with the reason.
 */
export async function readBundle(bytes: Buffer, limits: BundleLimits = BUNDLE_LIMITS): Promise<Bundle> {
  if (bytes.length > limits.maxBytes)
    throw new HttpError(413, `The .zip is too large (${limits.maxBytes / 1024 / 1024} MB at most)`);
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.fromBufferPromise(bytes, { strictFileNames: true, validateEntrySizes: true });
  } catch (err) {
    throw refuse(`The .zip could not be read: ${(err as Error).message}`);
  }
  if (zip.entryCount > limits.maxEntries)
    throw refuse(`The .zip holds ${zip.entryCount} files; ${limits.maxEntries} at most`);
  const files = new Map<string, Buffer>();
  let total = 0;
  try {
    for await (const entry of zip.eachEntry()) {
      const name = entry.fileName;
      if (ignored(name)) continue;
      if (entry.isEncrypted()) throw refuse(`${name} is encrypted; send the bundle without a password`);
      if (!entry.canDecodeFileData()) throw refuse(`${name} uses a compression this server cannot read`);
      if (entry.uncompressedSize > limits.maxEntryBytes)
        throw new HttpError(413, `${name} is too large (${limits.maxEntryBytes / 1024 / 1024} MB at most)`);
      total += entry.uncompressedSize;
      if (total > limits.maxTotalBytes)
        throw new HttpError(
          413,
          `The files of the .zip are too large together (${limits.maxTotalBytes / 1024 / 1024} MB at most)`,
        );
      if (entry.uncompressedSize > 1024 && entry.uncompressedSize > limits.maxRatio * entry.compressedSize)
        throw refuse(`${name} is compressed suspiciously well (a zip bomb?); it was not unpacked`);
      files.set(name, await readEntry(zip, entry));
    }
  } catch (err) {
    if (err instanceof HttpError || err instanceof SeasonRefusal) throw err;
    throw refuse(`The .zip could not be read: ${(err as Error).message}`);
  }
  return pickSeason(files);
}

async function readEntry(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<Buffer> {
  const stream = await zip.openReadStreamPromise(entry);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    size += chunk.length;
    // validateEntrySizes stops it too; this keeps memory bounded whatever the entry claims.
    if (size > entry.uncompressedSize) {
      stream.destroy();
      throw new Error(`${entry.fileName} holds more than it declares`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

function pickSeason(all: Map<string, Buffer>): Bundle {
  const candidates = [...all.keys()].filter((name) => Object.hasOwn(SEASON_FILES, path.posix.basename(name)));
  const top = candidates.filter((name) => !name.includes('/'));
  const chosen = top.length > 0 ? top : candidates;
  if (chosen.length === 0) throw refuse('The .zip holds no season.yaml or season.json');
  if (chosen.length > 1) throw refuse(`The .zip holds several season files: ${chosen.join(', ')}`);
  const name = chosen[0]!;
  const base = path.posix.dirname(name) === '.' ? '' : `${path.posix.dirname(name)}/`;
  const files = new Map<string, Buffer>();
  for (const [file, data] of all) {
    if (file !== name && file.startsWith(base)) files.set(file.slice(base.length), data);
  }
  const text = all.get(name)!.toString('utf8');
  return { season: { name, text, format: SEASON_FILES[path.posix.basename(name)]! }, files };
}
