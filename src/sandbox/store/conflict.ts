/** A write the store refuses; the HTTP layer maps `reason` to a problem response. */
export class StoreConflict extends Error {
  constructor(
    readonly reason: 'key-conflict' | 'limit-reached' | 'not-found' | 'precondition-failed',
    message: string,
    /** With `precondition-failed`: the version that is current, so the answer can name it. */
    readonly currentVersion?: number,
  ) {
    super(message);
  }
}
