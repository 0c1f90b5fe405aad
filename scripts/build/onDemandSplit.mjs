// The extension in two bundles: dist/extension.js, which VS Code loads at activation, and
// dist/on-demand.js, which the extension requires the first time it needs what only that bundle holds
// (the command handlers, local debugging, test runs, the conflict tools: src/extension/onDemand).
//
// A module both bundles need is in extension.js only, and on-demand.js takes what it uses of it from
// there at run time, so every module exists once: one copy of its state and of its classes, and
// `instanceof` holds whichever bundle made the object. Three steps make that so:
//   1. extension.js alone: its metafile says which modules activation loads;
//   2. on-demand.js, every import of one of those modules read from extension.js's `onDemandHost`
//      instead of bundled again; the names it still reads after tree shaking are recorded;
//   3. extension.js again, handing out exactly those names through `onDemandHost.get`.
import { readFileSync } from 'node:fs';
import path from 'node:path';

const HOST = 'on-demand-host';
/** How a name read from extension.js is spelled in on-demand.js, where step 3 finds it. */
const KEY = /"@host:([^"#]+)#([^"]+)"/g;

/**
 * @param {typeof import('esbuild')} esbuild
 * @param {{ root: string, common: object, main: { entry: string, outfile: string, plugins: object[] }, onDemand: { entry: string, outfile: string, plugins: object[] } }} options
 * @returns {Promise<{ shared: string[], alone: object, final: object, onDemand: object }>} the names on-demand.js reads from
 *   extension.js (as `file#name`), and the metafiles of extension.js alone and as written, and of on-demand.js
 */
export async function buildSplit(esbuild, { root, common, main, onDemand }) {
  const base = { ...common, absWorkingDir: root };
  const alone = await esbuild.build({ ...base, entryPoints: [main.entry], outfile: main.outfile, plugins: main.plugins, metafile: true, write: false });
  // A module reached but shaken out entirely (a barrel's unused part) is not loaded at activation.
  const output = Object.values(alone.metafile.outputs).find((o) => o.entryPoint);
  const loadedAtActivation = new Set(Object.entries(output.inputs).flatMap(([file, { bytesInOutput }]) => (bytesInOutput > 0 ? [file] : [])));

  const exportsOf = (file) => exportNames(esbuild, root, file);
  const built = await esbuild.build({
    ...base,
    entryPoints: [onDemand.entry],
    outfile: onDemand.outfile,
    plugins: [fromExtensionBundle(root, loadedAtActivation, exportsOf, path.basename(main.outfile)), ...onDemand.plugins],
    metafile: true,
    write: false,
  });
  const code = built.outputFiles.find((f) => f.path.endsWith('.js'))?.text ?? '';
  const shared = [...new Set([...code.matchAll(KEY)].map((m) => `${m[1]}#${m[2]}`))].sort();
  // A name the tree shaking kept in on-demand.js but extension.js would not hand out fails here, not at run time.
  for (const key of shared) {
    const [file, name] = key.split('#');
    if (name !== '*' && !(await exportsOf(file)).includes(name)) throw new Error(`on-demand.js reads ${name} of ${file}, which does not export it`);
  }
  // Each name is read by its index in `shared`: a key spelled out would cost extension.js some 50 bytes a
  // name (its path and name), a number a few. The key's place is padded with spaces to its length, so
  // on-demand.js's source map still points where it did.
  const index = new Map(shared.map((key, i) => [key, i]));
  const numbered = code.replace(KEY, (text, file, name) => String(index.get(`${file}#${name}`)).padEnd(text.length));
  for (const file of built.outputFiles) await writeOutput(file.path.endsWith('.js') ? { path: file.path, contents: numbered } : file);

  const files = [...new Set(shared.map((key) => key.split('#')[0]))];
  const imports = files.map((file, i) => `import * as m${i} from ${JSON.stringify('./' + file)};`).join('\n');
  const table = shared
    .map((key) => {
      const [file, name] = key.split('#');
      // A getter per name: a static member of a namespace import, so the tree shaking keeps only these.
      return `  () => m${files.indexOf(file)}${name === '*' ? '' : `.${name}`},`;
    })
    .join('\n');
  const final = await esbuild.build({
    ...base,
    metafile: true,
    stdin: {
      contents: [
        `export * from ${JSON.stringify('./' + main.entry)};`,
        imports,
        `const names = [\n${table}\n];`,
        `/** What dist/on-demand.js reads of the modules loaded at activation, by index (scripts/build/onDemandSplit.mjs). */`,
        `export const onDemandHost = { get: (index) => names[index]() };`,
      ].join('\n'),
      resolveDir: root,
      sourcefile: `${main.entry} (with what on-demand.js reads from it)`,
      loader: 'ts',
    },
    outfile: main.outfile,
    plugins: main.plugins,
  });
  return { shared, alone: alone.metafile, final: final.metafile, onDemand: built.metafile };
}

/** Resolves each import of the on-demand bundle; one of a module loaded at activation becomes reads of extension.js's export. */
function fromExtensionBundle(root, loadedAtActivation, exportsOf, mainFile) {
  return {
    name: 'from-extension-bundle',
    setup(build) {
      build.onResolve({ filter: /.*/ }, async (args) => {
        if (args.pluginData?.resolving || args.namespace === HOST) return undefined;
        const resolved = await build.resolve(args.path, {
          kind: args.kind,
          importer: args.importer,
          resolveDir: args.resolveDir,
          pluginData: { resolving: true },
        });
        if (resolved.errors.length > 0 || resolved.external || !resolved.path) return undefined;
        const file = path.relative(root, resolved.path).split(path.sep).join('/');
        // A barrel is bundled here, so that each module it re-exports is taken from extension.js or
        // bundled on its own account.
        if (!loadedAtActivation.has(file) || isBarrel(resolved.path)) return undefined;
        return { path: file, namespace: HOST };
      });
      build.onResolve({ filter: /.*/, namespace: HOST }, (args) => ({ path: args.path, external: true }));
      build.onLoad({ filter: /.*/, namespace: HOST }, async (args) => {
        const names = await exportsOf(args.path);
        // A CommonJS module (a package's) declares no names: it is handed out whole, as `*`.
        const lines =
          names.length === 0
            ? [`module.exports = host.get(${JSON.stringify(`@host:${args.path}#*`)});`]
            : names.map((name, i) => `const v${i} = /* @__PURE__ */ host.get(${JSON.stringify(`@host:${args.path}#${name}`)});\nexport { v${i} as ${name} };`);
        return {
          // Read when on-demand.js is loaded, which is after extension.js has finished loading: it requires this bundle on first use.
          contents: `const host = require(${JSON.stringify('./' + mainFile)}).onDemandHost;\n${lines.join('\n')}\n`,
          loader: 'js',
          resolveDir: root,
        };
      });
    },
  };
}

const exportCache = new Map();

/**
 * The names an ES module exports (its own: a re-export of a whole module is a barrel's, and barrels are
 * bundled); none for a CommonJS module, which declares none.
 */
function exportNames(esbuild, root, file) {
  let names = exportCache.get(file);
  if (!names) {
    names = esbuild
      .build({ entryPoints: [path.join(root, file)], bundle: false, format: 'esm', metafile: true, write: false, logLevel: 'silent' })
      .then((result) => (Object.values(result.metafile.inputs)[0]?.format === 'esm' ? Object.values(result.metafile.outputs)[0].exports : []));
    exportCache.set(file, names);
  }
  return names;
}

/** Writes an output file of an esbuild build made with write: false. */
async function writeOutput(file) {
  const { mkdir, writeFile } = await import('node:fs/promises');
  await mkdir(path.dirname(file.path), { recursive: true });
  await writeFile(file.path, file.contents);
}

/** An index.ts that only re-exports (every src/core/<part>/index.ts). */
function isBarrel(file) {
  if (path.basename(file) !== 'index.ts') return false;
  const statements = readFileSync(file, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\/\/.*$/gm, '')
    .split(';')
    .map((s) => s.trim())
    .filter(Boolean);
  return statements.every((s) => /^export\s[\s\S]*\sfrom\s+['"][^'"]+['"]$/.test(s));
}
