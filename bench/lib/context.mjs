// The one analysis context every timing uses: a project under /ws with no environment, so the
// figures do not depend on this machine's home, files or variables.
export const BENCH_CONTEXT = Object.freeze({ cwd: '/ws/project', workspaceRoots: ['/ws/project'], home: '/home/user', env: {} });

/** The command the cold-start rows decide: a realistic agent command, not a bare `ls`. */
export const REALISTIC_COMMAND = 'git status && ls -la src | head';
