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
  },
});
