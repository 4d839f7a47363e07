import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { jpegBytes, pngBytes } from '../test/factories';
import { contentName, type ImageRef, resolveImages } from './season-images';

// The pictures of a season .zip: each is decoded and re-encoded, which costs a core's time, so a
// picture is decoded once per import, not again when an earlier import stored it, and a file's
// new pictures have a pixel allowance.

let uploads: string;
beforeEach(async () => {
  uploads = await mkdtemp(path.join(tmpdir(), 'hunch-season-images-'));
});
afterEach(() => rm(uploads, { recursive: true, force: true }));

const ref = (at: number, name: string, kind: ImageRef['kind'] = 'questions'): ImageRef => ({
  path: `series.0.games.0.questions.${at}.image`,
  ref: name,
  kind,
});
const stored = (kind: string) => readdir(path.join(uploads, kind)).catch(() => [] as string[]);

describe('a season’s pictures', () => {
  it('stores the same picture under two names once', async () => {
    const png = await pngBytes(40, 30);
    const files = new Map([
      ['a.png', png],
      ['b.png', png],
    ]);
    const images = await resolveImages([ref(0, 'a.png'), ref(1, 'b.png')], files, uploads);
    expect(images.problems).toEqual([]);
    expect(images.names.get('questions:a.png')).toBe(contentName(png));
    expect(images.names.get('questions:b.png')).toBe(contentName(png));
    await images.store();
    expect(await stored('questions')).toEqual([contentName(png)]);
  });

  it('takes a picture an earlier import stored as it is, without decoding it again', async () => {
    const jpeg = await jpegBytes(50, 50);
    const name = contentName(jpeg);
    await mkdir(path.join(uploads, 'games'), { recursive: true });
    // What the earlier import wrote (a stand-in: were the picture re-encoded, this would be replaced).
    await writeFile(path.join(uploads, 'games', name), 'stored earlier');
    const images = await resolveImages([ref(0, 'week.jpg', 'games')], new Map([['week.jpg', jpeg]]), uploads);
    expect([images.problems, images.names.get('games:week.jpg')]).toEqual([[], name]);
    await images.store();
    expect(await readFile(path.join(uploads, 'games', name), 'utf8')).toBe('stored earlier');
    // Another folder (another size) is another picture: decoded for it.
    const other = await resolveImages([ref(0, 'week.jpg')], new Map([['week.jpg', jpeg]]), uploads);
    await other.store();
    expect(await stored('questions')).toEqual([name]);
  });

  it('refuses the pictures past the allowance, each at its path, and stores none of them', async () => {
    const [a, b, c] = await Promise.all([pngBytes(32, 32), pngBytes(33, 33), pngBytes(34, 34)]);
    const files = new Map([
      ['a.png', a],
      ['b.png', b],
      ['c.png', c],
    ]);
    // 1,024 + 1,089 pixels fit in 3,000; the third picture's 1,156 do not.
    const images = await resolveImages(
      [ref(0, 'a.png'), ref(1, 'b.png'), ref(2, 'c.png'), ref(3, 'c.png')],
      files,
      uploads,
      { pixelsMax: 3_000 },
    );
    const message =
      "c.png: the file's new pictures come to more than 0.003 megapixels: import it in parts, or send smaller pictures";
    expect(images.problems).toEqual([
      { path: 'series.0.games.0.questions.2.image', message },
      { path: 'series.0.games.0.questions.3.image', message },
    ]);
    expect(images.names.has('questions:c.png')).toBe(false);
  });

  it('still says which picture is not one', async () => {
    const images = await resolveImages(
      [ref(0, 'fake.png')],
      new Map([['fake.png', Buffer.from('<svg/>')]]),
      uploads,
    );
    expect(images.problems).toEqual([
      {
        path: 'series.0.games.0.questions.0.image',
        message: 'fake.png: The image must be a JPEG or PNG picture',
      },
    ]);
  });
});
