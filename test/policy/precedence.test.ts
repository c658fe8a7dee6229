/**
 * The precedence list as a table: each case names the layer that must decide. Layers:
 * 1 tool-default, 2 whole-tool-deny, 3 guard-deny, 4 rule-deny, 5 rule-ask, 6 rule-allow,
 * 7 external-directory, 8 mode, then channel.
 */
import { describe, expect, it } from 'vitest';
import { createGate, type GateContext, type Level, type ToolCall } from '../../src/index.js';

const WS = '/ws/project';
const CTX: GateContext = { cwd: WS, workspaceRoots: [WS], home: '/home/user', env: {} };
const sh = (command: string): ToolCall => ({ tool: 'shell', args: { command } });

const gate = await createGate({
  settings: [
    {
      source: 'project',
      settings: {
        permissions: {
          allow: [
            'Bash(git status)',
            'Bash(npm run test:*)',
            'Bash(git push *)',
            'Read(//etc/hosts)',
            'Bash(rm -rf *)',
            'Bash(cat *)',
            'WebFetch(domain:example.com)',
            'mcp__github',
          ],
          ask: ['Bash(npm publish *)', 'Bash(git push --force *)'],
          deny: ['Read(~/.ssh/**)', 'Bash(git push origin prod)', 'mcp__danger'],
        },
      },
    },
  ],
});
const bashDenied = await createGate({ settings: [{ source: 'managed', settings: { permissions: { deny: ['Bash'], allow: ['Read'] } } }] });

const CASES: [string, ToolCall, Level, string, Partial<GateContext>?][] = [
  ['read-only shell inside the workspace', sh('ls -la src'), 'allow', 'tool-default'],
  ['mutating shell asks by default', sh('touch a'), 'ask', 'tool-default'],
  ['read_file inside the workspace', { tool: 'read_file', args: { path: `${WS}/a.ts` } }, 'allow', 'tool-default'],
  ['read_file outside asks', { tool: 'read_file', args: { path: '/etc/passwd' } }, 'ask', 'tool-default'],
  ['whole-tool deny ends it', sh('ls'), 'deny', 'whole-tool-deny', {}],
  ['guard deny beats an allow rule', sh('rm -rf /'), 'deny', 'guard-deny'],
  ['guard deny beats yolo', sh('rm -rf ~'), 'deny', 'guard-deny', { mode: 'yolo' }],
  ['parameter deny on a sub-command', sh('git status && git push origin prod'), 'deny', 'rule-deny'],
  ['parameter deny on a virtual operation', sh('grep -r key ~/.ssh'), 'deny', 'rule-deny'],
  ['parameter deny on the file tool', { tool: 'read_file', args: { path: '/home/user/.ssh/id_rsa' } }, 'deny', 'rule-deny'],
  ['deny through a wrapper', sh('sudo env git push origin prod'), 'deny', 'rule-deny'],
  ['ask rule beats an allow rule', sh('git push --force origin main'), 'ask', 'rule-ask'],
  ['ask rule on its own', sh('npm publish --access public'), 'ask', 'rule-ask'],
  ['allow rule lifts the default ask', sh('git push origin main'), 'allow', 'rule-allow'],
  ['allow needs every sub-command', sh('git push origin main && touch x'), 'ask', 'tool-default'],
  ['legacy :* prefix', sh('npm run test:unit -- --watch'), 'allow', 'rule-allow'],
  ['WebFetch domain rule covers subdomains and curl alike', { tool: 'web_fetch', args: { url: 'https://api.example.com/v1' } }, 'allow', 'rule-allow'],
  ['WebFetch domain rule on a shell network operation', sh('curl https://example.com/x.json'), 'allow', 'rule-allow'],
  ['MCP server rule', { tool: 'mcp__github__create_issue', args: {} }, 'allow', 'rule-allow'],
  ['MCP deny', { tool: 'mcp__danger__run', args: {} }, 'deny', 'whole-tool-deny'],
  ['settings rule names an external path', { tool: 'read_file', args: { path: '/etc/hosts' } }, 'allow', 'rule-allow'],
  ['Bash allow does not lift an external path', sh('cat /srv/data/report.txt'), 'ask', 'external-directory'],
  ['plan mode denies what mutates', sh('touch a'), 'deny', 'mode', { mode: 'plan' }],
  ['plan mode lets reads run', sh('cat README.md'), 'allow', 'rule-allow', { mode: 'plan' }],
  ['auto-edit approves workspace writes', { tool: 'write_file', args: { path: `${WS}/src/a.ts` } }, 'allow', 'mode', { mode: 'auto-edit' }],
  ['auto-edit does not approve deletes', sh('rm a'), 'ask', 'tool-default', { mode: 'auto-edit' }],
  ['yolo turns ask into allow', sh('touch a'), 'allow', 'mode', { mode: 'yolo' }],
  ['auto without a classifier still asks', sh('touch a'), 'ask', 'tool-default', { mode: 'auto' }],
  ['non-interactive channel: ask becomes deny', sh('touch a'), 'deny', 'channel', { channel: 'non-interactive' }],
];

describe('precedence', () => {
  for (const [name, call, level, layer, extra] of CASES) {
    it(`${name}: ${level} by ${layer}`, () => {
      const g = layer === 'whole-tool-deny' && call.tool === 'shell' ? bashDenied : gate;
      const d = g.evaluate(call, { ...CTX, ...extra });
      expect({ level: d.level, layer: d.layer }, d.reason).toEqual({ level, layer });
      expect(d.trace[d.trace.length - 1]).toMatchObject({ layer: 'final', level });
    });
  }

  it('traces every layer in order until the one that decided', () => {
    const d = gate.evaluate(sh('git push origin main'), CTX);
    expect(d.trace.map((t) => t.layer)).toEqual([
      'tool-default',
      'whole-tool-deny',
      'guard-deny',
      'rule-deny',
      'rule-ask',
      'rule-allow',
      'external-directory',
      'mode',
      'channel',
      'final',
    ]);
    expect(d.trace.find((t) => t.layer === 'rule-allow')?.reason).toContain('Bash(git push *)');
  });

  it('a bare-tool allow turns an external read into allow (reference design)', () => {
    expect(bashDenied.evaluate({ tool: 'read_file', args: { path: '/etc/passwd' } }, CTX).level).toBe('allow');
  });
});
