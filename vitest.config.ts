import { defineConfig } from 'vitest/config';

// One runner for every package. Browser tests live in e2e/ and start the real server themselves.
export default defineConfig({
  test: {
    include: [
      '{contract,rules,server,web,e2e}/src/**/*.test.ts',
      'server/bench/*.test.ts',
      'scripts/*.test.ts',
    ],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Three files at once on two cores: the browser files spend most of their time waiting on a
    // game's clock (a lobby, a question, a window to close), and the third file fills that idle
    // CPU (decision 039: 1,480 s with two, 1,210 s with three, same machine, all passing).
    maxWorkers: 3,
    reporters: ['default'],
  },
});
