/**
 * Look a key up in a plain object without reaching its prototype: program names and option
 * spellings come from the analysed command, and `valueOf` or `constructor` must not find
 * Object.prototype's functions.
 */
export function own<T>(obj: Readonly<Record<string, T>> | undefined, key: string): T | undefined {
  return obj !== undefined && Object.prototype.hasOwnProperty.call(obj, key) ? obj[key] : undefined;
}
