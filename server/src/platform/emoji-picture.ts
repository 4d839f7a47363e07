import { createHash, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';

/**
 * Pictures for the demo content, drawn from Twemoji (the @twemoji/svg package: graphics CC-BY 4.0
 * by Twitter and the jdecked contributors, credited in the README): one emoji on a background in a
 * community's colours, rendered by sharp to PNG at the size its folder keeps.
 */

const twemojiDir = path.dirname(createRequire(import.meta.url).resolve('@twemoji/svg/package.json'));

/** Where an emoji's SVG is: its code points in hex, joined by '-' (Twemoji's file names). */
export const emojiFile = (code: string) => path.join(twemojiDir, `${code}.svg`);

const svgCache = new Map<string, string>();
/** An emoji's SVG drawn into a box of the picture: its own viewBox (36×36) scaled to the box. */
function emojiAt(code: string, x: number, y: number, size: number, extra = ''): string {
  let svg = svgCache.get(code);
  if (svg === undefined) {
    svg = readFileSync(emojiFile(code), 'utf8');
    svgCache.set(code, svg);
  }
  return svg.replace('<svg ', `<svg x="${x}" y="${y}" width="${size}" height="${size}" ${extra} `);
}

/** How a picture is laid out: the folders differ a little, so a series does not look like its community. */
export type PictureStyle = 'community' | 'series' | 'game' | 'question';

export interface PictureSpec {
  /** Twemoji code points ('1f3ac'). */
  emoji: string;
  /** The colour family: a community's hue (0-359), the same on all of its pictures. */
  hue: number;
  style: PictureStyle;
  width: number;
  height: number;
  /** A name written under the emoji (a geo-group's city). */
  caption?: string;
}

const escapeXml = (s: string) => s.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The SVG of a picture: a gradient in the hue, soft shapes, the emoji large on a pale disc. */
export function pictureSvg({ emoji, hue, style, width: w, height: h, caption }: PictureSpec): string {
  const question = style === 'question';
  // Questions sit on a pale ground (their text is read beside them); the rest are deep and bold.
  const [from, to] = question
    ? [`hsl(${hue},70%,92%)`, `hsl(${(hue + 25) % 360},60%,80%)`]
    : [`hsl(${hue},68%,60%)`, `hsl(${(hue + 30) % 360},62%,36%)`];
  const angle = { community: ['0', '0', '1', '1'], series: ['1', '0', '0', '1'], game: ['0', '1', '1', '0'] }[
    question ? 'community' : style
  ];
  const size = Math.round(h * (caption ? 0.44 : style === 'community' ? 0.62 : 0.56));
  const cx = style === 'game' ? w * 0.6 : w / 2;
  const cy = caption ? h * 0.4 : h / 2;
  const label = caption
    ? `<text x="${w / 2}" y="${h * 0.86}" text-anchor="middle" font-family="DejaVu Sans, Arial, sans-serif" font-weight="700" font-size="${Math.round(h * 0.11)}" fill="white">${escapeXml(caption.length > 26 ? `${caption.slice(0, 25)}…` : caption)}</text>`
    : '';
  const plateOpacity = question ? 0.55 : 0.2;
  // A faint, larger copy of the emoji in a corner gives the picture depth without a second motif.
  const echo = emojiAt(
    emoji,
    style === 'game' ? -h * 0.12 : w - h * 0.62,
    h * 0.38,
    Math.round(h * 0.75),
    'opacity="0.14"',
  );
  const shapes =
    style === 'series'
      ? `<rect x="${cx - size * 0.78}" y="${cy - size * 0.78}" width="${size * 1.56}" height="${size * 1.56}" rx="${size * 0.3}" fill="white" fill-opacity="${plateOpacity}"/>`
      : `<circle cx="${cx}" cy="${cy}" r="${size * 0.78}" fill="white" fill-opacity="${plateOpacity}"/>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">
  <defs>
    <linearGradient id="bg" x1="${angle![0]}" y1="${angle![1]}" x2="${angle![2]}" y2="${angle![3]}">
      <stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/>
    </linearGradient>
    <filter id="shadow" x="-20%" y="-20%" width="140%" height="140%">
      <feDropShadow dx="0" dy="${h * 0.015}" stdDeviation="${h * 0.02}" flood-color="black" flood-opacity="0.25"/>
    </filter>
  </defs>
  <rect width="${w}" height="${h}" fill="url(#bg)"/>
  <circle cx="${w * 0.12}" cy="${h * 0.1}" r="${h * 0.3}" fill="white" fill-opacity="0.08"/>
  <circle cx="${w * 0.95}" cy="${h * 0.05}" r="${h * 0.18}" fill="white" fill-opacity="0.1"/>
  ${echo}
  ${shapes}
  <g filter="url(#shadow)">${emojiAt(emoji, cx - size / 2, cy - size / 2, size)}</g>
  ${label}
</svg>`;
}

// Rendered pictures are kept on disk by the hash of what they draw, so the seed (which runs at
// every first start and in many tests) renders each picture once per machine, not once per run.
const CACHE_DIR = path.join(tmpdir(), 'hunch-picture-cache');
const RENDER_VERSION = 1;

async function render(svg: string): Promise<Buffer> {
  const key = createHash('sha256').update(`${RENDER_VERSION}\n${svg}`).digest('hex');
  const file = path.join(CACHE_DIR, `${key}.png`);
  try {
    return await readFile(file);
  } catch {
    // Not rendered on this machine yet.
  }
  // Fast compression: the import re-encodes every picture anyway.
  const png = await sharp(Buffer.from(svg)).png({ compressionLevel: 2 }).toBuffer();
  try {
    await mkdir(CACHE_DIR, { recursive: true });
    // A name of its own first: two processes may render the same picture at once.
    const tmp = `${file}.${randomUUID()}.tmp`;
    await writeFile(tmp, png);
    await rename(tmp, file);
  } catch {
    // A cache that cannot be written only costs the next run a render.
  }
  return png;
}

/** The picture as PNG bytes: from the cache when this machine drew it before. */
export function emojiPicture(spec: PictureSpec): Promise<Buffer> {
  return render(pictureSvg(spec));
}
