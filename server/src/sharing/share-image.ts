import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { LRUCache } from 'lru-cache';
import sharp from 'sharp';
import { DEFAULT_IMAGE, imageDir } from '../platform/images';

/** Open Graph's preferred preview size. */
export const SHARE_WIDTH = 1200;
export const SHARE_HEIGHT = 630;

/** What a preview shows: the game's picture and a few lines of text. */
export interface SharePicture {
  /** The game's picture under uploads/games (its own, else its series'). */
  image: string;
  /** Small line at the top ('Daily Hunch · Hunch HQ'). */
  eyebrow: string;
  /** The game's name, in large type over up to two lines. */
  title: string;
  /** Lines under the title: a state, or a player's score and rank. */
  lines: string[];
  /** A large figure for a result ('1,234 points'), shown above the lines. */
  highlight?: string;
}

const escapeXml = (s: string) => s.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Breaks a text into at most `max` lines of about `width` characters; a cut text ends in '…'. */
export function wrap(text: string, width: number, max: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const next = line ? `${line} ${word}` : word;
    if (next.length <= width || !line) {
      line = next;
      continue;
    }
    lines.push(line);
    line = word;
  }
  if (line) lines.push(line);
  const cut = (l: string) => `${l.slice(0, width - 1).trimEnd()}…`;
  const kept = lines.slice(0, max).map((l) => (l.length > width ? cut(l) : l));
  if (lines.length > max && !kept[max - 1]!.endsWith('…')) kept[max - 1] = cut(`${kept[max - 1]} `);
  return kept;
}

const PICTURE = { width: 448, height: 252, left: 700, top: 189, radius: 28 };

/** The text layer: drawn over a blurred, darkened copy of the game's picture. */
function textLayer(p: SharePicture): string {
  const font = `font-family="DejaVu Sans, Arial, sans-serif"`;
  const title = wrap(p.title, 17, 2);
  let y = 150;
  const parts = [
    `<text x="64" y="96" ${font} font-size="30" font-weight="700" fill="#ffffff" fill-opacity="0.9" letter-spacing="4">HUNCH</text>`,
    `<text x="64" y="${y}" ${font} font-size="28" fill="#ffffff" fill-opacity="0.85">${escapeXml(wrap(p.eyebrow, 34, 1)[0] ?? '')}</text>`,
  ];
  for (const line of title) {
    y += 72;
    parts.push(
      `<text x="64" y="${y}" ${font} font-size="54" font-weight="700" fill="#ffffff">${escapeXml(line)}</text>`,
    );
  }
  if (p.highlight) {
    y += 84;
    parts.push(
      `<text x="64" y="${y}" ${font} font-size="56" font-weight="700" fill="#ffe27a">${escapeXml(p.highlight)}</text>`,
    );
  }
  y += 30;
  for (const line of p.lines.flatMap((l) => wrap(l, 30, 2)).slice(0, 3)) {
    y += 44;
    parts.push(
      `<text x="64" y="${y}" ${font} font-size="28" fill="#ffffff" fill-opacity="0.92">${escapeXml(line)}</text>`,
    );
  }
  const { width, height, left, top, radius } = PICTURE;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${SHARE_WIDTH}" height="${SHARE_HEIGHT}">
  <rect width="100%" height="100%" fill="black" fill-opacity="0.35"/>
  <rect x="${left - 8}" y="${top - 8}" width="${width + 16}" height="${height + 16}" rx="${radius + 6}" fill="white" fill-opacity="0.9"/>
  ${parts.join('\n  ')}
</svg>`;
}

const roundedMask = Buffer.from(
  `<svg xmlns="http://www.w3.org/2000/svg" width="${PICTURE.width}" height="${PICTURE.height}"><rect width="100%" height="100%" rx="${PICTURE.radius}" fill="white"/></svg>`,
);

async function render(p: SharePicture, uploadsDir: string): Promise<Buffer> {
  const name = path.basename(p.image) === p.image ? p.image : DEFAULT_IMAGE;
  const dir = imageDir(uploadsDir, 'games');
  const picture = await readFile(path.join(dir, name)).catch(() => readFile(path.join(dir, DEFAULT_IMAGE)));
  const background = await sharp(picture)
    .resize(SHARE_WIDTH / 4, Math.round(SHARE_HEIGHT / 4), { fit: 'cover' })
    .blur(6)
    .resize(SHARE_WIDTH, SHARE_HEIGHT)
    .toBuffer();
  const framed = await sharp(picture)
    .resize(PICTURE.width, PICTURE.height, { fit: 'cover' })
    .composite([{ input: roundedMask, blend: 'dest-in' }])
    .png()
    .toBuffer();
  return sharp(background)
    .composite([
      { input: Buffer.from(textLayer(p)), left: 0, top: 0 },
      { input: framed, left: PICTURE.left, top: PICTURE.top },
    ])
    .png({ compressionLevel: 9, palette: false })
    .toBuffer();
}

export interface RenderedPicture {
  png: Buffer;
  /** A strong validator: the hash of what was drawn. */
  etag: string;
}

/**
 * Previews by the hash of what they show (picture name, which is content-addressed, and texts):
 * the same preview asked again is answered from memory; a changed score or name is a new one.
 * Bounded by bytes, so a busy server keeps its most asked previews and no more.
 */
const cache = new LRUCache<string, RenderedPicture>({
  maxSize: 48 * 1024 * 1024,
  sizeCalculation: (r) => r.png.length,
});
/** Renders under way: a burst of requests for a new preview draws it once. */
const drawing = new Map<string, Promise<RenderedPicture>>();

/** `beforeDrawing` runs when the preview is not drawn yet (nor being drawn), and may refuse (throw). */
export async function sharePicture(
  p: SharePicture,
  uploadsDir: string,
  beforeDrawing: () => void,
): Promise<RenderedPicture> {
  const key = createHash('sha256')
    .update(JSON.stringify([uploadsDir, p]))
    .digest('base64url')
    .slice(0, 27);
  const done = cache.get(key);
  if (done) return done;
  let pending = drawing.get(key);
  if (!pending) {
    beforeDrawing();
    pending = render(p, uploadsDir)
      .then((png) => {
        const rendered = { png, etag: `"${key}"` };
        cache.set(key, rendered);
        return rendered;
      })
      .finally(() => drawing.delete(key));
    drawing.set(key, pending);
  }
  return pending;
}
