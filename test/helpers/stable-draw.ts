/**
 * A sample drawn by each command's own text: a command is in it when a hash of the salt and the
 * command falls under the rate. Whether one command is drawn never depends on the others, so adding
 * a corpus line adds at most that line to a sample, and the cases settled by hand for the commands
 * drawn before stay drawn (a draw by index or by a shuffled order shifted every later one).
 */

/** 32-bit FNV-1a over the UTF-16 code units, then murmur3's finaliser to spread the low bits. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Is `command` drawn, at `rate` (0…1) under `salt`? Different salts give independent samples. */
export function drawn(command: string, rate: number, salt: string): boolean {
  return hash(`${salt}\0${command}`) < rate * 4294967296;
}
