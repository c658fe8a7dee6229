/**
 * JSON with comments, read as Gemini CLI and Qwen Code read their settings and trust files: the
 * comments are stripped (`strip-json-comments` there, jsonc-parser's scanner here) and what is left
 * goes to `JSON.parse`. So a trailing comma is an error, as it is for them, and a `__proto__` key is
 * an own property, as `JSON.parse` makes it. Comments become spaces: positions and lines stay.
 */
import { stripComments } from 'jsonc-parser';

/** The value of a JSON-with-comments text; throws `SyntaxError` as `JSON.parse` does. */
export function parseJsonc(text: string): unknown {
  return JSON.parse(stripComments(text, ' '));
}
