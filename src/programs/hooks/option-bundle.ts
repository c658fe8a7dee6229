/** Reading a getopt bundle of short options (`-rlZ`) where some letters take the rest of the word as their value. */

/** Does the bundle hold `letter` before any of `valueLetters`, whose value is the rest of the word (`-elfoo`: pattern `lfoo`)? */
export function bundleHas(option: string, letter: string, valueLetters: string): boolean {
  if (!/^-[^-]/.test(option)) return false;
  for (const c of option.slice(1)) {
    if (c === letter) return true;
    if (valueLetters.includes(c)) return false;
  }
  return false;
}
