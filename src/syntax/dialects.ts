/**
 * The shells whose reading of a command shellgate knows: `bash`; `zsh`; `sh`, which is dash on
 * Debian and Ubuntu and bash in POSIX mode on macOS (both readings, the strictest kept); `auto`
 * when it is not known (every reading, the strictest kept).
 */
export type ShellDialect = 'bash' | 'zsh' | 'sh' | 'auto';
export const SHELL_DIALECTS: readonly ShellDialect[] = ['bash', 'zsh', 'sh', 'auto'];
