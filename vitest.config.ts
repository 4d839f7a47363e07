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
    maxWorkers: 2,
    reporters: ['default'],
  },
});
