/** A small deterministic PRNG (mulberry32), so the demo is the same on every machine. */
export interface Random {
  next(): number;
  int(min: number, max: number): number;
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
  weighted(weights: readonly number[]): number;
  normal(): number;
}

export function seededRandom(seed: number): Random {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    chance: (p) => next() < p,
    pick: (items) => items[Math.floor(next() * items.length)]!,
    weighted(weights) {
      const total = weights.reduce((s, w) => s + w, 0);
      let x = next() * total;
      for (const [i, w] of weights.entries()) {
        x -= w;
        if (x < 0) return i;
      }
      return weights.length - 1;
    },
    // Box-Muller: a standard normal sample.
    normal: () => Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next()),
  };
}
