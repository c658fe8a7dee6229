/**
 * Issue 30, step 8: one workspace boundary. The user's `additionalDirectories` are workspace for
 * the shell's analysis as for the file tools: `cat` of a file there is judged as the Read tool's
 * call of the same file (it asked while Read was allowed), and a write there is still a write.
 * A repository's own settings cannot add a directory (policy/settings.ts sets it aside).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGate, type GateContext, type ToolCall } from '../../src/index.js';

const base = mkdtempSync(join(tmpdir(), 'sg-boundary-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));
// Not under a temp-looking name the classifier reads as shared temp: the extra root is a sibling project.
const WS = join(base, 'project');
const LIB = join(base, 'shared-lib');
mkdirSync(WS);
mkdirSync(LIB);
writeFileSync(join(LIB, 'util.ts'), 'export {};\n');
const CTX: GateContext = { cwd: WS, workspaceRoots: [WS], home: join(base, 'home'), env: {} };
const sh = (command: string): ToolCall => ({ tool: 'shell', args: { command } });
const read = (path: string): ToolCall => ({ tool: 'read_file', args: { path } });

describe('one workspace boundary for the gate and the analysis', () => {
  it('the shell and the Read tool agree on a file in an additional directory', async () => {
    const g = await createGate({ settings: [{ source: 'user', settings: { permissions: { additionalDirectories: [LIB] } } }] });
    const file = join(LIB, 'util.ts');
    const byTool = g.evaluate(read(file), CTX).level;
    for (const command of [`cat ${file}`, `grep -n export ${LIB}/*.ts`, `wc -l ${file}`]) {
      expect(g.evaluate(sh(command), CTX).level, command).toBe(byTool);
    }
    expect(byTool).toBe('allow');
    // A write there is still a write: asked in default mode, as in the workspace.
    expect(g.evaluate(sh(`echo x > ${LIB}/out.txt`), CTX).level).toBe('ask');
  });
  it('without the setting, both ask', async () => {
    const g = await createGate({});
    const file = join(LIB, 'util.ts');
    expect(g.evaluate(read(file), CTX).level).toBe('ask');
    expect(g.evaluate(sh(`cat ${file}`), CTX).level).toBe('ask');
  });
});
