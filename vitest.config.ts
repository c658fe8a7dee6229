import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores: on a 2-core CI machine, every file one
    // after another. Two workers overlap the real-bash oracle (mostly waiting on kernel work in its
    // sandboxes) with the rest of the suite.
    maxWorkers: 2,
  },
});
