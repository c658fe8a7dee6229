import { mkdtempSync, mkdirSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PathClassifier } from '../../src/paths/classify.js';
import { RealpathCache, realpathNearest, resolvePath, staticPrefix } from '../../src/paths/resolve.js';

const c = new PathClassifier({ home: '/home/u', workspaceRoots: ['/ws/p'] });

describe('resolving', () => {
  it('follows symlinks through the nearest existing ancestor, and keeps missing parts as written', () => {
    const root = mkdtempSync(join(tmpdir(), 'sg-real-'));
    mkdirSync(join(root, 'real'));
    symlinkSync(join(root, 'real'), join(root, 'link'));
    expect(realpathNearest(join(root, 'link', 'new', 'file'))).toBe(join(root, 'real', 'new', 'file'));
    expect(realpathNearest(join(root, 'link', 'new', 'other'))).toBe(join(root, 'real', 'new', 'other'));
    // A path of 100,000 parts cannot exist (PATH_MAX) and stays linear: no stack overflow.
    const deep = '/' + Array(100_000).fill('a').join('/');
    expect(realpathNearest(deep)).toBe(deep);
  });

  it('reuses realpaths only within their window', () => {
    const root = mkdtempSync(join(tmpdir(), 'sg-ttl-'));
    const cache = new RealpathCache(1000);
    cache.startAnalysis(0);
    expect(cache.realpathNearest(join(root, 'x', 'f'))).toBe(join(root, 'x', 'f'));
    symlinkSync('/etc', join(root, 'x'));
    cache.startAnalysis(500); // inside the window: what was read stands
    expect(cache.realpathNearest(join(root, 'x', 'f'))).toBe(join(root, 'x', 'f'));
    cache.startAnalysis(1501); // after it: read again
    expect(cache.realpathNearest(join(root, 'x', 'f'))).toBe('/etc/f');
  });

  it('resolves against cwd with ..', () => {
    expect(resolvePath('../x', '/ws/p/sub')).toBe('/ws/p/x');
    // A `~` left after expansion was quoted: it is a directory named `~`.
    expect(resolvePath('~/a', '/ws')).toBe('/ws/~/a');
    expect(resolvePath('/a/../../b', '/ws')).toBe('/b');
  });
  it('takes the static directory of a glob', () => {
    expect(staticPrefix('/???/shadow')).toBe('/');
    expect(staticPrefix('/ws/p/*.c')).toBe('/ws/p');
  });
  it('follows symlinks through the nearest existing ancestor', () => {
    const ws = mkdtempSync(join(tmpdir(), 'sg-ws-'));
    mkdirSync(join(ws, 'real'));
    symlinkSync('/etc', join(ws, 'link'));
    const k = new PathClassifier({ home: '/home/u', workspaceRoots: [ws] });
    expect(k.classify(join(ws, 'real', 'new-file'), false)).toEqual(['workspace']);
    expect(k.classify(join(ws, 'link', 'passwd'), false)).toContain('outside');
  });
});

describe('classes', () => {
  it('workspace, temp, outside', () => {
    expect(c.classify('/ws/p/src/a.ts', false)).toEqual(['workspace']);
    expect(c.classify('/tmp/x', false)).toContain('temp');
    expect(c.classify('/etc/hosts', false)).toEqual(['outside', 'system']);
  });
  it('root, home, devices', () => {
    expect(c.classify('/', false)).toContain('root');
    expect(c.classify('/*', true)).toContain('root');
    expect(c.classify('/home/u', false)).toContain('home');
    expect(c.classify('/dev/sda', false)).toContain('device');
    expect(c.classify('/dev/null', false)).toEqual(['special-device']);
  });
  it('sensitive files from the list', () => {
    for (const p of ['/home/u/.ssh/id_rsa', '/home/u/.aws/credentials', '/ws/p/.env', '/ws/p/.env.local', '/etc/shadow', '/etc/sudoers.d/x', '/home/u/.bashrc', '/ws/p/.git/hooks/pre-commit', '/ws/p/.git/config', '/ws/p/.claude/settings.json', '/ws/p/.vscode/settings.json', '/ws/p/.mcp.json', '/home/u/.docker/config.json', '/home/u/.kube/config']) {
      expect(c.classify(p, false), p).toContain('sensitive');
    }
    expect(c.classify('/ws/p/src/env.ts', false)).not.toContain('sensitive');
  });
  it('globs that may match a sensitive file are sensitive', () => {
    expect(c.classify('/???/shadow', true)).toContain('sensitive');
    expect(c.classify('/home/u/.ss?/*', true)).toContain('sensitive');
    expect(c.classify('/ws/p/*.ts', true)).not.toContain('sensitive');
  });
});
