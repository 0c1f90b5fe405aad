/**
 * Every extension-host suite, bundled into one file. A new suite is a file in suite/ and a line here;
 * the bundle keeps `describe`/`it` bound to the mocha instance that runs them.
 */
export const suites: (() => void)[] = [
  () => require('./suite/activation.test'),
];
