/**
 * Presets composable with user rules:
 * - jail: reads and edits inside the workspace (and scratch, extra roots) only; every other path,
 *   shared temp included, is denied for Read, Edit and Write, through file tools and shell
 *   operations alike.
 * - sensitive: the sensitive paths (keys, credentials, shell rc files, agent settings, .env…) are
 *   denied for Read, Edit and Write.
 */
export const PRESETS = {
  jail: 'Read/Edit/Write only inside the workspace roots, scratch directories and additional directories',
  sensitive: 'deny Read/Edit/Write of keys, credentials, shell rc files, agent settings and .env files',
} as const;

export type PresetName = keyof typeof PRESETS;
