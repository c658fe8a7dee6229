/** "Always allow": approvals of minimum scope, never a bare interpreter, never another directory. */
import { describe, expect, it } from 'vitest';
import { createGate, type ToolCall } from '../../src/index.js';

const WS = '/ws/project';
const CTX = { cwd: WS, workspaceRoots: [WS], home: '/home/user', env: {} };
const sh = (command: string): ToolCall => ({ tool: 'shell', args: { command } });

describe('approvals', () => {
  it('approve the sub-command that asked, with its last argument widened', async () => {
    const g = await createGate();
    expect(g.approve(sh('git push origin main'), CTX)).toEqual(['Bash(git push origin *)']);
    expect(g.evaluate(sh('git push origin feature'), CTX).level).toBe('allow');
    expect(g.evaluate(sh('git push upstream main'), CTX).level).toBe('ask');
  });

  it('never approve a bare interpreter or wrapper: only what runs inside', async () => {
    const g = await createGate();
    const added = g.approve(sh("bash -c 'touch a' && sudo touch b && python3 x.py"), CTX);
    expect(added.some((r) => /^Bash\((bash|sudo|python3)\b/.test(r))).toBe(false);
    expect(added).toContain('Bash(touch a)');
  });

  it('do not extend to another directory', async () => {
    const g = await createGate();
    g.approve(sh('cat ./a ./b ./c'), CTX);
    expect(g.evaluate(sh('cat ./a ./b ./c'), CTX).level).toBe('allow');
    // The approved pattern `cat ./a ./b *` also matches this, but /srv/data/report.txt is outside the
    // workspace and no settings rule names it.
    expect(g.evaluate(sh('cat ./a ./b /srv/data/report.txt'), CTX).level).toBe('ask');
    g.approve({ tool: 'read_file', args: { path: `${WS}/notes.md` } }, CTX);
    expect(g.evaluate({ tool: 'read_file', args: { path: '/srv/notes.md' } }, CTX).level).toBe('ask');
  });

  it('cannot lift a deny', async () => {
    const g = await createGate();
    expect(g.approve(sh('rm -rf /'), CTX)).toEqual([]);
    expect(g.evaluate(sh('rm -rf /'), CTX).level).toBe('deny');
  });
});

describe('persistent approvals', () => {
  it('are written to the approvals file and survive a new gate, after session ones', async () => {
    const { mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const file = join(mkdtempSync(join(tmpdir(), 'sg-appr-')), 'approvals.json');
    const g1 = await createGate({ approvalsFile: file });
    expect(g1.approve(sh('npm run lint'), CTX, 'persistent')).toEqual(['Bash(npm run lint)']);
    const g2 = await createGate({ approvalsFile: file });
    const d = g2.evaluate(sh('npm run lint'), CTX);
    expect(d.level).toBe('allow');
    expect(d.trace.find((t) => t.layer === 'rule-allow')?.reason).toContain('approval');
  });
});
