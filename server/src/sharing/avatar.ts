import { createAvatar } from '@dicebear/core';
import * as style from '@dicebear/thumbs';
import { LRUCache } from 'lru-cache';
import sharp from 'sharp';

/** The size avatars are drawn at: that of an uploaded profile picture. */
const SIZE = 256;

/**
 * A player's generated avatar (DiceBear's 'Thumbs' style, CC0), as PNG: the same key always
 * draws the same face. Kept in memory by key, bounded by bytes (each is a few kilobytes).
 */
const cache = new LRUCache<string, Buffer>({ maxSize: 16 * 1024 * 1024, sizeCalculation: (b) => b.length });

/** `beforeDrawing` runs when the face is not drawn yet, and may refuse (throw). */
export async function avatarPng(key: string, beforeDrawing: () => void): Promise<Buffer> {
  const kept = cache.get(key);
  if (kept) return kept;
  beforeDrawing();
  const svg = createAvatar(style, { seed: key, size: SIZE }).toString();
  const png = await sharp(Buffer.from(svg)).png({ compressionLevel: 9 }).toBuffer();
  cache.set(key, png);
  return png;
}
