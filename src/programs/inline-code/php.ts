/** PHP one-liners (`php -r`) are not proven yet: a stub so the dispatcher names every language it knows. */
import { notProven, type Proof } from './proof.js';

export function provePhp(_code: string): Proof {
  return notProven('PHP code is not proven');
}
