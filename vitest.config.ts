import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    // One temp folder per run, removed at the end: nothing a test makes is left in /tmp.
    globalSetup: ['test/helpers/temp-root.ts'],
    // No limit that depends on the machine's speed: a loaded 2-core machine runs some files 5–10×
    // slower than an idle one. The limits only end a test that hangs; timings belong in bench/.
    testTimeout: 1_800_000,
    hookTimeout: 1_800_000,
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores: on a 2-core CI machine, every file one
    // after another. Two workers overlap the real-bash oracle (mostly waiting on kernel work in its
    // sandboxes) with the rest of the suite.
    maxWorkers: 2,
  },
});
