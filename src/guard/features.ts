/**
 * The vocabulary of the guard's prefilter: the features a command can have (its operation kinds,
 * flags such as `code` or `pipeline`, the top directories its paths lie under) as bits, the Bloom
 * bits of its arguments' starts, and how a predicate declares what it needs (`NeedSpec`). Nothing
 * here knows a rule or a predicate, so predicates and the rule compiler can both build on it.
 */
import type { OpKind } from '../ops/types.js';

/** Every operation kind, in bit order (a test of the compiler checks the list is complete). */
export const OP_KINDS = [
  'Read',
  'Write',
  'Delete',
  'List',
  'Exec',
  'Network',
  'Privilege',
  'Env',
  'Process',
  'System',
  'Unknown',
] as const satisfies readonly OpKind[];
// Every OpKind is listed: adding one to ops/types.ts without adding it here fails to compile.
const allKindsListed: Exclude<OpKind, (typeof OP_KINDS)[number]> extends never ? true : never = true;
void allKindsListed;

/** What a command has, apart from the top directories of its paths. */
const FLAGS = [
  'code',
  'redirect',
  'pipeline',
  'privileged',
  'remote',
  'substitution',
  'background',
  'loop',
  'in-function',
  'execs-stdin',
  'args',
  'feeders',
  'parent',
  /** The program word is dynamic or holds quotes, escapes, expansions or glob characters. */
  'odd-name',
  'infinite-loop',
  /** It calls a function defined on the line. */
  'calls-function',
  /** Some command of the line fetches from the network (a fetch tool, or a Network operation). */
  'line-fetches',
] as const;

/**
 * Top directories of the paths a command touches (its operations' paths and its redirects'
 * words): `path:/etc` for `/etc` and everything below it. `path:~` is the analysis's home and
 * below (besides its own top directory), `path:/dev (special)` the harmless devices (/dev/null,
 * /dev/stdout, /dev/fd/N…), `path:relative` a word that is not absolute, `path:other` any
 * other top directory.
 */
const AREAS = [
  'path:/etc',
  'path:/var',
  'path:/usr',
  'path:/lib',
  'path:/sys',
  'path:/proc',
  'path:/dev',
  'path:/dev (special)',
  'path:/boot',
  'path:/bin',
  'path:/root',
  'path:/home',
  'path:/tmp',
  'path:/opt',
  'path:/run',
  'path:/macos',
  'path:~',
  'path:relative',
  'path:other',
] as const;

export type Feature = OpKind | (typeof FLAGS)[number] | (typeof AREAS)[number];

/** Operation kinds and flags in bit order (for weights by bit), and the areas in theirs. */
export const FEATURE_BITS: readonly string[] = [...OP_KINDS, ...FLAGS];
export const AREA_BITS: readonly string[] = AREAS;
const BIT = new Map<string, number>(FEATURE_BITS.map((k, i) => [k, 1 << i]));
const AREA_BIT = new Map<string, number>(AREAS.map((k, i) => [k, 1 << i]));
/** The bit of an operation kind or flag (0 for anything else). */
export const bit = (f: string): number => BIT.get(f) ?? 0;
/** The bit of an area (0 for anything else). */
export const area = (f: string): number => AREA_BIT.get(f) ?? 0;
/** Some operation, whichever its kind. */
export const ANY_OP = OP_KINDS.reduce((a, k) => a | bit(k), 0);
export const ALL_AREAS = (1 << AREAS.length) - 1;

/** Top directory name → area. */
const TOP = new Map<string, number>([
  ['etc', area('path:/etc')],
  ['var', area('path:/var')],
  ['usr', area('path:/usr')],
  ['lib', area('path:/lib')],
  ['lib32', area('path:/lib')],
  ['lib64', area('path:/lib')],
  ['libx32', area('path:/lib')],
  ['sys', area('path:/sys')],
  ['proc', area('path:/proc')],
  ['dev', area('path:/dev')],
  ['boot', area('path:/boot')],
  ['bin', area('path:/bin')],
  ['sbin', area('path:/bin')],
  ['root', area('path:/root')],
  ['home', area('path:/home')],
  ['Users', area('path:/home')],
  ['tmp', area('path:/tmp')],
  ['opt', area('path:/opt')],
  ['srv', area('path:/opt')],
  ['snap', area('path:/opt')],
  ['run', area('path:/run')],
  ['Library', area('path:/macos')],
  ['System', area('path:/macos')],
  ['Applications', area('path:/macos')],
  ['private', area('path:/macos')],
]);
const DEV = area('path:/dev');
const DEV_SPECIAL = area('path:/dev (special)');
export const HOME = area('path:~');
const RELATIVE = area('path:relative');
const OTHER = area('path:other');
/** The harmless devices (as paths/classify.ts reads them), and the names under /dev they start with. */
const SPECIAL_DEVICE = /^\/dev\/(null|zero|u?random|full|stdin|stdout|stderr|tty|fd\/\d+|pts\/\d+)$/;
const SPECIAL_DEVICE_NAMES = new Set(['null', 'zero', 'random', 'urandom', 'full', 'stdin', 'stdout', 'stderr', 'tty', 'fd', 'pts']);
/** Characters that make a pattern component something else than its text (picomatch's syntax). */
export const PATTERN_SYNTAX = /[*?[\]{}()!+@\\|]/;

/** The area of an absolute path (or any word: `path:relative` when it is not absolute). */
export function areaOf(path: string): number {
  if (path.charCodeAt(0) !== 47) return RELATIVE;
  const end = path.indexOf('/', 1);
  const top = TOP.get(end < 0 ? path.slice(1) : path.slice(1, end)) ?? OTHER;
  return top === DEV && SPECIAL_DEVICE.test(path) ? DEV_SPECIAL : top;
}

/**
 * The areas a path must have for the glob `pattern` to match it (picomatch's syntax, `~` the
 * analysis's home): a literal first component names its one area; anything else may match anywhere.
 */
export function patternAreas(pattern: string): number {
  if (process.platform === 'win32') return ALL_AREAS;
  if (pattern === '~' || pattern.startsWith('~/')) return HOME;
  if (!pattern.startsWith('/')) return ALL_AREAS;
  const end = pattern.indexOf('/', 1);
  const first = end < 0 ? pattern.slice(1) : pattern.slice(1, end);
  if (first === '' || PATTERN_SYNTAX.test(first)) return ALL_AREAS;
  const top = TOP.get(first) ?? OTHER;
  if (top !== DEV || end < 0) return top;
  // Under /dev: a literal pattern is one path; else the harmless devices are out of reach only
  // when the name after /dev/ is literal and none of theirs.
  const rest = pattern.slice(end + 1);
  if (!PATTERN_SYNTAX.test(rest)) return SPECIAL_DEVICE.test(pattern) ? DEV_SPECIAL : DEV;
  const next = rest.indexOf('/');
  const second = next < 0 ? rest : rest.slice(0, next);
  return second !== '' && !PATTERN_SYNTAX.test(second) && !SPECIAL_DEVICE_NAMES.has(second) ? DEV : DEV | DEV_SPECIAL;
}

/**
 * A subject's features: flags and operation kinds, the areas of its paths, and the starts of its
 * arguments (a 32-bit Bloom filter of each argument's first two and first three characters, ASCII
 * letters folded to lower case: `argStart`).
 */
export interface Features {
  bits: number;
  areas: number;
  starts: number;
}

/** How a predicate states what it needs (predicates/programs.ts `requires`). */
export interface NeedSpec {
  features?: readonly Feature[];
  programs?: Iterable<string>;
  /** For programs matched by a pattern (`python3.11`): true for every program the predicate may hold for. */
  program?: (name: string) => boolean;
}

const fold = (c: number): number => (c >= 65 && c <= 90 ? c + 32 : c);

/** The Bloom bit of a start of two or three characters (`c` is -1 for two). */
function startBit(a: number, b: number, c: number): number {
  return 1 << (Math.imul((a << 16) ^ (b << 8) ^ (c + 1) ^ (c < 0 ? 0x9e37 : 0), 0x9e3779b1) >>> 27);
}

/** The Bloom bits of every argument's first two and three characters. */
export function argStarts(values: readonly { value: string }[]): number {
  let m = 0;
  for (const { value } of values) {
    if (value.length < 2) continue;
    const a = fold(value.charCodeAt(0));
    const b = fold(value.charCodeAt(1));
    m |= startBit(a, b, -1);
    if (value.length > 2) m |= startBit(a, b, fold(value.charCodeAt(2)));
  }
  return m;
}

/** The Bloom bit an argument starting with `prefix` (two characters or more) has; 0 for a shorter one. */
export function startOf(prefix: string): number {
  if (prefix.length < 2) return 0;
  const a = fold(prefix.charCodeAt(0));
  const b = fold(prefix.charCodeAt(1));
  return prefix.length === 2 ? startBit(a, b, -1) : startBit(a, b, fold(prefix.charCodeAt(2)));
}
