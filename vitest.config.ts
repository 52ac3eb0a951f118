import { defineConfig } from 'vitest/config';

// Unit tests run in node unless a file asks for jsdom (`// @vitest-environment jsdom`).
// Integration tests talk to a real SQLite file or, when DATABASE_URL is set, a real PostgreSQL.
export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts', 'tests/**/*.test.tsx'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // no test reads the real calendar: the run's clock (tests/support/clock-shift.ts)
    globalSetup: ['tests/support/test-clock-global.ts'],
    setupFiles: ['tests/support/test-clock.ts'],
  },
});
