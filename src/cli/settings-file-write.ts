/**
 * Writing an agent's settings file the way its owner keeps it: through a symbolic link (a dotfiles
 * repository links `~/.gemini/settings.json` into itself; the target is updated and the link stays
 * a link), atomically (a temp file beside the target, renamed over it), with the target's
 * permissions, and as edits to the text (jsonc-parser's `modify`), so comments, key order and
 * layout the user wrote are kept.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, lstatSync, readlinkSync, realpathSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { applyEdits, modify, type FormattingOptions } from 'jsonc-parser';
import { ShellgateError } from '../errors.js';

/** Links followed before giving up (the kernel's own limit for a path is 40). */
const MAX_LINKS = 40;

/**
 * The file a write to `file` must replace: `file` itself, or the file its links lead to. A link
 * whose target does not exist yet leads to where the target would be; its folder must exist.
 */
export function writeTarget(file: string): string {
  let path = resolve(file);
  for (let hops = 0; hops <= MAX_LINKS; hops++) {
    let isLink: boolean;
    try {
      isLink = lstatSync(path).isSymbolicLink();
    } catch {
      // Nothing there yet: the file is created here, in its folder's physical place.
      const dir = dirname(path);
      if (!existsSync(dir)) {
        if (path === resolve(file)) return path; // a new file in a new folder: init creates the folder
        throw new ShellgateError('config', `${file} is a link to ${path}, whose folder does not exist; nothing was written`);
      }
      return resolve(realpathSync(dir), basename(path));
    }
    if (!isLink) return realpathSync(path);
    path = resolve(dirname(path), readlinkSync(path));
  }
  throw new ShellgateError('config', `${file}: too many symbolic links; nothing was written`);
}

/** Replaces `target` with `text` atomically, keeping its permissions (new files: 0644). */
export function writeAtomically(target: string, text: string): void {
  const mode = existsSync(target) ? statSync(target).mode & 0o777 : 0o644;
  const tmp = `${target}.shellgate-tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    writeFileSync(tmp, text, { mode, flag: 'wx' });
    renameSync(tmp, target);
  } catch (e) {
    try {
      unlinkSync(tmp);
    } catch {
      // not created
    }
    throw e;
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The indentation the file already uses (its first indented line), else two spaces. */
function formatting(text: string): FormattingOptions {
  const indent = /^([ \t]+)\S/m.exec(text)?.[1] ?? '  ';
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  return indent.startsWith('\t') ? { insertSpaces: false, tabSize: 1, eol } : { insertSpaces: true, tabSize: indent.length, eol };
}

/**
 * `text` (whose value is `existing`) with what `add` brings that `existing` lacks, as edits: a
 * missing key is inserted, a list gains the items it does not hold; a value already set is left
 * as it is (mergeSettings reports it). Comments and layout elsewhere are untouched.
 */
export function editedText(text: string, existing: unknown, add: unknown): string {
  const options = { formattingOptions: formatting(text) };
  let out = text;
  const walk = (have: unknown, want: unknown, path: (string | number)[]): void => {
    if (isObject(have) && isObject(want)) {
      for (const [k, v] of Object.entries(want)) {
        if (Object.prototype.hasOwnProperty.call(have, k)) walk(have[k], v, [...path, k]);
        else out = applyEdits(out, modify(out, [...path, k], v, options));
      }
    } else if (Array.isArray(have) && Array.isArray(want)) {
      let n = have.length;
      for (const item of want) {
        if (have.some((x) => JSON.stringify(x) === JSON.stringify(item))) continue;
        out = applyEdits(out, modify(out, [...path, n++], item, { ...options, isArrayInsertion: true }));
      }
    }
  };
  walk(existing, add, []);
  return out;
}
