/**
 * The program registry: what a program is (tags), how it reads its argv (spec) and what data
 * cannot say (hooks), from one place; the tag index the analyser reads at start-up is the spec
 * files' tags, never a stale copy.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { registry, createRegistry, TAG_INDEX_FILE } from '../../src/programs/registry.js';
import { lazySpecDir, loadSpecDir } from '../../src/programs/load-specs.js';
import { loadDefinitions } from '../../src/guard/load-rules.js';
import { RULES_DIR } from '../../src/programs/load-specs.js';
import { tagIndexText } from '../../scripts/specs/tag-index.mjs';

describe('program registry', () => {
  it('the tag index is the tags of the spec files (run node scripts/specs/tag-index.mjs when this fails)', () => {
    expect(readFileSync(TAG_INDEX_FILE, 'utf8')).toBe((tagIndexText as () => string)());
  });

  it('answers a program with its spec, tags and hooks', () => {
    const sudo = registry.get('sudo');
    expect([...sudo.tags].sort()).toEqual(['privilege', 'wrapper']);
    expect(sudo.spec?.options?.['-u']).toEqual({ value: true });
    expect(sudo.hooks.unwrap).toBeTypeOf('function');
    // A wrapper that data describes whole has no hook: its `command` operand says where the command starts.
    expect(registry.get('timeout').hooks.unwrap).toBeUndefined();
    expect(registry.get('timeout').spec?.operands).toEqual(['text', 'command']);
    // Every shell shares the shell hook through its tag.
    expect(registry.get('zsh').hooks.unwrap).toBe(registry.get('bash').hooks.unwrap);
    expect(registry.get('zsh').hooks.unwrap).toBeTypeOf('function');
    const cat = registry.get('cat');
    expect(cat.tags.size).toBe(0);
    expect(cat.spec?.class).toBe('read-only');
    expect(cat.hooks.unwrap).toBeUndefined();
    const nothing = registry.get('no-such-program');
    expect(nothing.spec).toBeUndefined();
    expect(nothing.tags.size).toBe(0);
  });

  it('lists programs by tag', () => {
    const shells = registry.tagged('shell');
    for (const s of ['bash', 'sh', 'zsh', 'dash', 'fish', 'tcsh', 'csh']) expect(shells.has(s)).toBe(true);
    expect(shells.has('busybox')).toBe(false);
    expect([...registry.tagged('privilege')].sort()).toEqual(['doas', 'newgrp', 'pkexec', 'runuser', 'sg', 'su', 'sudo']);
    expect(registry.tagged('file-edit').has('sed')).toBe(true);
    expect(registry.tagged('file-edit').has('vim')).toBe(false);
    expect(registry.tagged('network-fetcher').has('curl')).toBe(true);
    expect(registry.tagged('decoder').has('base64')).toBe(true);
    expect(registry.tagged('interpreter').has('python3')).toBe(true);
    expect(registry.has('dash', 'posix-shell')).toBe(true);
    expect(registry.has('bash', 'posix-shell')).toBe(false);
  });

  it('a tagsOnly file names a program for the lists but gives it no spec (it stays an unknown program)', () => {
    const fetch = registry.get('fetch');
    expect(fetch.tags.has('network-fetcher')).toBe(true);
    expect(fetch.spec).toBeUndefined();
    expect(registry.get('sg').spec).toBeUndefined();
  });

  it('a bad tag or a tagsOnly file with a spec field fails with the file, program and field', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sg-tags-'));
    writeFileSync(join(dir, 'x.json'), JSON.stringify({ summary: 'x', class: 'unknown', tags: ['shel'] }));
    writeFileSync(join(dir, 'y.json'), JSON.stringify({ summary: 'y', tagsOnly: true, tags: ['shell'], class: 'unknown' }));
    expect(() => lazySpecDir(dir).get('x')).toThrow(/x\.json: program "x": field "tags" must be a list of wrapper, shell/);
    expect(() => lazySpecDir(dir).get('y')).toThrow(/y\.json: program "y": field "class" is not a field of a tagsOnly file/);
    expect(() => loadSpecDir(dir)).toThrow(/field "tags"/);
  });

  it('a registry over another index reads its tags from there', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sg-index-'));
    writeFileSync(join(dir, 'tags.json'), JSON.stringify({ myshell: ['shell'] }));
    const r = createRegistry(() => lazySpecDir(dir), join(dir, 'tags.json'));
    expect([...r.tagged('shell')]).toEqual(['myshell']);
    writeFileSync(join(dir, 'bad.json'), JSON.stringify({ x: ['no-such-tag'] }));
    expect(() => createRegistry(() => lazySpecDir(dir), join(dir, 'bad.json')).tagged('shell')).toThrow(/bad\.json: program "x": tags must be/);
  });

  it('guard lists refer to tags: "@tag:shell" stands for every shell', () => {
    const defs = loadDefinitions(join(RULES_DIR, 'builtin', '_lists.json'));
    expect(new Set(defs.lists.shells)).toEqual(new Set([...registry.tagged('shell'), 'busybox']));
    expect(new Set(defs.lists.fetchers)).toEqual(new Set(registry.tagged('network-fetcher')));
    const dir = mkdtempSync(join(tmpdir(), 'sg-lists-'));
    writeFileSync(join(dir, '_lists.json'), JSON.stringify({ lists: { x: ['@tag:shells'] }, macros: {} }));
    expect(() => loadDefinitions(join(dir, '_lists.json'))).toThrow(/list "x": "@tag:shells" names no tag/);
  });
});
