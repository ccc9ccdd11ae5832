import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src-main/**/*.test.ts', 'src-preload/**/*.test.ts', 'src-renderer/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts', 'bench/**/*.test.ts'],
    exclude: ['**/node_modules/**', 'scripts/fixtures/**', 'e2e/**'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Two cores here: keep workers few so crash/concurrency tests are not starved.
    maxWorkers: 2,
  },
});
