import { describe, expect, it } from 'vitest';
import { pngBytes } from '../test/factories';
import { HttpError } from './http/http-error';
import { reencodeUpload, UPLOADS_BUSY, UPLOADS_WAITING_MAX } from './images';

describe('uploads decoded in turn', () => {
  it('lets a few dozen wait, asks the rest to come back with a 429, then takes uploads again', async () => {
    const png = await pngBytes(1500, 1500);
    const sent = UPLOADS_WAITING_MAX + 8;
    const results = await Promise.allSettled(
      Array.from({ length: sent }, () => reencodeUpload(png, 'users')),
    );
    const done = results.filter((r) => r.status === 'fulfilled');
    const refused = results.flatMap((r) => (r.status === 'rejected' ? [r.reason] : []));
    // Every upload either re-encoded or refused as busy: none lost, none failed otherwise.
    expect(done.length + refused.length).toBe(sent);
    expect(done.length).toBeGreaterThanOrEqual(UPLOADS_WAITING_MAX);
    expect(refused.length).toBeGreaterThan(0);
    for (const err of refused) {
      expect(err).toBeInstanceOf(HttpError);
      expect([(err as HttpError).statusCode, (err as HttpError).message]).toEqual([429, UPLOADS_BUSY]);
    }
    // The line has emptied: the next upload is taken.
    const jpeg = await reencodeUpload(png, 'users');
    expect(jpeg.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
  });
});
