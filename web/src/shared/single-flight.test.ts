import { describe, expect, it } from 'vitest';
import { singleFlight } from './single-flight';

/** A request the test settles by hand. */
function pending() {
  let settle: { resolve: () => void; reject: (e: Error) => void } = { resolve: () => {}, reject: () => {} };
  const promise = new Promise<void>((resolve, reject) => {
    settle = { resolve, reject };
  });
  return { promise, ...settle };
}

describe('singleFlight', () => {
  it('sends once for a double click, and again once the first has settled, answered or failed', async () => {
    const run = singleFlight();
    const sent: ReturnType<typeof pending>[] = [];
    const send = () => {
      const p = pending();
      sent.push(p);
      return p.promise;
    };
    run(send);
    run(send);
    expect(sent).toHaveLength(1);
    sent[0]!.reject(new Error('refused'));
    await Promise.resolve();
    await Promise.resolve();
    run(send);
    expect(sent).toHaveLength(2);
    run(send);
    sent[1]!.resolve();
    await Promise.resolve();
    await Promise.resolve();
    run(send);
    expect(sent).toHaveLength(3);
  });
});
