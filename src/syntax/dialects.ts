/**
 * The shells whose reading of a command shellgate knows: `bash`; `zsh`; `sh`, which is dash on
 * Debian and Ubuntu and bash in POSIX mode on macOS (both readings, the strictest kept); `auto`
 * when it is not known (every reading, the strictest kept).
 */
export type ShellDialect = 'bash' | 'zsh' | 'sh' | 'auto';
export const SHELL_DIALECTS: readonly ShellDialect[] = ['bash', 'zsh', 'sh', 'auto'];

/** Is `v` one of the shell names above (the one check every entry point makes: options, flags, requests, links)? */
export const isShellDialect = (v: unknown): v is ShellDialect => typeof v === 'string' && (SHELL_DIALECTS as readonly string[]).includes(v);
