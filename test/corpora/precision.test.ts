/**
 * The labelled precision corpus (corpus/precision/, issue 15): every command labelled by hand
 * with what it really does, in each shell that reads it (issue 28: the plain label is bash's, a
 * case may carry zsh's and sh's). No command labelled as writing, running code, reaching the
 * network, leaving the workspace or touching a secret may come back `allow` in the shell that
 * label is for; of those labelled read-only, at least MIN_RECALL_BY_SHELL must (the misses, by
 * cause: node bench/precision.mjs --shell S --misses).
 */
import { describe, expect, it } from 'vitest';
import { createGate } from '../../src/index.js';
import { labelFor, precisionCases, PRECISION_CONTEXT, sharedPresent } from '../../scripts/lib/precision-corpus.mjs';

/**
 * The allow-recall reached (a ratchet: raise it when precision improves, never lower it). 0.945
 * since issue 27: the effect oracle traced 28 commands labelled read-only doing more (ps reading
 * /proc/PID/environ, npm and top writing under the home, the JVM under /tmp, docker and kubectl
 * reaching their daemons), relabelled, and so left the ratio, which had counted them as allowed;
 * and the whitelist of variables holding no secret makes `top –p $PID` ask for expanding $PID.
 */
const MIN_RECALL = 0.945;

/**
 * The same ratchet read in each shell (issue 28): the dash and zsh readings only add asks to
 * bash's, so recall may only be lower, and no shell may allow what its label says does more.
 * Measured without dialects.jsonl, which has its own ratchet below.
 */
const MIN_RECALL_BY_SHELL = { bash: MIN_RECALL, zsh: 0.945, sh: 0.94, auto: 0.94 } as const;

/**
 * dialects.jsonl (issue 28): zsh- and dash-shaped commands and their dangerous twins, labelled per
 * shell. Its own ratchet, so that the other files' stays as sharp as it was; what main gave when
 * the file landed, raised when the zsh reading learnt qualifiers, modifiers, flags and print
 * (raise it as the zsh and dash readings learn more, never lower it).
 */
const DIALECTS = 'dialects.jsonl';
const MIN_DIALECT_RECALL_BY_SHELL: Record<keyof typeof MIN_RECALL_BY_SHELL, number> = { bash: 0.56, zsh: 0.524, sh: 0.42, auto: 0.433 };

/** The corpus is whole only with ../shared/corpus beside the project (the referenced cases). */
const WHOLE = sharedPresent();

describe('precision corpus', () => {
  const cases = precisionCases({ withoutShared: true });
  if (!WHOLE) console.log('precision corpus: ../shared/corpus is missing; only the project-written cases are checked, recall is not');

  it("reads a case by the shell's own label, bash's where it has none, and the strictest when the shell is not known", () => {
    const c = { file: 'x', line: 1, ref: null, command: 'x', label: 'read-only', shells: { zsh: 'writes', sh: 'unclear' }, note: 'n' } as const;
    expect(['bash', 'zsh', 'sh', 'auto'].map((s) => labelFor(c, s))).toEqual(['read-only', 'writes', 'unclear', 'writes']);
    expect(labelFor({ ...c, shells: {} }, 'zsh')).toBe('read-only');
    expect(() => labelFor(c, 'fish')).toThrow(/unknown shell "fish"/);
  });

  it.skipIf(!WHOLE)('holds at least 1,000 hand-labelled commands, each with a note', () => {
    expect(cases.length).toBeGreaterThanOrEqual(1000);
    expect(new Set(cases.map((c) => `${c.ref ?? ''}\0${c.command}`)).size).toBe(cases.length);
  });

  it.each(Object.entries(MIN_RECALL_BY_SHELL))(
    'read as %s: allows no command that does more than read inside the workspace, and most that do only that',
    async (shell, minRecall) => {
      const gate = await createGate();
      const ctx = { ...PRECISION_CONTEXT, mode: 'default' as const, channel: 'cli', shell: shell as keyof typeof MIN_RECALL_BY_SHELL };
      const wrong: string[] = [];
      const recall = { corpus: { readOnly: 0, allowed: 0 }, dialects: { readOnly: 0, allowed: 0 } };
      for (const c of cases) {
        const label = labelFor(c, shell);
        const level = gate.evaluate({ tool: 'shell', args: { command: c.command } }, ctx).level;
        const r = c.file === DIALECTS ? recall.dialects : recall.corpus;
        if (label === 'read-only') {
          r.readOnly++;
          if (level === 'allow') r.allowed++;
        } else if (level === 'allow') wrong.push(`${c.file}:${c.line} (${label} in ${shell}) ${c.command}`);
      }
      expect(wrong).toEqual([]);
      expect(recall.dialects.allowed / recall.dialects.readOnly).toBeGreaterThanOrEqual(
        MIN_DIALECT_RECALL_BY_SHELL[shell as keyof typeof MIN_DIALECT_RECALL_BY_SHELL],
      );
      if (WHOLE) expect(recall.corpus.allowed / recall.corpus.readOnly).toBeGreaterThanOrEqual(minRecall);
    },
  );
});
