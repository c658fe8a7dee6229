/**
 * Values a tool pastes into shell code before the shell reads it (a make variable, a compose
 * `${VAR}`, a GitHub `${{ … }}`) are unknown to shellgate: each is written as a reference to a shell
 * variable nothing sets, so the analyser treats it as a word nobody knows rather than as harmless
 * text. Inside single quotes `${…}` would be literal, so there the quotes are closed around it:
 * the pasted value is not quoted text either.
 */

/** The shell text standing for an unknown pasted value, where `quotes` says it lands. */
export function unknownWord(name: string, quotes: ShellQuotes): string {
  const word = '${' + name + '}';
  return quotes.state === 'single' ? `'"${word}"'` : word;
}

/**
 * A rough follower of shell quoting over the text written so far: enough to know whether a
 * pasted value lands inside single quotes (where `${…}` would be literal text).
 */
export class ShellQuotes {
  state: 'none' | 'single' | 'double' | 'comment' = 'none';
  private escaped = false;
  private prev = '\n';

  feed(text: string): void {
    for (const ch of text) {
      if (this.escaped) this.escaped = false;
      else if (this.state === 'single') {
        if (ch === "'") this.state = 'none';
      } else if (this.state === 'comment') {
        if (ch === '\n') this.state = 'none';
      } else if (ch === '\\') this.escaped = true;
      else if (this.state === 'double') {
        if (ch === '"') this.state = 'none';
      } else if (ch === "'") this.state = 'single';
      else if (ch === '"') this.state = 'double';
      else if (ch === '#' && /[\s;&|()]/.test(this.prev)) this.state = 'comment';
      this.prev = ch;
    }
  }
}
