/**
 * Dockerfiles and Containerfiles: the shell code of RUN (and ONBUILD RUN) at build time, and of
 * CMD, ENTRYPOINT and HEALTHCHECK at container start, with the shell (SHELL) and directory
 * (WORKDIR) each runs with. Build stages are followed: FROM starts afresh, or from the state a
 * named earlier stage ended with.
 */
import { posix } from 'node:path';
import { lintMessage } from '../lint-rules.js';
import { MappedTextBuilder, type MappedText } from '../source-text.js';
import { argvText, jsonStringArray, sliceMapped } from './argv-text.js';
import { flagsEnd, isLoneHeredoc, parseDockerfile, type Heredoc, type Instruction } from './dockerfile-parse.js';
import type { Extracted, Snippet, SourceFinding, SourceKind } from './types.js';

interface StageState {
  shell: string;
  workdir: string;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

const FRESH: StageState = { shell: 'sh', workdir: '/' };

export const dockerfile: SourceKind = {
  name: 'dockerfile',
  matches(path: string): boolean {
    const base = path.slice(path.lastIndexOf('/') + 1);
    if (base.endsWith('.dockerignore')) return false;
    return /^(Dockerfile|Containerfile)(\..+)?$/.test(base) || /.\.(Dockerfile|dockerfile|Containerfile|containerfile)$/.test(base);
  },
  extract(text: string): Extracted {
    return extractDockerfile(text);
  },
};

function unreadable(why: string, start: number, end: number): SourceFinding {
  return { rule: 'lint/unreadable-file', level: 'ask', message: `${lintMessage('lint/unreadable-file', 'a Dockerfile')} (${why})`, start, end };
}

function extractDockerfile(file: string): Extracted {
  const parsed = parseDockerfile(file);
  const snippets: Mutable<Snippet>[] = [];
  const findings: SourceFinding[] = [];
  const stages = new Map<string, StageState>();
  let state: StageState = { ...FRESH };
  let stageName: string | undefined;
  // CMD, ENTRYPOINT and HEALTHCHECK run in the container, in the WORKDIR the stage ends with.
  let atStart: Mutable<Snippet>[] = [];
  const endStage = (): void => {
    for (const s of atStart) s.cwd = state.workdir;
    atStart = [];
    if (stageName !== undefined) stages.set(stageName, { ...state });
  };

  const emit = (origin: string, code: Code | null, runsAtStart: boolean): void => {
    if (code === null || code.text.text.trim() === '') return;
    const s: Mutable<Snippet> = { ...code.text, origin, shell: code.shell, where: 'container', cwd: state.workdir };
    snippets.push(s);
    if (runsAtStart) atStart.push(s);
  };

  for (const ins of parsed.instructions) {
    const rest = afterFlags(ins.args, parsed.escape);
    switch (ins.keyword) {
      case 'FROM': {
        endStage();
        const words = rest.text.split(/\s+/);
        state = { ...(stages.get((words[0] ?? '').toLowerCase()) ?? FRESH) };
        stageName = words[1]?.toLowerCase() === 'as' ? words[2]?.toLowerCase() : undefined;
        break;
      }
      case 'SHELL': {
        const argv = jsonStringArray(rest);
        if (Array.isArray(argv) && argv.length > 0) state.shell = shellName(wordText(argv[0]!), argv[1] && wordText(argv[1]));
        break;
      }
      case 'WORKDIR':
        state.workdir = workdir(state.workdir, rest.text);
        break;
      case 'ONBUILD': {
        // The trigger runs in a build FROM this image; read it with the state here.
        const m = /^(\S+)\s*/.exec(rest.text);
        if (!m) break;
        const sub = m[1]!.toUpperCase();
        const subRest = afterFlags(sliceMapped(rest, m[0].length, rest.text.length), parsed.escape);
        if (sub === 'RUN' || sub === 'CMD' || sub === 'ENTRYPOINT') emit(`ONBUILD ${sub}`, code(file, ins, subRest, state.shell, findings), false);
        break;
      }
      case 'RUN':
        emit('RUN', code(file, ins, rest, state.shell, findings), false);
        break;
      case 'CMD':
      case 'ENTRYPOINT':
        emit(ins.keyword, code(file, ins, rest, state.shell, findings), true);
        break;
      case 'HEALTHCHECK': {
        // HEALTHCHECK [flags] CMD <command> | NONE
        const m = /^CMD\s+/i.exec(rest.text);
        if (m) emit('HEALTHCHECK', code(file, ins, sliceMapped(rest, m[0].length, rest.text.length), state.shell, findings), true);
        break;
      }
    }
  }
  endStage();
  if (parsed.unterminated) {
    const u = parsed.unterminated;
    findings.push(unreadable(`the heredoc <<${u.name} of this ${u.keyword} never ends`, u.start, u.end));
  }
  return { snippets, findings };
}

function afterFlags(args: MappedText, escape: string): MappedText {
  return sliceMapped(args, flagsEnd(args.text, escape), args.text.length);
}

interface Code {
  text: MappedText;
  shell: string;
}

/** The code an instruction's command stands for: exec form as quoted argv, shell form as is, heredocs as Docker hands them to the shell. */
function code(file: string, ins: Instruction, command: MappedText, shell: string, findings: SourceFinding[]): Code | null {
  if (command.text.startsWith('[')) {
    const argv = jsonStringArray(command);
    if (argv === 'not-strings') {
      findings.push(unreadable(`the JSON array of this ${ins.keyword} holds something other than strings`, ins.start, ins.firstLineEnd));
      return null;
    }
    // Exec form runs the program itself, whatever SHELL says; invalid JSON is shell form.
    if (argv !== null) return argv.length === 0 ? null : { text: argvText(argv), shell: 'sh' };
  }
  if (ins.heredocs.length === 0) return { text: command, shell };
  const first = ins.heredocs[0]!;
  if (isLoneHeredoc(command.text)) {
    // `RUN <<EOF`: the body is the script; with a `#!` line it is run as a file by that interpreter.
    const body = heredocBody(file, first);
    const bang = /^#!\s*(\S*)[ \t]*([^\n]*)/.exec(body.text);
    return { text: body, shell: bang ? shebangShell(bang[1]!, bang[2]!) : shell };
  }
  // The command line, then each heredoc's body and delimiter: bash reads the heredocs itself.
  const b = new MappedTextBuilder().mapped(command);
  for (const h of ins.heredocs) {
    b.verbatim('\n', h.bodyStart - 1);
    b.verbatim(file.slice(h.bodyStart, h.bodyEnd), h.bodyStart);
    b.verbatim(h.name, h.nameAt);
  }
  return { text: b.build(), shell };
}

/** A heredoc's body, with leading tabs stripped from each line for `<<-`. */
function heredocBody(file: string, h: Heredoc): MappedText {
  const b = new MappedTextBuilder();
  let s = h.bodyStart;
  while (s < h.bodyEnd) {
    const nl = file.indexOf('\n', s);
    const next = nl < 0 || nl >= h.bodyEnd ? h.bodyEnd : nl + 1;
    let t = s;
    if (h.chomp) while (t < next && file[t] === '\t') t++;
    b.verbatim(file.slice(t, next), t);
    s = next;
  }
  if (b.length === 0) b.synthetic('', h.bodyStart);
  return b.build();
}

function wordText(w: { pieces: readonly unknown[] }): string {
  const p = w.pieces[0] as MappedText | undefined;
  return p?.text ?? '';
}

/** The shell a program path names: `/bin/bash` → bash; sh, ash, dash → sh; `pwsh`, `cmd.exe` → pwsh, cmd. */
export function shellName(program: string, next?: string): string {
  const base = program
    .slice(Math.max(program.lastIndexOf('/'), program.lastIndexOf('\\')) + 1)
    .toLowerCase()
    .replace(/\.exe$/, '');
  if (base === 'bash') return 'bash';
  if (base === 'sh' || base === 'ash' || base === 'dash') return 'sh';
  if (base === 'busybox' && next !== undefined && /^(sh|ash)$/.test(next)) return 'sh';
  return base === '' ? 'sh' : base;
}

/** `#!/usr/bin/env -S python3 -u` → python3; `#!/bin/sh -e` → sh. */
function shebangShell(program: string, args: string): string {
  if (!/(^|\/)env$/.test(program)) return shellName(program);
  const word = args.split(/\s+/).find((w) => w !== '' && !w.startsWith('-') && !w.includes('='));
  return shellName(word ?? program);
}

/**
 * The directory after `WORKDIR value`: absolute, or relative to the one before. A value Docker
 * expands (`$APP_HOME`) or a Windows path cannot be known here: the code is read as running in `/`.
 */
function workdir(before: string, value: string): string {
  const v = value.replace(/^(["'])(.*)\1$/, '$2');
  if (v === '' || v.includes('$') || v.includes('\\') || /^[A-Za-z]:/.test(v)) return '/';
  return posix.resolve(before, v);
}
