import { createHash, randomUUID } from 'node:crypto';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import pLimit from 'p-limit';
import sharp from 'sharp';
import { emojiPicture } from './emoji-picture';
import { HttpError } from './http/http-error';

// libvips keeps recent operations and their pixels (up to 50 MB) for re-use; every picture here is
// encoded once, so its cache only held memory while the server idled (decision 026).
sharp.cache(false);
// A picture's pixel work leaves a core to the requests: on two cores, decoding a 40-megapixel
// upload on both stalled every other answer of the server (decision 037).
sharp.concurrency(Math.max(1, availableParallelism() - 1));

/**
 * Uploads are decoded one at a time, in turn: each takes up to a second of a core and a thread of
 * libuv's pool, which the server's file reads share. Thirty sent at once by one player, or a season
 * file's pictures checked on every dry run, made stored pictures take seconds to serve. A few dozen
 * wait their turn (their bytes are held meanwhile); beyond that the sender is asked to come back.
 */
const uploadTurns = pLimit(1);
export const UPLOADS_WAITING_MAX = 32;
export const UPLOADS_BUSY = 'The server is busy with other pictures: try again in a moment';
/**
 * Uploads one sender (an account, or an address before sign-up) may have in the line at once: a
 * flood from one fills its own share, and others' pictures still find room.
 */
export const UPLOADS_PER_SENDER = 2;
export const UPLOADS_YOURS_BUSY = 'Your other pictures are still being processed: try again in a moment';
const inLine = new Map<string, number>();

/** Folders under DATA_DIR/uploads, served at /assets/{kind}/. */
export const imageKinds = ['users', 'communities', 'games', 'questions'] as const;
export type ImageKind = (typeof imageKinds)[number];

export const DEFAULT_IMAGE = '_.jpg';

/**
 * The picture of a player without a photo of their own: a generated avatar, served at
 * /assets/users/avatar-{key}.png (sharing/avatar.ts). The key comes from the account's id, so the
 * same player always has the same face, and it names no username.
 */
export function avatarName(userId: number): string {
  return `avatar-${createHash('sha256').update(`hunch avatar ${userId}`).digest('hex').slice(0, 16)}.png`;
}

/** A player's profile_img as the app shows it: their upload, else their generated avatar. */
export const userImageName = (userId: number, stored: string | null): string => stored ?? avatarName(userId);
// A decompression bomb (a tiny PNG that claims 50k x 50k pixels) is refused before decoding.
const MAX_INPUT_PIXELS = 40_000_000;
const SIZES: Record<ImageKind, { width: number; height: number }> = {
  users: { width: 256, height: 256 },
  communities: { width: 640, height: 360 },
  games: { width: 640, height: 360 },
  questions: { width: 640, height: 360 },
};

export const imageDir = (uploadsDir: string, kind: ImageKind) => path.join(uploadsDir, kind);

/** The size every picture of a folder is stored at (uploads are cropped to it). */
export const imageSize = (kind: ImageKind): { width: number; height: number } => SIZES[kind];

/** The pixels an upload declares in its header (decoding none), or 0 when it is no image. */
export async function declaredPixels(bytes: Buffer): Promise<number> {
  try {
    const meta = await sharp(bytes, { limitInputPixels: false }).metadata();
    return (meta.width ?? 0) * (meta.height ?? 0);
  } catch {
    return 0;
  }
}

/**
 * Checks an upload by its bytes (JPEG or PNG only, whatever its name or declared type says),
 * then re-encodes it as a fresh JPEG: resized, rotated upright, all metadata (EXIF, GPS) dropped.
 */
export function reencodeUpload(bytes: Buffer, kind: ImageKind, sender?: string): Promise<Buffer> {
  // Counted at the call, before any await: what is waiting is known exactly.
  const theirs = sender === undefined ? 0 : (inLine.get(sender) ?? 0);
  if (theirs >= UPLOADS_PER_SENDER) return Promise.reject(new HttpError(429, UPLOADS_YOURS_BUSY));
  if (uploadTurns.pendingCount >= UPLOADS_WAITING_MAX)
    return Promise.reject(new HttpError(429, UPLOADS_BUSY));
  if (sender === undefined) return uploadTurns(() => reencode(bytes, kind));
  inLine.set(sender, theirs + 1);
  return uploadTurns(() => reencode(bytes, kind)).finally(() => {
    const left = (inLine.get(sender) ?? 1) - 1;
    if (left > 0) inLine.set(sender, left);
    else inLine.delete(sender);
  });
}

async function reencode(bytes: Buffer, kind: ImageKind): Promise<Buffer> {
  const notAnImage = new HttpError(400, 'The image must be a JPEG or PNG picture');
  let format: string | undefined;
  try {
    // Reading the header decodes no pixels, so it is safe before the size check.
    const meta = await sharp(bytes, { limitInputPixels: false }).metadata();
    format = meta.format;
    if ((meta.width ?? 0) * (meta.height ?? 0) > MAX_INPUT_PIXELS) {
      throw new HttpError(400, 'The image has too many pixels (40 megapixels at most)');
    }
  } catch (err) {
    if (err instanceof HttpError) throw err;
    throw notAnImage;
  }
  if (format !== 'jpeg' && format !== 'png') throw notAnImage;
  const { width, height } = SIZES[kind];
  try {
    return await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' })
      .rotate()
      .resize(width, height, { fit: 'cover' })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 85, mozjpeg: true })
      .toBuffer();
  } catch {
    throw new HttpError(400, 'The image could not be read; it may be damaged');
  }
}

/** Writes atomically (temp file, then rename) so a crash never leaves half an image. */
export async function storeImage(
  uploadsDir: string,
  kind: ImageKind,
  jpeg: Buffer,
  name = `${randomUUID()}.jpg`,
) {
  const dir = imageDir(uploadsDir, kind);
  await mkdir(dir, { recursive: true });
  // A tmp name of its own: two requests may write the same (deterministic) image at once.
  const tmp = path.join(dir, `.${name}.${randomUUID()}.tmp`);
  await writeFile(tmp, jpeg);
  await rename(tmp, path.join(dir, name));
  return name;
}

export async function removeImage(uploadsDir: string, kind: ImageKind, name: string | null | undefined) {
  if (!name || name === DEFAULT_IMAGE || name.includes('/')) return;
  await rm(path.join(imageDir(uploadsDir, kind), name), { force: true });
}

/**
 * A generated picture for content without one: a Twemoji on a gradient in the hue; with a label
 * (a geo-group's city), a cityscape with the label written under it, else sparkles.
 */
export async function badgeImage(
  label: string,
  hue: number,
  kind: ImageKind,
  emoji = label ? '1f3d9' : '2728',
): Promise<Buffer> {
  const png = await emojiPicture({
    emoji,
    hue,
    style: kind === 'questions' ? 'question' : kind === 'communities' ? 'community' : 'game',
    ...SIZES[kind],
    ...(label && { caption: label }),
  });
  return sharp(png).jpeg({ quality: 85 }).toBuffer();
}

/** Makes sure every kind has its default `_.jpg`. */
export async function ensureDefaultImages(uploadsDir: string): Promise<void> {
  for (const kind of imageKinds) {
    const file = path.join(imageDir(uploadsDir, kind), DEFAULT_IMAGE);
    const exists = await stat(file).then(
      () => true,
      () => false,
    );
    if (exists) continue;
    const jpeg =
      kind === 'users'
        ? await sharp(
            Buffer.from(
              `<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256"><rect width="256" height="256" fill="#dfe4ea"/><circle cx="128" cy="100" r="48" fill="#a4b0be"/><ellipse cx="128" cy="230" rx="88" ry="70" fill="#a4b0be"/></svg>`,
            ),
          )
            .jpeg()
            .toBuffer()
        : await badgeImage('', 250, kind);
    await storeImage(uploadsDir, kind, jpeg, DEFAULT_IMAGE);
  }
}
