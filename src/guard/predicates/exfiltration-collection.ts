/**
 * Named predicates for collection and staging (rules/builtin/exfiltration.json): the first steps
 * of exfiltration, before anything leaves the machine — the screen, the microphone or the
 * clipboard captured, data archived (encrypted, or whole directories) where it can be picked up.
 */
import type { Subject } from '../subject.js';
import type { Operation } from '../../ops/types.js';
import { forPrograms, requires, type Predicate } from './programs.js';
import { isSecretPath, isSecretRead } from './exfiltration-secrets.js';
import { HOME_DIR } from './exfiltration-serve.js';

/** Words of the command, after expansion. */
function words(s: Subject): string[] {
  return s.cmd.args.map((a) => a.value);
}

/** The value of `-f FORMAT` (ffmpeg's input format), wherever it is. */
function ffmpegFormats(s: Subject): string[] {
  const args = words(s);
  return args.flatMap((a, i) => (a === '-f' && i + 1 < args.length ? [args[i + 1]] : []));
}

// ---------------------------------------------------------------------------------------------
// Screen, microphone, clipboard

const SCREEN_TOOLS = [
  'screencapture',
  'import',
  'xwd',
  'gnome-screenshot',
  'scrot',
  'maim',
  'grim',
  'spectacle',
  'xfce4-screenshooter',
  'flameshot',
  'ffmpeg',
  'magick',
];

/**
 * Captures the screen: macOS `screencapture` (not `-h`), ImageMagick `import -window root`,
 * `xwd -root`, the desktop screenshot tools, and ffmpeg reading a display device (x11grab,
 * gdigrab, kmsgrab, avfoundation). ImageMagick's `import` of one window the user picks by
 * clicking is a capture too, but `import` also names Python's keyword in pasted code: only the
 * root window counts.
 */
function capturesScreen(s: Subject): boolean {
  const p = s.cmd.program;
  const args = words(s);
  if (p === 'screencapture') return !args.some((a) => a === '-h' || a === '--help');
  if (p === 'magick' && args[0] !== 'import') return false;
  if (p === 'import' || p === 'magick') return args.some((a, i) => a === '-window' && args[i + 1] === 'root');
  if (p === 'xwd') return args.includes('-root');
  if (p === 'ffmpeg') return ffmpegFormats(s).some((f) => /^(x11grab|gdigrab|kmsgrab|avfoundation|fbdev|xcbgrab)$/.test(f));
  if (p === 'flameshot') return ['full', 'screen', 'gui'].includes(args[0] ?? '');
  if (p === null || !SCREEN_TOOLS.includes(p)) return false;
  return !args.some((a) => /^(-h|--help|-v|--version|-V)$/.test(a));
}

const AUDIO_TOOLS = ['arecord', 'rec', 'sox', 'parecord', 'parec', 'pw-record', 'pw-cat', 'ffmpeg'];

/**
 * Records from the microphone: `arecord`, `rec`, `parecord`/`parec`, `pw-record`, `sox -d OUT`
 * (the default device as *input*: `sox in.wav -d` plays), ffmpeg from a sound server or card.
 */
function capturesAudio(s: Subject): boolean {
  const p = s.cmd.program;
  const args = words(s);
  if (args.some((a) => /^(-h|--help|--version|-l|-L|--list-devices|--list-pcms)$/.test(a))) return false;
  if (p === 'sox') {
    const files = args.filter((a) => !a.startsWith('-') || a === '-d' || a === '--default-device');
    return files.length >= 2 && (files[0] === '-d' || files[0] === '--default-device');
  }
  if (p === 'pw-cat') return args.includes('--record') || args.includes('-r');
  if (p === 'ffmpeg') return ffmpegFormats(s).some((f) => /^(alsa|pulse|openal|oss|jack|sndio|pipewire)$/.test(f));
  return p !== null && AUDIO_TOOLS.includes(p);
}

const CLIPBOARD_READERS = ['pbpaste', 'xclip', 'xsel', 'wl-paste', 'termux-clipboard-get'];

/** Reads the clipboard: pbpaste, wl-paste, `xclip -o`, `xsel -o` (xsel prints it unless told to set or clear). */
function readsClipboard(s: Subject): boolean {
  const p = s.cmd.program;
  const args = words(s);
  if (p === 'xclip') return args.some((a) => /^-o(ut?)?$|^-out$/.test(a));
  if (p === 'xsel')
    return args.some((a) => /^-[a-zA-Z]*o|^--output$/.test(a)) && !args.some((a) => /^-[a-zA-Z]*[icdax]|^--(input|clear|delete|append|follow)$/.test(a));
  return p !== null && CLIPBOARD_READERS.includes(p) && !args.some((a) => /^(-h|--help|--version|-l|--list-types)$/.test(a));
}

/**
 * The clipboard is harvested rather than looked at: read in a loop, saved to a file outside the
 * workspace (a temp file counts), piped on to a network client, or run as a command (`$(pbpaste)`).
 */
function harvestsClipboard(s: Subject): boolean {
  if (!readsClipboard(s)) return false;
  if (s.cmd.context.loop) return true;
  const outsideWrite = (o: Subject) =>
    o.ops.some((x) => x.kind === 'Write' && !(x.classes ?? []).includes('workspace') && (x.classes ?? []).some((c) => c !== 'special-device'));
  if (outsideWrite(s) || s.pipelineNeighbours('after').some((o) => outsideWrite(o) || o.ops.some((x) => x.kind === 'Network'))) return true;
  const host = s.cmd.substitutionOf === null ? null : s.all[s.cmd.substitutionOf];
  return host !== undefined && host !== null && (host.cmd.program === null || host.cmd.program === 'eval');
}

// ---------------------------------------------------------------------------------------------
// Staging: archives of what is not the project's

/**
 * The command encrypts what it archives or writes: `zip -P|--password|-e`, `7z a -pSECRET`,
 * `rar a -p|-hp`, `gpg -c|--symmetric|-e|--encrypt`, `openssl enc` (not `-d`) or a bare cipher
 * command (`openssl des3`, `openssl aes-256-cbc`), `ccrypt`, `age -p|-r`.
 */
function encrypts(s: Subject): boolean {
  const p = s.cmd.program;
  const args = words(s);
  if (p === 'zip') return args.some((a) => /^-[a-zA-Z]*[Pe]|^--(password|encrypt)(=|$)/.test(a));
  if (p === '7z' || p === '7za' || p === '7zz' || p === '7zr') return args[0] === 'a' && args.some((a) => /^-p./.test(a) || a === '-p');
  if (p === 'rar') return args[0] === 'a' && args.some((a) => /^-h?p/.test(a));
  if (p === 'gpg' || p === 'gpg2')
    return args.some((a) => /^-[a-zA-Z]*[ce]|^--(symmetric|encrypt)$/.test(a)) && !args.some((a) => /^--(decrypt|verify)$|^-d$/.test(a));
  if (p === 'openssl') {
    const sub = args[0] ?? '';
    if (args.some((a) => a === '-d')) return false;
    return sub === 'enc' || /^(des|des3|aes-\d+-\w+|aes\d+|bf|camellia\S*|chacha20|rc4|sm4\S*|seed)$/i.test(sub);
  }
  if (p === 'ccrypt') return !args.some((a) => /^-[a-zA-Z]*[dc]$|^--(decrypt|cat)$/.test(a));
  if (p === 'age')
    return args.some((a) => /^-(p|r|R)$|^--(passphrase|recipient|recipients-file)$/.test(a)) && !args.some((a) => a === '-d' || a === '--decrypt');
  return false;
}

const ENCRYPTERS = ['zip', '7z', '7za', '7zz', '7zr', 'rar', 'gpg', 'gpg2', 'openssl', 'ccrypt', 'age'];

/** Archivers in archive-creating mode. */
function archives(s: Subject): boolean {
  const p = s.cmd.program;
  const args = words(s);
  // `tar czf …` (old style, first word), `tar -czf …`, `tar --create …`
  if (p === 'tar' || p === 'bsdtar' || p === 'gtar')
    return args.some((a, i) => a === '--create' || (/^-?[a-zA-Z]+$/.test(a) && a.includes('c') && (a.startsWith('-') || i === 0)));
  if (p === 'zip' || p === 'jar' || p === 'pax' || p === 'ditto') return p !== 'ditto' || args.some((a) => /^-[a-zA-Z]*c/.test(a));
  if (p === '7z' || p === '7za' || p === '7zz' || p === '7zr' || p === 'rar') return args[0] === 'a';
  if (p === 'cpio') return args.some((a) => /^-[a-zA-Z]*o|^--create$/.test(a));
  if (p === 'gzip' || p === 'bzip2' || p === 'xz' || p === 'zstd' || p === 'pigz')
    return !args.some((a) => /^-[a-zA-Z]*[dlt]|^--(decompress|list|test)$/.test(a));
  return false;
}

const ARCHIVERS = ['tar', 'bsdtar', 'gtar', 'zip', 'jar', 'pax', 'ditto', '7z', '7za', '7zz', '7zr', 'rar', 'cpio', 'gzip', 'bzip2', 'xz', 'zstd', 'pigz'];

/**
 * Directories that hold a user's or the system's data as a whole: a home directory (any user's,
 * or all of them), /root, /etc, the logs, the mail spool, a web root, and a home's personal
 * folders (Documents, Desktop, Downloads, Pictures, Library…).
 */
const COLLECTION_DIR =
  /^\/(home|Users)(\/\*)?\/?$|^\/(etc|var\/log|var\/mail|var\/spool\/mail|var\/www|srv)(\/\*)?\/?$|^\/(home\/[^/]+|Users\/[^/]+|root)\/(Documents|Desktop|Downloads|Pictures|Movies|Music|Library(\/[^/]+)?|Mail|\.mozilla|\.thunderbird|\.config\/(google-chrome|chromium|BraveSoftware))(\/\*)?\/?$/;

/** The operation reads one of the collection directories, a whole home directory or the filesystem root. */
function readsCollectionDir(o: { kind: string; path?: string; target?: string; classes?: readonly string[]; glob?: boolean; dynamic?: boolean }): boolean {
  if (o.kind !== 'Read' && o.kind !== 'List') return false;
  // `$HOME/$USERNAME`: one unknown name under a home directory may be nothing, i.e. the home itself
  if (o.dynamic && o.target !== undefined && /^\/(home\/[^/]+|Users\/[^/]+|root)\/\$\{?[A-Za-z_][A-Za-z0-9_]*\}?\/?$/.test(o.target)) return true;
  if (o.path === undefined) return false;
  const path = o.path.replace(/\/+$/, '') || '/';
  if (path === '/' || path === '/*' || HOME_DIR.test(path)) return true;
  if (!o.glob && (o.classes ?? []).includes('home')) return true;
  // the logs and the mail spool, whole or file by file (`/var/log/wtmp`: who logged in, from where)
  if (/^\/var\/(log|mail|spool\/mail)\//.test(path)) return true;
  return COLLECTION_DIR.test(path) || /^\/(home|Users)\/[^/]+\/\*$/.test(path);
}

/** An archiver reads a collection directory (`tar czf /tmp/h.tgz ~`, `zip -r x.zip /var/log`, `ditto -c -k ~/Library/Keychains …`). */
function archivesCollection(s: Subject): boolean {
  return archives(s) && readsOf(s).some((o) => readsCollectionDir(o) && !('span' in o ? isSecretRead(o) : isSecretPath(o.path, o.classes)));
}

/** A path operand of a program shellgate has no spec for, as the read it most likely is. */
interface TextRead {
  kind: 'Read';
  path: string;
  classes: string[];
  glob: boolean;
}

/**
 * The command's reads; for a program without a spec (ditto, gpg), whose operations are unknown,
 * its absolute path arguments (`~` already expanded) stand for them.
 */
function readsOf(s: Subject): readonly (Operation | TextRead)[] {
  if (s.ops.some((o) => o.kind === 'Read' || o.kind === 'List' || o.kind === 'Write')) return s.ops;
  const cwd = (s.cmd.cwd ?? '').replace(/\/$/, '');
  return s.cmd.args
    .filter((a) => a.value.startsWith('/') && !a.value.startsWith('/dev/') && (cwd === '' || !(a.value + '/').startsWith(cwd + '/')))
    .map((a) => ({ kind: 'Read', path: a.value, classes: ['outside'], glob: a.glob }));
}

/** Encrypts (see `encrypts`) data from outside the workspace or into a file outside it. */
function encryptsOutside(s: Subject): boolean {
  if (!encrypts(s)) return false;
  return readsOf(s).some((o) => (o.classes ?? []).some((c) => STAGING_CLASSES.has(c)) && !(o.classes ?? []).includes('workspace'));
}

const STAGING_CLASSES: ReadonlySet<string> = new Set(['outside', 'temp', 'home', 'root', 'system', 'sensitive']);

/** Whole-user or whole-system data: every home (`/home`, `/home/*`, `/Users/*`), /root, /etc. */
const BULK_DIR = /^\/(home|Users)(\/\*)?$|^\/etc(\/\*)?$|^\/root(\/\*|\/\.\*)?$/;

/**
 * The operation reads bulk data: the analysis's own home directory (or everything in it), every
 * home, /root, /etc or the filesystem root. Another single user's directory (`/home/user1`) is
 * a migration as often as a theft and is left to the ask rules.
 */
export function readsBulk(o: { kind: string; path?: string; classes?: readonly string[]; glob?: boolean }): boolean {
  if ((o.kind !== 'Read' && o.kind !== 'List') || o.path === undefined) return false;
  const path = o.path.replace(/\/+$/, '') || '/';
  if (path === '/' || path === '/*' || BULK_DIR.test(path)) return true;
  const classes = o.classes ?? [];
  if (!o.glob) return classes.includes('home') || classes.includes('root');
  // `~/*`, `~/.*`: everything one level down in the own home
  const m = /^(.*?)\/(\*|\.\*)$/.exec(path);
  return m !== null && classes.includes('home') && HOME_DIR.test(m[1]);
}

// ---------------------------------------------------------------------------------------------
// Interpreters that archive system files

/** Inline Python that compresses or archives a system or home file: `tarfile`/`zipfile`/`gzip`/`bz2`/`lzma`/`shutil.make_archive` on /etc/…, /var/log/…, ~. */
function interpreterArchivesSystemFile(s: Subject): boolean {
  // A python found at run time (`py=$(which python3); $py -c …`) is walked as python too
  // (walk/found-programs.ts), so its code is read here like any other.
  const code = s.interpreter === 'python' ? s.code : null;
  if (code === null) return false;
  return (
    /\b(tarfile|zipfile|ZipFile|gzip|bz2|lzma|make_archive)\b/.test(code) && /['"](\/etc\/|\/var\/log\/|\/home\/|\/Users\/|\/root\/|~)|expanduser/.test(code)
  );
}

// ---------------------------------------------------------------------------------------------
// Size-limited transfer (T1030)

/** `split -b|-C|-n` of a file outside the workspace, or into chunks outside it (not the project's own files). */
function splitsOutside(s: Subject): boolean {
  if (s.cmd.program !== 'split' && s.cmd.program !== 'gsplit') return false;
  const args = words(s);
  if (!args.some((a) => /^-[a-zA-Z]*[bCn]|^--(bytes|line-bytes|number)(=|$)/.test(a))) return false;
  const outside = (c: readonly string[] | undefined) =>
    !(c ?? []).includes('workspace') && (c ?? []).some((x) => ['outside', 'temp', 'home', 'system', 'root'].includes(x));
  return s.ops.some((o) => (o.kind === 'Read' || o.kind === 'Write') && outside(o.classes));
}

export const collectionPredicates: Record<string, Predicate> = {
  'exfiltration/captures-screen': forPrograms(SCREEN_TOOLS, capturesScreen),
  'exfiltration/captures-audio': forPrograms(AUDIO_TOOLS, capturesAudio),
  'exfiltration/harvests-clipboard': forPrograms(CLIPBOARD_READERS, harvestsClipboard),
  'exfiltration/encrypts-outside': forPrograms(ENCRYPTERS, encryptsOutside),
  'exfiltration/archives-collection': forPrograms(ARCHIVERS, archivesCollection),
  // Not declared as programs: python has many names (python3.11, pypy3…); it has inline code.
  'exfiltration/interpreter-archives-system-file': requires([{ features: ['code'] }], interpreterArchivesSystemFile),
  'exfiltration/splits-outside': forPrograms(['split', 'gsplit'], splitsOutside),
};
