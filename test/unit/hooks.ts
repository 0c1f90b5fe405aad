/**
 * Root hooks of the unit tests (.mocharc.json requires this file): a test during which the extension
 * reported an unexpected error (a listener or a dispose that threw) fails, even when its assertions held.
 */
import { UnexpectedErrors } from '../support/unexpectedErrors';

export const unexpectedErrors = new UnexpectedErrors();

export const mochaHooks = {
  afterEach(this: Mocha.Context): void {
    unexpectedErrors.check(`"${this.currentTest?.fullTitle() ?? 'a test'}"`);
  },
};
