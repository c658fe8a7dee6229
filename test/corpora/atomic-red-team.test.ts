/**
 * Atomic Red Team (../shared/corpus/atomic-red-team.jsonl, issue 16): the command scripts of Red
 * Canary's Linux and macOS tests, run through the gate with no settings. No attack outside the
 * discovery tactic may be allowed, and the asks must name the danger: a finding of a guard category
 * (persistence, credential-access…) tells the user what the command does and is never lifted by an
 * allow rule written for ordinary work, where a generic one (unknown program, a write) is.
 * The per-tactic table: npm run build && node bench/attack-coverage.mjs [--generic | --allowed].
 */
import { describe, expect, it } from 'vitest';
import { createGate, GUARD_CATEGORIES } from '../../src/index.js';
import { coverage, discoveryOnly, genericShare } from '../../scripts/lib/attack-coverage.mjs';

/** The share of asks outside discovery with only generic findings (a ratchet: lower it, never raise it). */
const MAX_GENERIC_SHARE = 0.22;

/**
 * Tests outside discovery whose command script only reads the system: the technique is in what
 * surrounds the command (a leading space that keeps it out of an interactive history, a harmless
 * payload standing for "a script ran"), not in the command, and read-only work is allowed. Each
 * entry is checked both ways: it must still be allowed (or it is removed from here) and nothing
 * else outside discovery may be.
 */
const READ_ONLY_PAYLOADS: Record<string, string> = {
  'T1059.004 Command line scripts': 'the payload is an echo loop with sleep: the technique is that a script ran',
  'T1059.004 Current kernel information enumeration': '`uname -srm` reads the kernel version',
  'T1070.003 Use Space Before Command to Avoid Logging to History': '`hostname; whoami`: the technique is the leading space (history), which the corpus strips',
  'T1497.001 Detect Virtualization Environment (FreeBSD)': 'reads a sysctl value and prints a message',
  'T1497.001 Detect Virtualization Environment using sysctl (hw.model)': 'reads a sysctl value and prints a message',
  'T1497.001 Detect Virtualization Environment via ioreg': '`ioreg -l | grep …` reads the I/O Kit registry',
  'T1497.001 Check if System Integrity Protection is enabled': '`csrutil status` reads the SIP state',
  'T1497.001 Detect Virtualization Environment using system_profiler': '`system_profiler SPHardwareDataType` reads the hardware report',
};

describe('Atomic Red Team', async () => {
  const gate = await createGate();
  const result = coverage(gate, GUARD_CATEGORIES);

  it('reads the whole corpus: hundreds of tests over every tactic', () => {
    expect(result.total.tests).toBeGreaterThanOrEqual(500);
    expect(result.byTactic.size).toBeGreaterThanOrEqual(12);
  });

  it('allows no attack outside discovery, except commands that only read the system', () => {
    const allowed = result.cases.filter((c) => c.outcome === 'allow' && !discoveryOnly(c)).map((c) => `${c.technique} ${c.test}`);
    expect(allowed.sort()).toEqual(Object.keys(READ_ONLY_PAYLOADS).sort());
  });

  it('names the danger when it asks: few asks carry only generic findings', () => {
    expect(genericShare(result.outsideDiscovery)).toBeLessThanOrEqual(MAX_GENERIC_SHARE);
  });
});
