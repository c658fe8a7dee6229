/** `hook AGENT --server [SOCKET]`: split off the flag (kept apart from the client so a hook without it never loads node:net). */

export interface ServerFlag {
  /** undefined: no --server flag; null: --server without a path (the default socket). */
  server: string | null | undefined;
  /** The other arguments. */
  rest: string[];
}

/**
 * Takes `--server [SOCKET]` / `--server=SOCKET` out of the hook's arguments. A path is the next
 * argument when it does not start with `-` (the hook has no positional arguments after AGENT).
 */
export function splitServerFlag(argv: string[]): ServerFlag {
  const rest: string[] = [];
  let server: string | null | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') {
      rest.push(...argv.slice(i));
      break;
    }
    if (a === '--server') {
      const next = argv[i + 1];
      if (i > 0 && next !== undefined && !next.startsWith('-')) {
        server = next;
        i++;
      } else server = null;
    } else if (a.startsWith('--server=')) server = a.slice('--server='.length) || null;
    else rest.push(a);
  }
  return { server, rest };
}
