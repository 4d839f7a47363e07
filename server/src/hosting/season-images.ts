import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { SeasonParts, SeasonProblem } from '@hunch/contract';
import { HttpError } from '../platform/http/http-error';
import { declaredPixels, type ImageKind, imageDir, reencodeUpload, storeImage } from '../platform/images';

/** Where a season names an image, and which folder (and size) the image goes to. */
export interface ImageRef {
  path: string;
  ref: string;
  kind: ImageKind;
}

/** Every image the parts of a season that parse name, with its path in the document. */
export function imageRefs(parts: SeasonParts): ImageRef[] {
  const refs: ImageRef[] = [];
  const add = (p: (string | number)[], ref: string | undefined, kind: ImageKind) => {
    if (ref !== undefined) refs.push({ path: p.join('.'), ref, kind });
  };
  add(['community', 'image'], parts.community?.image ?? undefined, 'communities');
  for (const { index: si, fields, games } of parts.series) {
    add(['series', si, 'image'], fields?.image ?? undefined, 'games');
    for (const { index: gi, game } of games) {
      const g = ['series', si, 'games', gi];
      add([...g, 'image'], game.image, 'games');
      for (const [qi, q] of game.questions.entries()) {
        add([...g, 'questions', qi, 'image'], q.image, 'questions');
        if (q.kind === 'predict') continue;
        for (const [ci, c] of q.choices.entries()) {
          if (typeof c !== 'string')
            add([...g, 'questions', qi, 'choices', ci, 'image'], c.image, 'questions');
        }
      }
    }
  }
  return refs;
}

/** An uploaded image's name: one plain file name, never a path out of its folder. */
const UPLOADED_NAME = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,199}$/;

const exists = (file: string) =>
  stat(file).then(
    (s) => s.isFile(),
    () => false,
  );

/** What images resolve to: the stored name for each reference, and the files still to write. */
export interface ResolvedImages {
  /** `${kind}:${ref}` -> the image's name under uploads/{kind}/. */
  names: Map<string, string>;
  problems: SeasonProblem[];
  /** Writes the bundle's re-encoded images (content-addressed, so writing twice is harmless). */
  store(): Promise<void>;
}

export const imageKey = (kind: ImageKind, ref: string) => `${kind}:${ref}`;

/** An image's stored name, from the hash of the bytes sent: the same picture twice is one file. */
export const contentName = (bytes: Buffer) =>
  `s-${createHash('sha256').update(bytes).digest('hex').slice(0, 32)}.jpg`;

/**
 * The pixels a file's new pictures may come to: each is decoded and re-encoded (a 40-megapixel
 * picture takes half a second of a core), dry runs included, and a .zip of 20 MB holds a hundred
 * such pictures. 400 megapixels is ten of the largest, or hundreds of photos.
 */
export const SEASON_IMAGE_PIXELS_MAX = 400_000_000;

/**
 * Resolves each image a season names: a file of the bundle, checked by its bytes and re-encoded
 * like a profile image, named after its content (the same file imported twice is the same image,
 * and one already stored from an earlier import is not decoded again); otherwise the name of an
 * image already uploaded to that folder.
 */
export async function resolveImages(
  refs: ImageRef[],
  files: Map<string, Buffer> | undefined,
  uploadsDir: string,
  {
    pixelsMax = SEASON_IMAGE_PIXELS_MAX,
    sender,
  }: {
    pixelsMax?: number;
    /** Whose pictures these are, for their share of the decoding line (reencodeUpload). */
    sender?: string;
  } = {},
): Promise<ResolvedImages> {
  const names = new Map<string, string>();
  const problems: SeasonProblem[] = [];
  /** Re-encoded pictures by `${kind}:${content name}`: the same bytes under two names is one. */
  const pending = new Map<string, { kind: ImageKind; name: string; jpeg: Buffer }>();
  const failed = new Map<string, string>();
  let pixels = 0;
  const fail = (at: string, key: string, message: string) => {
    failed.set(key, message);
    problems.push({ path: at, message });
  };
  for (const { path: at, ref, kind } of refs) {
    const key = imageKey(kind, ref);
    if (names.has(key)) continue;
    if (failed.has(key)) {
      problems.push({ path: at, message: failed.get(key)! });
      continue;
    }
    const bytes = files?.get(ref.replace(/^\.\//, ''));
    if (bytes) {
      const name = contentName(bytes);
      const stored = imageKey(kind, name);
      if (pending.has(stored) || (await exists(path.join(imageDir(uploadsDir, kind), name)))) {
        names.set(key, name);
        continue;
      }
      pixels += await declaredPixels(bytes);
      if (pixels > pixelsMax) {
        fail(
          at,
          key,
          `${ref}: the file's new pictures come to more than ${pixelsMax / 1_000_000} megapixels: import it in parts, or send smaller pictures`,
        );
        continue;
      }
      try {
        const jpeg = await reencodeUpload(bytes, kind, sender);
        names.set(key, name);
        pending.set(stored, { kind, name, jpeg });
      } catch (err) {
        // The server is busy, not the picture wrong: the whole file is asked again later.
        if (err instanceof HttpError && err.statusCode === 429) throw err;
        fail(at, key, `${ref}: ${err instanceof HttpError ? err.message : 'the image could not be read'}`);
      }
      continue;
    }
    if (UPLOADED_NAME.test(ref) && (await exists(path.join(imageDir(uploadsDir, kind), ref)))) {
      names.set(key, ref);
      continue;
    }
    fail(
      at,
      key,
      files
        ? `No file ${ref} in the .zip, and no uploaded image of that name`
        : `No uploaded image named ${ref}: send a .zip with the image, or give an uploaded image's name`,
    );
  }
  return {
    names,
    problems,
    async store() {
      for (const { kind, name, jpeg } of pending.values()) await storeImage(uploadsDir, kind, jpeg, name);
    },
  };
}
