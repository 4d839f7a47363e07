import { normalizeIP } from '@fastify/rate-limit';
import { LRUCache } from 'lru-cache';
import { HttpError } from '../platform/http/http-error';
import { tryAgainIn } from '../platform/http/rate-limits';

const MINUTE_MS = 60_000;

/**
 * New pictures drawn per address and minute (LIMIT_PICTURES_PER_MINUTE). Only drawing counts: a
 * picture already drawn is answered from memory however often it is asked for (a venue's players
 * behind one address load the same avatars), while a new key per request (a face drawn in 10 ms,
 * a preview in 70) would otherwise be drawn at will.
 */
export class DrawAllowance {
  /** Per address: the draws of its minute, which ends with the entry. */
  private readonly used = new LRUCache<string, { n: number }>({ max: 50_000, ttl: MINUTE_MS });

  constructor(private readonly perMinute: number) {}

  /**
   * Counts one new drawing for `ip`, or refuses it (429) once its minute's are spent. An IPv6
   * client counts as its /64, as in the other limits: it may hold the whole block.
   */
  take(ip: string): void {
    const address = normalizeIP(ip);
    const used = this.used.get(address);
    if (!used) {
      this.used.set(address, { n: 1 });
      return;
    }
    if (used.n >= this.perMinute) {
      const left = this.used.getRemainingTTL(address);
      throw new HttpError(429, `Too many pictures were asked for from this address. ${tryAgainIn(left)}`);
    }
    used.n++;
  }
}
