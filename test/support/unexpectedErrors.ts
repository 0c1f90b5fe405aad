import { onUnexpectedError } from '../../src/extension/unexpectedErrors';

/**
 * Collects what the extension reports as unexpected (a listener or a dispose that threw, caught so
 * the others still ran). The unit and host runners check after every test that nothing was reported,
 * so such an error fails the test during which it happened instead of passing unseen.
 */
export class UnexpectedErrors {
  private readonly seen: string[] = [];
  private readonly subscription = onUnexpectedError((error, where) =>
    this.seen.push(`${where}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`),
  );

  /** What was reported since the last take, which no later check will see again (a test that expects an error asserts on it). */
  take(): string[] {
    return this.seen.splice(0);
  }

  /** Throws when anything was reported since the last take. */
  check(during: string): void {
    const reported = this.take();
    if (reported.length > 0)
      throw new Error(`${reported.length} unexpected error(s) reported during ${during} (src/extension/unexpectedErrors.ts):\n${reported.join('\n')}`);
  }

  dispose(): void {
    this.subscription.dispose();
  }
}
