import { describe, expect, it } from 'vitest';
import { DrawAllowance } from './draw-allowance';

describe('the allowance of new pictures', () => {
  it('refuses an address its minute’s pictures past the limit, with a sentence', () => {
    const draws = new DrawAllowance(2);
    draws.take('203.0.113.7');
    draws.take('203.0.113.7');
    expect(() => draws.take('203.0.113.7')).toThrow(
      /^Too many pictures were asked for from this address\. Try again in 1 minute\.$/,
    );
    // Another address has its own.
    expect(() => draws.take('203.0.113.8')).not.toThrow();
  });

  it('counts an IPv6 client as its /64, which it may hold whole', () => {
    const draws = new DrawAllowance(2);
    draws.take('2001:db8:1:2::1');
    draws.take('2001:db8:1:2:ffff::9');
    expect(() => draws.take('2001:db8:1:2:abcd:1:2:3')).toThrow(/^Too many pictures/);
    expect(() => draws.take('2001:db8:1:3::1')).not.toThrow();
  });
});
