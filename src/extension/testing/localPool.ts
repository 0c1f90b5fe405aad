/**
 * The processes that run the Testing view's Local cases (the local harness, as the command line's
 * `test` runs them). localPool.browser.ts stands in for this module in VS Code for the Web, where no
 * process starts and the Local profile is not offered.
 */
export { HarnessPool, harnessParallelism, LOCAL_CASE_TIMEOUT_MS } from '../../sandbox/runner/local/harnessPool';
