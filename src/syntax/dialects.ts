/**
 * The shells whose reading of a command shellgate knows how to check: `bash`; `zsh`; `sh`, a POSIX
 * sh as dash is (`/bin/sh` on Debian and Ubuntu); `auto` when it is not known (every reading, the
 * strictest kept).
 */
export type ShellDialect = 'bash' | 'zsh' | 'sh' | 'auto';
export const SHELL_DIALECTS: readonly ShellDialect[] = ['bash', 'zsh', 'sh', 'auto'];
