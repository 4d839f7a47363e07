import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { SeasonGameInput } from '@hunch/contract';
import { emojiPicture, type PictureStyle } from '../platform/emoji-picture';
import { type ImageKind, imageDir, imageSize, reencodeUpload, storeImage } from '../platform/images';
import { questionEmoji, themeHue } from './demo-pictures';

/** The live games' pictures, one per slot in turn: lively emoji, none another demo picture uses. */
export const liveEmoji = ['1f680', '1f525', '23f0', '1f3b0', '1f3a1', '1f4a5', '1f31f', '1f3c3'];

/** Hunch HQ's colours, as its other pictures have them. */
const HQ_HUE = 265;

/**
 * A picture stored under a fixed name, drawn and re-encoded (as an upload is) only when the data
 * folder does not hold it yet: the live demo names it in every game it imports.
 */
async function stored(uploadsDir: string, kind: ImageKind, name: string, emoji: string, hue: number) {
  const file = path.join(imageDir(uploadsDir, kind), name);
  const there = await stat(file).then(
    () => true,
    () => false,
  );
  if (!there) {
    const style: PictureStyle = kind === 'questions' ? 'question' : 'game';
    const png = await emojiPicture({ emoji, hue, style, ...imageSize(kind) });
    await storeImage(uploadsDir, kind, await reencodeUpload(png, kind), name);
  }
  return name;
}

/**
 * A live game with pictures: its own (by slot) and its questions' (those of the theme's set). A
 * picture that cannot be drawn leaves the game as it was: a live game is never held up by one.
 */
export async function withLivePictures(
  uploadsDir: string,
  slot: number,
  theme: string,
  game: SeasonGameInput,
): Promise<SeasonGameInput> {
  try {
    const emoji = liveEmoji[slot % liveEmoji.length]!;
    const image = await stored(uploadsDir, 'games', `live-${emoji}.jpg`, emoji, HQ_HUE);
    const hue = themeHue[theme] ?? HQ_HUE;
    const questions = await Promise.all(
      game.questions.map(async (q, i) => {
        const code = questionEmoji[theme]?.[i];
        if (!code) return q;
        return {
          ...q,
          image: await stored(uploadsDir, 'questions', `live-${theme}-${i + 1}.jpg`, code, hue),
        };
      }),
    );
    return { ...game, image, questions };
  } catch {
    return game;
  }
}
