/** The one error type shellgate throws: bad options, bad config, bad input type. */

export type ErrorKind = 'options' | 'config' | 'input' | 'internal';

export class ShellgateError extends Error {
  constructor(
    readonly kind: ErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'ShellgateError';
  }
}
