import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { SeasonParts, SeasonProblem } from '@hunch/contract';
import { HttpError } from '../platform/http/http-error';
import { type ImageKind, imageDir, reencodeUpload, storeImage } from '../platform/images';

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
  add(['community', 'image'], parts.community?.image, 'communities');
  for (const { index: si, fields, games } of parts.series) {
    add(['series', si, 'image'], fields?.image, 'games');
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
 * Resolves each image a season names: a file of the bundle, checked by its bytes and re-encoded
 * like a profile image, named after its content (the same file imported twice is the same image);
 * otherwise the name of an image already uploaded to that folder.
 */
export async function resolveImages(
  refs: ImageRef[],
  files: Map<string, Buffer> | undefined,
  uploadsDir: string,
): Promise<ResolvedImages> {
  const names = new Map<string, string>();
  const problems: SeasonProblem[] = [];
  const pending = new Map<string, { kind: ImageKind; name: string; jpeg: Buffer }>();
  const failed = new Map<string, string>();
  for (const { path: at, ref, kind } of refs) {
    const key = imageKey(kind, ref);
    if (names.has(key)) continue;
    if (failed.has(key)) {
      problems.push({ path: at, message: failed.get(key)! });
      continue;
    }
    const bytes = files?.get(ref.replace(/^\.\//, ''));
    if (bytes) {
      try {
        const jpeg = await reencodeUpload(bytes, kind);
        const name = contentName(bytes);
        names.set(key, name);
        pending.set(key, { kind, name, jpeg });
      } catch (err) {
        const message = `${ref}: ${err instanceof HttpError ? err.message : 'the image could not be read'}`;
        failed.set(key, message);
        problems.push({ path: at, message });
      }
      continue;
    }
    if (UPLOADED_NAME.test(ref) && (await exists(path.join(imageDir(uploadsDir, kind), ref)))) {
      names.set(key, ref);
      continue;
    }
    const message = files
      ? `No file ${ref} in the .zip, and no uploaded image of that name`
      : `No uploaded image named ${ref}: send a .zip with the image, or give an uploaded image's name`;
    failed.set(key, message);
    problems.push({ path: at, message });
  }
  return {
    names,
    problems,
    async store() {
      for (const { kind, name, jpeg } of pending.values()) await storeImage(uploadsDir, kind, jpeg, name);
    },
  };
}
