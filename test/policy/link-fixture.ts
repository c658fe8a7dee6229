/**
 * A workspace full of the links an attacker plants (issue 29, item 1), on disk in a temp dir, with
 * a home of its own: tests pass it as the context's (or the CLI's HOME), never the real one.
 *
 *   home/.ssh/id_rsa, home/.bashrc, home/.config/
 *   ws/.env  ws/.hidden-notes  ws/src/a.ts  ws/config/prod.yml  ws/secretdir/k
 *   ws/homelink -> home        ws/rootlink -> /          ws/src/keys -> home/.ssh
 *   ws/src/envlink -> ../.env  ws/sshlink -> home/.ssh  ws/chain -> homelink (a link to a link)
 *   ws/loop1 -> loop2 -> loop1 (ELOOP)
 *   wslink -> ws (a workspace reached through a link)
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface LinkFixture {
  base: string;
  home: string;
  ws: string;
  wslink: string;
  remove(): void;
}

export function makeLinkFixture(): LinkFixture {
  const base = mkdtempSync(join(tmpdir(), 'sg-links-'));
  const home = join(base, 'home');
  const ws = join(base, 'ws');
  for (const d of [join(home, '.ssh'), join(home, '.config'), join(ws, 'src'), join(ws, 'config'), join(ws, 'secretdir')]) mkdirSync(d, { recursive: true });
  writeFileSync(join(home, '.ssh', 'id_rsa'), 'KEY\n');
  writeFileSync(join(home, '.bashrc'), 'alias x=y\n');
  writeFileSync(join(ws, '.env'), 'SECRET=1\n');
  writeFileSync(join(ws, '.hidden-notes'), 'notes\n');
  writeFileSync(join(ws, 'src', 'a.ts'), 'export {};\n');
  writeFileSync(join(ws, 'config', 'prod.yml'), 'password: x\n');
  writeFileSync(join(ws, 'secretdir', 'k'), 'k\n');
  symlinkSync(home, join(ws, 'homelink'));
  symlinkSync('/', join(ws, 'rootlink'));
  symlinkSync(join(home, '.ssh'), join(ws, 'src', 'keys'));
  symlinkSync('../.env', join(ws, 'src', 'envlink'));
  symlinkSync(join(home, '.ssh'), join(ws, 'sshlink'));
  symlinkSync('homelink', join(ws, 'chain'));
  symlinkSync('loop2', join(ws, 'loop1'));
  symlinkSync('loop1', join(ws, 'loop2'));
  const wslink = join(base, 'wslink');
  symlinkSync(ws, wslink);
  return { base, home, ws, wslink, remove: () => rmSync(base, { recursive: true, force: true }) };
}

/** A workspace with no link and no secret: what stays allowed. */
export function makePlainWorkspace(): { ws: string; home: string; remove(): void } {
  const base = mkdtempSync(join(tmpdir(), 'sg-plain-'));
  const ws = join(base, 'ws');
  const home = join(base, 'home');
  mkdirSync(join(ws, 'src'), { recursive: true });
  mkdirSync(home);
  writeFileSync(join(ws, 'src', 'a.ts'), 'export {};\n');
  return { ws, home, remove: () => rmSync(base, { recursive: true, force: true }) };
}
