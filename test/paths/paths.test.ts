import { mkdtempSync, mkdirSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PathClassifier, sensitivePatterns } from '../../src/paths/classify.js';
import { detectCaseInsensitive, foldsCase } from '../../src/paths/case-fold.js';
import { pathReadings, type MadeEntry, type MadeView } from '../../src/paths/readings.js';
import { lexicalPath, RealpathCache, realpathNearest, resolvePath, staticPrefix } from '../../src/paths/resolve.js';

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
    for (const p of [
      '/home/u/.ssh/id_rsa',
      '/home/u/.aws/credentials',
      '/ws/p/.env',
      '/ws/p/.env.local',
      '/etc/shadow',
      '/etc/sudoers.d/x',
      '/home/u/.bashrc',
      '/ws/p/.git/hooks/pre-commit',
      '/ws/p/.git/config',
      '/ws/p/.claude/settings.json',
      '/ws/p/.vscode/settings.json',
      '/ws/p/.mcp.json',
      '/home/u/.docker/config.json',
      '/home/u/.kube/config',
    ]) {
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

/** A scratch tree: `ws` (the workspace) and `out` (outside it), with whatever links a test makes. */
function scratch(): { ws: string; out: string } {
  const root = mkdtempSync(join(tmpdir(), 'sg-kernel-'));
  const ws = join(root, 'ws');
  const out = join(root, 'out');
  mkdirSync(join(out, 'deep'), { recursive: true });
  mkdirSync(join(ws, 'src'), { recursive: true });
  return { ws, out };
}

describe('resolving as the kernel does', () => {
  it('applies `..` to where a symlink points, not to its name', () => {
    const { ws, out } = scratch();
    symlinkSync(join(out, 'deep'), join(ws, 'link'));
    const cache = new RealpathCache();
    // (path.join would apply `..` lexically: the paths are spelt out.)
    expect(cache.physical(`${ws}/link/../x`)).toBe(join(out, 'x'));
    expect(cache.physical(`${ws}/src/../x`)).toBe(join(ws, 'x'));
    // Missing parts stay as written, `..` included.
    expect(cache.physical(`${ws}/nope/../x`)).toBe(join(ws, 'x'));
  });

  it('follows a dangling symlink: writing through it creates its target', () => {
    const { ws, out } = scratch();
    symlinkSync(join(out, 'not-yet'), join(ws, 'dangling'));
    expect(new RealpathCache().physical(join(ws, 'dangling'))).toBe(join(out, 'not-yet'));
    const k = new PathClassifier({ home: '/home/u', workspaceRoots: [ws], tempDirs: [] });
    expect(k.classify(join(ws, 'dangling'), false)).toContain('outside');
  });

  it('gives no answer past 40 links (a loop), and follows 40', () => {
    const { ws } = scratch();
    symlinkSync('b', join(ws, 'a'));
    symlinkSync('a', join(ws, 'b'));
    expect(new RealpathCache().physical(join(ws, 'a', 'x'))).toBeNull();
    for (let i = 0; i < 41; i++) symlinkSync(`l${i + 1}`, join(ws, `l${i}`));
    expect(new RealpathCache().physical(join(ws, 'l1'))).toBe(join(ws, 'l41')); // 40 links, l41 missing
    expect(new RealpathCache().physical(join(ws, 'l0'))).toBeNull(); // 41 links
  });

  it('classifies a deleted name without following it, unless written with a trailing slash', () => {
    const { ws, out } = scratch();
    symlinkSync(join(out, 'deep'), join(ws, 'link'));
    const k = new PathClassifier({ home: '/home/u', workspaceRoots: [ws], tempDirs: [] });
    expect(k.classify(join(ws, 'link'), false, false)).toEqual(['workspace']);
    expect(k.classify(join(ws, 'link'), false, true)).toContain('outside');
  });
});

describe('verdicts through symlinks on disk', async () => {
  const { createAnalyzer } = await import('../../src/index.js');
  const a = await createAnalyzer({ cacheSize: 0 });
  const { ws } = scratch();
  // The temp dir is a place of its own (class temp): the link points into the system instead.
  symlinkSync('/usr/share/doc', join(ws, 'link'));
  symlinkSync('b', join(ws, 'a'));
  symlinkSync('a', join(ws, 'b'));
  const ctx = { cwd: ws, workspaceRoots: [ws], home: '/home/u', env: {} };
  const rules = (c: string) =>
    a
      .analyze(c, ctx)
      .findings.filter((f) => f.level !== 'allow')
      .map((f) => f.rule);

  it('`link/..` leaves the workspace when the link points outside it', () => {
    expect(a.analyze('cat src/../README', ctx).level).toBe('allow');
    expect(rules('cat link/../secret')).toContain('outside-workspace');
    expect(a.analyze('cat link/../secret', ctx).operations[0].path).toBe('/usr/share/secret');
    // bash's `cd` is logical, the kernel's `..` is not: after `cd link`, `../x` is beside the target.
    expect(rules('cd link && cat ../secret')).toContain('outside-workspace');
  });

  it('a loop of links is a path known only at run time', () => {
    expect(rules('cat a/x')).toContain('dynamic-path');
  });

  it('`..` after a glob is not resolved lexically past it', () => {
    expect(rules('cat */../x')).toContain('dynamic-path');
  });

  it('rm removes a link itself; with a trailing slash it empties what the link points to', () => {
    expect(a.analyze('rm -rf link', ctx).level).toBe('ask');
    expect(a.analyze('rm -rf link/', ctx).level).toBe('deny');
  });
});

describe('readings through what the line made', () => {
  const cache = new RealpathCache();
  const view = (entries: MadeEntry[]): MadeView => ({ entries, names: new Set(entries.map((e) => e.path.split('/').pop()!)) });
  const read = (value: string, entries: MadeEntry[], opts: Partial<{ glob: boolean; kind: 'follow' | 'delete' }> = {}) =>
    pathReadings(value, '/ws/p', {
      realpaths: cache,
      made: view(entries),
      glob: opts.glob ?? false,
      followLast: opts.kind !== 'delete',
      removesName: opts.kind === 'delete',
    });

  it("walks through a link that is surely there, relative targets from the link's directory", () => {
    expect(read('h/x', [{ path: '/ws/p/h', kind: 'symlink', target: '/home/u', certain: true }])).toEqual([{ path: '/home/u/x' }]);
    expect(read('d/r/etc', [{ path: '/ws/p/d/r', kind: 'symlink', target: '../../..', certain: true }])).toEqual([{ path: '/etc' }]);
    expect(read('h/../x', [{ path: '/ws/p/h', kind: 'symlink', target: '/home/u', certain: true }])).toEqual([{ path: '/home/x' }]);
  });

  it('gives both readings when the link may not be there', () => {
    const both = read('h/x', [{ path: '/ws/p/h', kind: 'symlink', target: '/etc', certain: false }]);
    expect(both.map((r) => r.path).sort()).toEqual(['/etc/x', '/ws/p/h/x']);
  });

  it('has no answer for a link whose target is unknown, or a loop of line-made links', () => {
    expect(read('h/x', [{ path: '/ws/p/h', kind: 'symlink', target: null, certain: true }])).toEqual([{ dynamic: expect.any(String) }]);
    const loop = read('a/x', [
      { path: '/ws/p/a', kind: 'symlink', target: 'b', certain: true },
      { path: '/ws/p/b', kind: 'symlink', target: 'a', certain: true },
    ]);
    expect(loop).toEqual([{ dynamic: expect.stringContaining('40') }]);
  });

  it('a deleted name is the link, a hard link never reaches its original when removed', () => {
    const link: MadeEntry = { path: '/ws/p/h', kind: 'symlink', target: '/home/u', certain: true };
    expect(read('h', [link], { kind: 'delete' })).toEqual([{ path: '/ws/p/h' }]);
    expect(read('h/', [link], { kind: 'delete' })).toEqual([{ path: '/home/u' }]);
    const hard: MadeEntry = { path: '/ws/p/b', kind: 'hardlink', target: '/home/u/.bashrc', certain: true };
    expect(read('b', [hard])).toEqual([{ path: '/home/u/.bashrc' }]);
    expect(read('b', [hard], { kind: 'delete' })).toEqual([{ path: '/ws/p/b' }]);
  });

  it('a glob that may match a line-made link also reads through it', () => {
    const r = read('?/x', [{ path: '/ws/p/h', kind: 'symlink', target: '/etc', certain: true }], { glob: true });
    expect(r.map((x) => x.path).sort()).toEqual(['/etc/x', '/ws/p/?/x']);
  });
});

describe('root as the user', () => {
  const k = new PathClassifier({ home: '/root', workspaceRoots: ['/root/project'] });
  const other = new PathClassifier({ home: '/home/u', workspaceRoots: ['/ws/p'] });

  it('a workspace under /root is a workspace, not sensitive nor system', () => {
    expect(k.classify('/root/project/README.md', false)).toEqual(['workspace']);
    expect(k.classify('/root/project', false)).toEqual(['workspace']);
  });

  it("root's keys stay sensitive; its other files are its home, not the system", () => {
    expect(k.classify('/root/.ssh/id_rsa', false)).toContain('sensitive');
    expect(k.classify('/root/notes.txt', false)).toEqual(['outside']);
    expect(k.classify('/root', false)).toEqual(['outside', 'home']);
  });

  it('for another user, /root is still sensitive as a whole and a system directory', () => {
    expect(other.classify('/root/notes.txt', false)).toEqual(['outside', 'system', 'sensitive']);
    expect(sensitivePatterns('/home/u')).toContain('/root/**');
    expect(sensitivePatterns('/root')).not.toContain('/root/**');
  });
});

describe('case-insensitive file systems', () => {
  const folding = new PathClassifier({ home: '/home/u', workspaceRoots: ['/ws/p'], caseInsensitive: () => true });
  const exact = new PathClassifier({ home: '/home/u', workspaceRoots: ['/ws/p'], caseInsensitive: () => false });

  it('where names fold, sensitive and exec-config names match without case', () => {
    expect(folding.classify('/ws/p/.ENV', false)).toContain('sensitive');
    expect(folding.classify('/ws/p/.GIT/hooks/pre-commit', false)).toContain('exec-config');
    expect(folding.classify('/ws/p/.EnvRC', false)).toContain('exec-config');
    expect(folding.classify('/home/u/.SSH/id_rsa', false)).toContain('sensitive');
  });

  it('where they do not, a differently cased name is another file', () => {
    expect(exact.classify('/ws/p/.ENV', false)).not.toContain('sensitive');
    expect(exact.classify('/ws/p/.GIT/hooks/pre-commit', false)).not.toContain('exec-config');
    expect(exact.classify('/ws/p/.git/hooks/pre-commit', false)).toContain('exec-config');
  });

  it("folds when the disk cannot tell, and reads this machine's temp dir as case-sensitive", () => {
    expect(foldsCase('/x', () => null)).toBe(true);
    expect(foldsCase('/x', () => false)).toBe(false);
    // Linux file systems here are case-sensitive; a case-insensitive mount is not available to test on.
    const dir = mkdtempSync(join(tmpdir(), 'sg-Case-'));
    writeFileSync(join(dir, 'Readme'), '');
    expect(detectCaseInsensitive(dir)).toBe(false);
  });
});

describe('realpaths read once per analysis', () => {
  it('answer for a path as a fresh read does, whatever its neighbours made the cache learn first', () => {
    const { ws, out } = scratch();
    mkdirSync(join(ws, 'dir', 'sub'), { recursive: true });
    writeFileSync(join(ws, 'dir', 'file'), '');
    symlinkSync(join(out, 'deep'), join(ws, 'abs'));
    symlinkSync('dir', join(ws, 'rel'));
    symlinkSync('dir/file', join(ws, 'tofile'));
    symlinkSync(join(out, 'not-yet'), join(ws, 'dangling'));
    symlinkSync('loop2', join(ws, 'loop1'));
    symlinkSync('loop1', join(ws, 'loop2'));
    symlinkSync('../abs', join(ws, 'dir', 'up'));
    const names = ['dir', 'sub', 'file', 'abs', 'rel', 'tofile', 'dangling', 'loop1', 'up', 'missing', '..'];
    const paths = [ws];
    for (const a of names) {
      paths.push(`${ws}/${a}`);
      for (const b of names) {
        paths.push(`${ws}/${a}/${b}`);
        for (const c of ['x', 'sub', 'up']) paths.push(`${ws}/${a}/${b}/${c}`);
      }
    }
    const fresh = paths.map((p) => new RealpathCache().physical(p));
    for (const order of [paths, [...paths].reverse()]) {
      const shared = new RealpathCache();
      const got = new Map(order.map((p) => [p, shared.physical(p)]));
      expect(paths.map((p) => got.get(p))).toEqual(fresh);
    }
    // Where the path exists, the kernel's own answer.
    for (const [i, p] of paths.entries()) {
      let real: string;
      try {
        real = realpathSync.native(p);
      } catch {
        continue;
      }
      expect(fresh[i], p).toBe(real);
    }
  });
});

describe('realpaths read again each analysis', () => {
  it('answer as a fresh read after the disk changed, though the cache remembers where it looked last', () => {
    const { ws, out } = scratch();
    mkdirSync(join(out, 'deep', 'x'), { recursive: true });
    const paths = ['', '/a', '/a/b', '/a/b/c', '/dir', '/dir/f', '/dir/sub/f', '/link/x', '/link/x/y'].map((p) => ws + p);
    const cache = new RealpathCache(0);
    const check = (t: number) => {
      cache.startAnalysis(t);
      for (const p of paths) expect(cache.physical(p), `${p} at step ${t}`).toBe(new RealpathCache().physical(p));
    };
    check(1);
    mkdirSync(join(ws, 'a', 'b'), { recursive: true }); // missing → there
    check(2);
    rmSync(join(ws, 'a'), { recursive: true }); // there → missing
    symlinkSync(join(out, 'deep'), join(ws, 'a')); // missing → a link
    check(3);
    mkdirSync(join(ws, 'dir', 'sub'), { recursive: true });
    writeFileSync(join(ws, 'dir', 'f'), '');
    check(4);
    renameSync(join(ws, 'dir'), join(ws, 'moved'));
    symlinkSync('/etc', join(ws, 'dir')); // a directory swapped for a link
    symlinkSync(join(out, 'gone'), join(ws, 'link')); // a dangling link
    check(5);
    mkdirSync(join(out, 'gone', 'x'), { recursive: true }); // the link now points somewhere
    check(6);
    rmSync(ws, { recursive: true }); // the workspace itself gone
    check(7);
  });
});

describe('lexical paths', () => {
  it('are what posix.resolve makes of a word in a directory, shortcut or not', () => {
    const cwds = ['/', '/ws/project', '/ws/project/', '/a//b', '/a/./b', '/a/../b', '/.x', '/x/.'];
    const values = [
      '',
      '.',
      '..',
      'a',
      'a/b',
      'a/',
      './a',
      '../a',
      'a/..',
      'a/.',
      '...',
      '.hidden',
      'a/.b',
      'a//b',
      '~/x',
      'a b',
      '-',
      '*.c',
      '/x',
      '/x/',
      '//x',
      '/x/./y',
      '/x/../y',
      '/*',
    ];
    for (const cwd of cwds) for (const v of values) expect(lexicalPath(cwd, v), `${cwd} + ${v}`).toBe(resolvePath(v, cwd));
  });
});
