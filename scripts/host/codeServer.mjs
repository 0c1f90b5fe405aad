// Starts the real VS Code (code-server, VS Code 1.139 with a Node 24 extension host) and Chromium to
// drive it. Shared by the extension-host tests, the browser UI tests, `npm start` and the benchmarks.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { clearInterval, setInterval } from 'node:timers';

export const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');
const cache = process.env.CUSTOM_ACTIONS_HOST_CACHE ?? path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'custom-actions-vscode');

/** Installs code-server, Node 24 and Chromium once (scripts/host/install.sh), then returns where they are. */
export function ensureHost() {
  const manifest = path.join(cache, 'host.json');
  const result = spawnSync('bash', [path.join(root, 'scripts', 'host', 'install.sh')], {
    stdio: 'inherit',
    env: { ...process.env, CUSTOM_ACTIONS_HOST_CACHE: cache },
  });
  if (result.status !== 0 || !existsSync(manifest)) {
    throw new Error(`Installing the real VS Code (code-server) into ${cache} failed: the step that failed and its error are printed above.`);
  }
  return JSON.parse(readFileSync(manifest, 'utf8'));
}

/**
 * Starts code-server on loopback with a fresh profile unless one is given. Resolves once it listens.
 * `enable-smoke-test-driver` is what makes the workbench load an extension under development; it
 * also keeps notifications out of toasts (the notification center gets them). A workbench for an
 * installed .vsix (installVsix) passes `developmentDriver: false`, and shows toasts as a user sees them.
 */
export async function startCodeServer({ host, workspace, userDataDir, port = 0, env = {}, settings = {}, log = () => {}, developmentDriver = true }) {
  const dataDir = userDataDir ?? mkdtempSync(path.join(os.tmpdir(), 'custom-actions-vscode-'));
  mkdirSync(path.join(dataDir, 'User'), { recursive: true });
  const settingsFile = path.join(dataDir, 'User', 'settings.json');
  const base = existsSync(settingsFile) ? JSON.parse(readFileSync(settingsFile, 'utf8') || '{}') : {};
  writeFileSync(
    settingsFile,
    JSON.stringify(
      {
        'workbench.startupEditor': 'none',
        'workbench.tips.enabled': false,
        'workbench.enableExperiments': false,
        'telemetry.telemetryLevel': 'off',
        'extensions.autoCheckUpdates': false,
        'extensions.autoUpdate': false,
        'update.mode': 'none',
        'security.workspace.trust.enabled': false,
        'git.enabled': false,
        'window.commandCenter': false,
        'workbench.secondarySideBar.defaultVisibility': 'hidden',
        'chat.disableAIFeatures': true,
        ...base,
        ...settings,
      },
      null,
      2,
    ),
  );
  const args = [
    path.join(host.codeServer, 'out', 'node', 'entry.js'),
    '--auth',
    'none',
    '--bind-addr',
    `127.0.0.1:${port}`,
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--disable-getting-started-override',
    '--ignore-last-opened',
    // Its own config file: otherwise code-server writes one, with a password, into the user's home.
    '--config',
    path.join(dataDir, 'config.yaml'),
    '--user-data-dir',
    dataDir,
    '--extensions-dir',
    extensionsDirOf(dataDir),
    ...(developmentDriver ? ['--vscode-option', 'enable-smoke-test-driver'] : []),
    workspace,
  ];
  // Its own process group: code-server leaves its extension hosts running on SIGTERM (they wait hours
  // for the browser to reconnect), so stop() signals the whole group, and so does our exit.
  const child = spawn(host.node, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const killGroup = (signal) => {
    try {
      process.kill(-child.pid, signal);
    } catch {
      // Gone already.
    }
  };
  const onExit = () => killGroup('SIGKILL');
  process.once('exit', onExit);
  exitOnSignals();
  const address = await new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`code-server did not start in 90 s:\n${output}`)), 90_000);
    const onData = (chunk) => {
      const text = chunk.toString();
      output += text;
      log(text);
      const match = /HTTP server listening on (http:\/\/[^\s]+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1].replace(/\/$/, ''));
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`code-server exited with ${code}:\n${output}`)));
  });
  return {
    address,
    dataDir,
    child,
    /**
     * The URL that opens `workspace` with this repository loaded as an extension under development;
     * `workspaceFile`, a .code-workspace file, opens that multi-root workspace instead.
     */
    url({ testsPath, workspaceFile } = {}) {
      const hostName = new URL(address).host;
      const payload = [
        ['extensionDevelopmentPath', `vscode-remote://${hostName}${root}`],
        ...(testsPath ? [['extensionTestsPath', `vscode-remote://${hostName}${testsPath}`]] : []),
        ['skipWelcome', 'true'],
        ['skipReleaseNotes', 'true'],
      ];
      const opened = workspaceFile ? `workspace=${encodeURIComponent(workspaceFile)}` : `folder=${encodeURIComponent(workspace)}`;
      return `${address}/?${opened}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
    },
    async stop() {
      process.off('exit', onExit);
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        killGroup('SIGTERM');
        const timer = setTimeout(() => killGroup('SIGKILL'), 5000);
        await exited;
        clearTimeout(timer);
      }
      // Whatever of the group outlived code-server (extension hosts, a sandbox they started).
      killGroup('SIGKILL');
    },
  };
}

/**
 * A process stopped by a signal runs no 'exit' listeners, and code-server's group would outlive it (npm
 * test stops a stage's group when another stage fails): a signal becomes an exit, once per process.
 */
let exitsOnSignals = false;
function exitOnSignals() {
  if (exitsOnSignals) return;
  exitsOnSignals = true;
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.once(signal, () => process.exit(128 + os.constants.signals[signal]));
}

/** The extensions folder of a profile: where startCodeServer looks and installVsix installs. */
const extensionsDirOf = (dataDir) => path.join(dataDir, 'ext');

/**
 * Installs a packaged extension into the profile `userDataDir` (before startCodeServer on it) with
 * code-server's own CLI, the way a user installs a .vsix, so the workbench runs what the .vsix holds
 * rather than this checkout. Throws with code-server's output when it refuses.
 */
export function installVsix({ host, vsix, userDataDir }) {
  const args = [
    path.join(host.codeServer, 'out', 'node', 'entry.js'),
    '--config',
    path.join(userDataDir, 'config.yaml'),
    '--user-data-dir',
    userDataDir,
    '--extensions-dir',
    extensionsDirOf(userDataDir),
    '--install-extension',
    vsix,
  ];
  const result = spawnSync(host.node, args, { encoding: 'utf8', timeout: 120_000 });
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}`;
  if (result.status !== 0 || !/successfully installed/i.test(output)) {
    throw new Error(`code-server could not install ${path.basename(vsix)} (exit ${result.status ?? result.signal ?? result.error?.message}):\n${output}`);
  }
}

const browserArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-dev-shm-usage',
];

/** Headless Chromium from Debian, started the way this closed network needs. */
export async function launchBrowser() {
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath: chromiumPath(), headless: true, args: browserArgs });
}

/**
 * Chromium with a profile directory that outlives it. code-server encrypts SecretStorage with a key
 * kept in the browser profile, so a test of what survives a restart reuses the directory (and the port,
 * since the profile's storage belongs to the origin).
 */
export async function launchPersistentBrowser(profileDir, { viewport = { width: 1400, height: 900 } } = {}) {
  const { chromium } = await import('playwright-core');
  return chromium.launchPersistentContext(profileDir, { executablePath: chromiumPath(), headless: true, args: browserArgs, viewport });
}

function chromiumPath() {
  return process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
}

export function build({ tests = true } = {}) {
  const result = spawnSync(process.execPath, [path.join(root, 'esbuild.mjs'), ...(tests ? ['--tests'] : [])], { stdio: 'inherit', cwd: root });
  if (result.status !== 0) throw new Error('The build failed.');
}

/**
 * Runs a payload (`testsPath`, a module exporting `run()`) in the extension host of a fresh code-server
 * on a copy of the host fixture workspace, the way VS Code runs extension tests: the page is opened with
 * the payload and reports the host's exit through `codeAutomationExit`. The payload writes its lines
 * to the file named by `outputVariable`; `onOutput` gets them as they come. Resolves to the exit code,
 * or 'timeout', and everything the payload wrote; the scratch folder goes, what could hold a key by
 * mistake is kept under test-results/leftovers/<label> (keepForSecretsCheck).
 */
export async function runInExtensionHost({ label, testsPath, outputVariable, env = {}, timeoutMs, onOutput }) {
  const host = ensureHost();
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'custom-actions-host-'));
  const workspace = path.join(scratch, 'workspace');
  cpSync(path.join(root, 'test', 'host', 'fixtures', 'workspace'), workspace, { recursive: true });
  const output = path.join(scratch, 'output.log');
  writeFileSync(output, '');
  const debug = process.env.CUSTOM_ACTIONS_TEST_DEBUG === '1';
  // The browser starts while code-server does: neither needs the other before the page opens.
  const [started, launched] = await Promise.allSettled([
    startCodeServer({
      host,
      workspace,
      // Inside the scratch folder, so the profile goes with it.
      userDataDir: path.join(scratch, 'profile'),
      env: { [outputVariable]: output, ...env },
      log: (text) => debug && process.stderr.write(text),
    }),
    launchBrowser(),
  ]);
  if (started.status === 'rejected' || launched.status === 'rejected') {
    if (started.status === 'fulfilled') await started.value.stop();
    if (launched.status === 'fulfilled') await launched.value.close().catch(() => {});
    rmSync(scratch, { recursive: true, force: true });
    throw started.status === 'rejected' ? started.reason : launched.reason;
  }
  const server = started.value;
  const browser = launched.value;
  let printed = 0;
  const flush = () => {
    const text = readFileSync(output, 'utf8');
    // Whole lines only, so a reader can parse each.
    const end = text.lastIndexOf('\n') + 1;
    if (end > printed) onOutput(text.slice(printed, end));
    printed = Math.max(printed, end);
  };
  const tail = setInterval(flush, 250);
  try {
    const page = await browser.newPage();
    if (debug) page.on('console', (m) => process.stderr.write(`[page] ${m.text()}\n`));
    const exit = new Promise((resolve) => void page.exposeFunction('codeAutomationExit', (code) => resolve(Number(code))));
    await page.exposeFunction('codeAutomationLog', (...args) => debug && process.stderr.write(`[host] ${args.join(' ')}\n`));
    await page.goto(server.url({ testsPath }));
    const timeout = new Promise((resolve) => setTimeout(() => resolve('timeout'), timeoutMs));
    const result = await Promise.race([exit, timeout]);
    flush();
    const rest = readFileSync(output, 'utf8').slice(printed);
    if (rest) onOutput(rest);
    return { result, output: readFileSync(output, 'utf8') };
  } finally {
    clearInterval(tail);
    await browser.close().catch(() => {});
    await server.stop();
    keepForSecretsCheck(path.join(scratch, 'profile'), workspace, label);
    rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * What a run leaves behind that could hold a key by mistake (the VS Code profile: settings, state,
 * logs with every output channel; the workspace the extension wrote to) is copied to
 * test-results/leftovers/<label> before the scratch folder goes, so `npm test`'s last stage can read
 * it. Caches of VS Code itself are left out.
 */
export function keepForSecretsCheck(profile, workspace, label) {
  const into = path.join(root, 'test-results', 'leftovers', label);
  rmSync(into, { recursive: true, force: true });
  const skip = new Set(['CachedData', 'CachedProfilesData', 'CachedExtensionVSIXs', 'extensions', 'node_modules']);
  // The profile's extensions folder holds what installVsix unpacked from a .vsix, nothing a run wrote.
  const installed = extensionsDirOf(profile);
  // Sockets (code-server's IPC) cannot be copied, and hold nothing.
  const filter = (source) => !skip.has(path.basename(source)) && source !== installed && !statSync(source, { throwIfNoEntry: false })?.isSocket();
  if (existsSync(profile)) cpSync(profile, path.join(into, 'profile'), { recursive: true, filter });
  if (existsSync(workspace)) cpSync(workspace, path.join(into, 'workspace'), { recursive: true, filter });
}
