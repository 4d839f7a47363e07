import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { pngBytes } from '../test/factories';
import { HttpError } from './http/http-error';
import {
  reencodeUpload,
  UPLOADS_BUSY,
  UPLOADS_PER_SENDER,
  UPLOADS_WAITING_MAX,
  UPLOADS_YOURS_BUSY,
} from './images';

/** The statuses and texts of settled uploads that were refused. */
const refusals = (results: PromiseSettledResult<Buffer>[]) =>
  results.flatMap((r) =>
    r.status === 'rejected' ? [[(r.reason as HttpError).statusCode, (r.reason as HttpError).message]] : [],
  );

describe('uploads decoded in turn', () => {
  it('decodes one at a time, lets a few dozen wait, asks the rest to come back with a 429', async () => {
    const png = await pngBytes(1500, 1500);
    const sent = UPLOADS_WAITING_MAX + 8;
    // libvips's own count of the tasks it is working on, sampled while the uploads run.
    let most = 0;
    const sampling = setInterval(() => {
      most = Math.max(most, sharp.counters().process);
    }, 1);
    const results = await Promise.allSettled(
      Array.from({ length: sent }, () => reencodeUpload(png, 'users')),
    );
    clearInterval(sampling);
    expect(most).toBe(1);
    const done = results.filter((r) => r.status === 'fulfilled');
    const refused = refusals(results);
    // Every upload either re-encoded or refused as busy: none lost, none failed otherwise.
    expect(done.length + refused.length).toBe(sent);
    expect(done.length).toBeGreaterThanOrEqual(UPLOADS_WAITING_MAX);
    expect(refused.length).toBeGreaterThan(0);
    for (const r of refused) expect(r).toEqual([429, UPLOADS_BUSY]);
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(HttpError);
    // The line has emptied: the next upload is taken.
    const jpeg = await reencodeUpload(png, 'users');
    expect(jpeg.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
  });

  it('gives each sender a share of the line: a flood refuses its own sender, not the next one', async () => {
    const png = await pngBytes(1200, 1200);
    const flood = Array.from({ length: UPLOADS_PER_SENDER + 3 }, () =>
      reencodeUpload(png, 'users', 'account:1'),
    );
    const other = reencodeUpload(png, 'users', 'account:2');
    const flooded = await Promise.allSettled(flood);
    expect(flooded.filter((r) => r.status === 'fulfilled')).toHaveLength(UPLOADS_PER_SENDER);
    expect(refusals(flooded)).toEqual(Array(3).fill([429, UPLOADS_YOURS_BUSY]));
    expect((await other).subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    // Its share is back once its pictures are done.
    await expect(reencodeUpload(png, 'users', 'account:1')).resolves.toBeInstanceOf(Buffer);
  });
});
