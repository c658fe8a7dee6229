/** The gate is one ordered table of named layers, and auto mode appends its steps to it. */
import { describe, expect, it } from 'vitest';
import { createAutoGate, createGate, type Gate } from '../../src/index.js';
import { GATE_LAYER_NAMES } from '../../src/policy/decision.js';
import { GATE_LAYERS } from '../../src/policy/layers.js';

const CTX = { cwd: '/ws/project', workspaceRoots: ['/ws/project'], home: '/home/user' };
const sh = (command: string) => ({ tool: 'shell', args: { command } });
const gate = await createGate({ settings: [{ source: 'user', settings: { permissions: { deny: ['Bash(curl *)'] } } }] });
const layersOf = (trace: { layer: string }[]) => trace.map((t) => t.layer);

describe('the layer table', () => {
  it('runs every layer in the documented order, and says so in the trace', () => {
    expect(GATE_LAYERS.map((l) => l.name)).toEqual([...GATE_LAYER_NAMES]);
    const d = gate.evaluate(sh('ls'), CTX);
    expect(layersOf(d.trace)).toEqual([...GATE_LAYER_NAMES, 'final']);
  });

  it('stops at the layer that denies: nothing after it runs', () => {
    const d = gate.evaluate(sh('curl https://example.com'), CTX);
    expect({ level: d.level, layer: d.layer }).toEqual({ level: 'deny', layer: 'rule-deny' });
    expect(layersOf(d.trace)).toEqual(['tool-default', 'whole-tool-deny', 'guard-deny', 'rule-deny', 'final']);
  });
});

describe('auto mode on the same table', () => {
  it("runs the gate's layers once per call and appends the step that decided", async () => {
    let runs = 0;
    const counting: Gate = Object.create(gate, {
      evaluation: { value: (...a: Parameters<Gate['evaluation']>) => (runs++, gate.evaluation(...a)) },
      evaluate: { value: (...a: Parameters<Gate['evaluate']>) => (runs++, gate.evaluate(...a)) },
    });
    const auto = createAutoGate(counting);
    // An edit goes past the policy step to accept-edits: once, the gate ran once all the same.
    const edit = await auto.decide({ tool: 'write_file', args: { path: '/ws/project/a.ts' } }, CTX);
    expect({ level: edit.level, layer: edit.layer, runs }).toEqual({ level: 'allow', layer: 'auto:accept-edits', runs: 1 });
    expect(layersOf(edit.trace)).toEqual([...GATE_LAYER_NAMES, 'auto:accept-edits', 'final']);
    const risky = await auto.decide(sh('npm install left-pad'), CTX);
    expect({ level: risky.level, step: risky.step, runs }).toEqual({ level: 'ask', step: 'user', runs: 2 });
  });
});
