/**
 * The playground page: the command and its context in, the decision out, updated as you type
 * (debounced), with the state in the URL fragment so a decision can be shared as a link.
 */
import { isShellDialect, SHELL_DIALECTS, type ShellDialect } from '../syntax/dialects.js';
import './data.js';
import { MODES } from '../policy/modes.js';
import type { PresetName } from '../policy/presets.js';
import type { SettingsFormat } from '../policy/settings.js';
import { decide, type PlaygroundInput, type PlaygroundResult } from './engine.js';

const CHANNELS = ['cli', 'ide', 'chat', 'api', 'non-interactive'];
const $ = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;

interface State {
  c: string;
  m: string;
  /** The shell (absent in links made before it existed: bash). */
  sh?: string;
  ch: string;
  p: string[];
  w: string;
  h: string;
  s: string;
  sf: string;
  f: string;
}

function readForm(): State {
  return {
    c: $<HTMLTextAreaElement>('command').value,
    m: $<HTMLSelectElement>('mode').value,
    sh: $<HTMLSelectElement>('shell').value,
    ch: $<HTMLSelectElement>('channel').value,
    p: ['jail', 'sensitive'].filter((p) => $<HTMLInputElement>(`preset-${p}`).checked),
    w: $<HTMLInputElement>('workspace').value,
    h: $<HTMLInputElement>('home').value,
    s: $<HTMLTextAreaElement>('settings').value,
    sf: $<HTMLSelectElement>('settings-format').value,
    f: $<HTMLTextAreaElement>('files').value,
  };
}

function writeForm(s: Partial<State>): void {
  if (s.c !== undefined) $<HTMLTextAreaElement>('command').value = s.c;
  if (s.m !== undefined) $<HTMLSelectElement>('mode').value = s.m;
  $<HTMLSelectElement>('shell').value = isShellDialect(s.sh) ? s.sh : 'bash';
  if (s.ch !== undefined) $<HTMLSelectElement>('channel').value = s.ch;
  for (const p of ['jail', 'sensitive']) $<HTMLInputElement>(`preset-${p}`).checked = (s.p ?? []).includes(p);
  if (s.w !== undefined) $<HTMLInputElement>('workspace').value = s.w;
  if (s.h !== undefined) $<HTMLInputElement>('home').value = s.h;
  if (s.s !== undefined) $<HTMLTextAreaElement>('settings').value = s.s;
  if (s.sf !== undefined) $<HTMLSelectElement>('settings-format').value = s.sf;
  if (s.f !== undefined) $<HTMLTextAreaElement>('files').value = s.f;
  if (s.s) $<HTMLDetailsElement>('settings-box').open = true;
  if (s.f) $<HTMLDetailsElement>('files-box').open = true;
}

/** The state as a URL fragment: `#` + URI-encoded JSON, readable and shareable. */
const toFragment = (s: State): string => '#' + encodeURIComponent(JSON.stringify(s));

function fromFragment(hash: string): Partial<State> | null {
  if (hash.length < 2) return null;
  try {
    const v = JSON.parse(decodeURIComponent(hash.slice(1))) as unknown;
    return typeof v === 'object' && v !== null ? (v as Partial<State>) : null;
  } catch {
    return null;
  }
}

function el(tag: string, text?: string, cls?: string): HTMLElement {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (cls) e.className = cls;
  return e;
}

/** The command with [start, end) marked. */
function highlighted(command: string, start: number, end: number): HTMLElement {
  const pre = el('pre');
  const code = el('code');
  code.append(command.slice(0, start));
  code.append(el('mark', command.slice(start, Math.max(end, start + 1))));
  code.append(command.slice(Math.max(end, start + 1)));
  pre.append(code);
  return pre;
}

function render(input: PlaygroundInput, r: PlaygroundResult): void {
  const verdict = $('verdict');
  const ferr = $('files-error');
  ferr.hidden = r.fileErrors.length === 0;
  ferr.textContent = r.fileErrors.join('; ');
  const err = $('settings-error');
  err.hidden = r.settingsError === null;
  err.textContent = r.settingsError ?? '';
  verdict.replaceChildren();
  const d = r.decision;
  if (!d) {
    verdict.className = 'ask';
    verdict.append(el('span', 'settings error', 'level ask'), ' — the decision needs valid settings');
    for (const id of ['findings', 'commands', 'layers']) $(id).replaceChildren();
    return;
  }
  verdict.className = d.level;
  verdict.append(el('span', d.level, `level ${d.level}`), ` — ${d.reason}`, el('div', `decided by ${d.layer} in ${r.ms.toFixed(1)} ms`, 'muted'));
  const findings = $('findings');
  findings.replaceChildren();
  for (const f of d.findings) {
    const li = el('li');
    const head = el('div');
    head.append(
      el('span', f.level, `level ${f.level}`),
      ' ',
      el('code', f.rule),
      el('span', ` [${f.category}${f.attack?.length ? ', ATT&CK ' + f.attack.join(' ') : ''}]`, 'muted'),
    );
    li.append(head, el('div', f.message), highlighted(input.command, f.span.start, f.span.end));
    findings.append(li);
  }
  if (d.findings.length === 0) findings.append(el('li', 'none', 'muted'));
  const commands = $('commands');
  commands.replaceChildren();
  const v = d.verdict;
  for (const c of v?.commands ?? []) {
    const li = el('li');
    li.append(el('code', [c.program ?? c.programRaw, ...c.args.map((a) => a.value)].join(' ')));
    if (c.context.via.length) li.append(el('span', `  via ${c.context.via.join(' › ')}`, 'muted'));
    const ops = el('ul');
    for (const op of v!.operations.filter((o) => o.command === c.id)) {
      const what = op.path ?? op.url ?? op.host ?? op.program ?? op.target ?? '';
      ops.append(el('li', `${op.kind} ${what}${op.dynamic ? ' (dynamic)' : ''}${op.classes?.length ? ` [${op.classes.join(', ')}]` : ''}`));
    }
    li.append(ops);
    commands.append(li);
  }
  const layers = $('layers');
  layers.replaceChildren();
  for (const t of d.trace) layers.append(el('li', `${t.layer}: ${t.level} — ${t.reason}`));
  const tree = $('tree');
  tree.replaceChildren();
  if (r.parse) tree.append(astNode(r.parse.script as unknown as AstLike, input.command));
  for (const issue of r.parse?.issues ?? []) tree.append(el('p', `parse issue: ${JSON.stringify(issue)}`, 'error'));
  const disk = $('disk');
  disk.hidden = r.diskQueries.length === 0;
  disk.textContent = r.diskQueries.length
    ? `This page has no files but the workspace and home directories. The analysis looked at ${r.diskQueries.join(', ')}: on a real machine what is there (a symlink, a .git/config, a file that exists) may change the verdict.`
    : '';
}

interface AstLike {
  type: string;
  span?: { start: number; end: number };
  [key: string]: unknown;
}
const isNode = (v: unknown): v is AstLike => typeof v === 'object' && v !== null && typeof (v as AstLike).type === 'string';

/** One AST node as a collapsible entry: its type, its text, then its child nodes by field. */
function astNode(node: AstLike, command: string): HTMLElement {
  const children: [string, AstLike][] = [];
  for (const [k, v] of Object.entries(node)) {
    if (k === 'span') continue;
    for (const c of Array.isArray(v) ? v : [v]) if (isNode(c)) children.push([k, c]);
  }
  const text = node.span ? command.slice(node.span.start, node.span.end) : '';
  const label = el('span');
  label.append(el('strong', node.type), ' ', el('code', text.length > 80 ? text.slice(0, 79) + '…' : text));
  if (children.length === 0) {
    const leaf = el('div', undefined, 'leaf');
    leaf.append(label);
    return leaf;
  }
  const d = document.createElement('details');
  d.open = true;
  const summary = document.createElement('summary');
  summary.append(label);
  d.append(summary);
  for (const [field, c] of children) {
    const row = el('div', undefined, 'child');
    row.append(el('span', field + ': ', 'muted'), astNode(c, command));
    d.append(row);
  }
  return d;
}

let timer: ReturnType<typeof setTimeout> | undefined;
let generation = 0;

async function update(): Promise<void> {
  const s = readForm();
  history.replaceState(null, '', toFragment(s));
  ($('share') as HTMLAnchorElement).href = toFragment(s);
  const input: PlaygroundInput = {
    command: s.c,
    ...(s.m !== 'default' ? { mode: s.m as PlaygroundInput['mode'] } : {}),
    ...(s.sh && s.sh !== 'bash' ? { shell: s.sh as ShellDialect } : {}),
    ...(s.ch !== 'cli' ? { channel: s.ch } : {}),
    presets: s.p as PresetName[],
    workspace: s.w.startsWith('/') ? s.w : '/home/user/project',
    home: s.h.startsWith('/') ? s.h : '/home/user',
    settings: s.s,
    settingsFormat: s.sf as SettingsFormat,
    files: s.f,
  };
  const mine = ++generation;
  const r = await decide(input);
  if (mine === generation) render(input, r);
  document.body.dataset.ready = 'true';
}

function schedule(): void {
  clearTimeout(timer);
  timer = setTimeout(() => void update(), 120);
}

function init(): void {
  const mode = $<HTMLSelectElement>('mode');
  for (const m of MODES) mode.append(new Option(m, m, m === 'default', m === 'default'));
  const shell = $<HTMLSelectElement>('shell');
  for (const d of SHELL_DIALECTS) shell.append(new Option(d, d, d === 'bash', d === 'bash'));
  const channel = $<HTMLSelectElement>('channel');
  for (const c of CHANNELS) channel.append(new Option(c, c, c === 'cli', c === 'cli'));
  const shared = fromFragment(location.hash);
  if (shared) writeForm(shared);
  for (const id of ['command', 'workspace', 'home', 'settings', 'files']) $(id).addEventListener('input', schedule);
  for (const id of ['mode', 'shell', 'channel', 'settings-format', 'preset-jail', 'preset-sensitive']) $(id).addEventListener('change', schedule);
  window.addEventListener('hashchange', () => {
    const s = fromFragment(location.hash);
    if (s && JSON.stringify(s) !== JSON.stringify(readForm())) {
      writeForm(s);
      void update();
    }
  });
  void update();
}

init();
