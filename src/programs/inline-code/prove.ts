/**
 * Proves an interpreter's inline program read-only, by language: JavaScript over a real parser's
 * AST (javascript.ts), Perl by exact match of a closed grammar (perl.ts), Python by its own prover
 * (python.ts). A language without a prover is never proven: PHP has none, since a hand tokenizer
 * of PHP cannot tell what is code (issue 27), and `php -r` one-liners are rare. Proofs are kept by
 * code text: the hook and the project check (ops/project-config/interpreter.ts) both ask for the
 * same one.
 */
import { proveJavaScript } from './javascript.js';
import { notProven, type Proof } from './proof.js';
import { provePython } from './python.js';
import { provePerl } from './perl.js';

const PROVERS: Readonly<Record<string, (code: string) => Proof>> = {
  python: provePython,
  node: proveJavaScript,
  perl: provePerl,
};

/** Programs longer than this are not proven: one-liners are what this is for. */
export const MAX_PROVEN_CODE = 4096;

const cache = new Map<string, Proof>();

export function proveInlineCode(family: string, code: string): Proof {
  const prover = Object.prototype.hasOwnProperty.call(PROVERS, family) ? PROVERS[family] : undefined;
  if (prover === undefined) return notProven(`no prover for ${family} code`);
  if (code.length > MAX_PROVEN_CODE) return notProven(`longer than ${MAX_PROVEN_CODE} characters`);
  const key = `${family}\0${code}`;
  let proof = cache.get(key);
  if (proof === undefined) {
    proof = prover(code);
    if (cache.size >= 1024) cache.clear();
    cache.set(key, proof);
  }
  return proof;
}
