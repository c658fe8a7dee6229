/** sed: the program text (`e`, `w`, `r` commands), in-place editing, BSD's `-i SUFFIX`. */
import { unknownCode } from './code-text.js';
import type { CommandClass } from '../spec-types.js';
import { hasOption, type ParsedArgv } from '../argv.js';
import type { HandlerResult, OperationSink, ProgramHooks } from '../hook-types.js';
import { sedScriptEffects } from './sed-script.js';

/**
 * sed SCRIPT FILE…, or `-e SCRIPT`/`-f SCRIPTFILE` (then every operand is a file). The script —
 * inline, or read from the file like `source` reads one — is analysed for `e`, `w`, `r`; a script
 * that cannot be read or is only known at run time could do anything.
 */
function sed(b: OperationSink, p: ParsedArgv | null): HandlerResult | void {
  if (!p) return;
  const files = [...p.operands];
  const pieces = p.options.filter((o) => ['-e', '--expression', '-f', '--file'].includes(o.name) && o.value);
  const texts: (string | null)[] = [];
  // A script only known at run time, or a script file that cannot be read.
  let unread = false;
  if (pieces.length === 0) {
    const script = files.shift();
    if (script) {
      if (unknownCode(script)) unread = true;
      texts.push(script.value);
    }
  }
  for (const o of pieces) {
    const v = o.value!;
    if (o.name === '-e' || o.name === '--expression') {
      if (unknownCode(v)) unread = true;
      texts.push(v.value);
    } else {
      const text = b.scriptText(v);
      if (text === null) unread = true;
      texts.push(text);
    }
  }
  const inPlace = p.options.some((o) => o.name === '-i' || o.name === '--in-place' || o.name === '-I');
  for (const f of files) b.path(inPlace ? 'Write' : 'Read', f, 'operand');
  let cls: CommandClass = inPlace ? 'mutating' : 'read-only';
  // GNU sed joins every -e and -f piece with newlines into one script.
  const fx = sedScriptEffects(texts.map((t) => t ?? '').join('\n'));
  // BSD sed's -i takes the next word as the backup suffix (`sed -i '' 's/a/b/w x' f`): there the
  // script is the word after it. Both readings are analysed.
  const bare = p.options.some((o) => (o.name === '-i' || o.name === '-I') && !o.value);
  if (bare && pieces.length === 0 && /^(\.[\w.~-]*)?$/.test(texts[0] ?? 'x') && files[0]) {
    if (files[0].dynamic) unread = true;
    const bsd = sedScriptEffects(files[0].value);
    fx.exec ||= bsd.exec;
    fx.writes.push(...bsd.writes);
    fx.reads.push(...bsd.reads);
    fx.unknown ??= bsd.unknown;
  }
  // --sandbox rejects e, r and w: such a script fails before it runs.
  const sandbox = hasOption(p, '--sandbox');
  if (unread || fx.unknown !== null) {
    // Not read (dynamic, unreadable, or not GNU sed's grammar): it may run or write anything
    // (unknown-effect); under --sandbox, e/r/w are refused whatever it holds.
    if (!sandbox) cls = 'unknown';
  } else if (!sandbox) {
    if (fx.exec) {
      b.add('Exec', 'operand', b.cmd.span, { program: 'sh', target: texts.join('\n') });
      cls = 'unknown';
    }
    for (const w of fx.writes) {
      b.path('Write', { value: w, dynamic: false, glob: false, span: b.cmd.span }, 'operand');
      if (cls !== 'unknown') cls = 'mutating';
    }
    for (const r of fx.reads) b.path('Read', { value: r, dynamic: false, glob: false, span: b.cmd.span }, 'operand');
  }
  return { class: cls, skipOperands: true };
}

export const sedHooks: ProgramHooks = { module: 'sed.ts', operations: sed };
