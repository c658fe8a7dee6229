/**
 * Text from an audit log made safe to print on a terminal. A logged command is text an agent (or
 * whoever steers it) wrote: printed raw, `\x1b]0;title\x07` retitles the terminal, `\x1b[2J`
 * clears it, and a bidirectional override makes it read otherwise than it runs. Every C0 control
 * character, DEL, every C1 control character (U+0080–U+009F: some terminals read U+009B as CSI)
 * and the bidirectional controls are shown as escapes.
 */

/** C0, DEL, C1, and the bidirectional embeddings, overrides, isolates and marks. */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

const NAMED: Readonly<Record<string, string>> = { '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** `text` with every unsafe character shown as an escape (`\x1b`, `\u202e`, `\n`). */
export function visible(text: string): string {
  return text.replace(UNSAFE, (c) => {
    const named = NAMED[c];
    if (named !== undefined) return named;
    const code = c.charCodeAt(0);
    return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

/**
 * JSON (from JSON.stringify, which escapes C0 already) with DEL, C1 and the bidirectional
 * controls escaped too: they can only be inside strings, where `\uXXXX` means the same character,
 * so the output is the same JSON value.
 */
export function jsonForTerminal(json: string): string {
  return json.replace(UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
