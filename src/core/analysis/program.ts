import ts from 'typescript';
import { MINIMAL_LIB } from './minimalLib';

/** Where the in-memory files live; virtual, never read from or written to disk. */
const ACTION_FOLDER = '/action';
const LIB_FOLDER = '/lib';
const MINIMAL_LIB_NAME = 'lib.minimal.d.ts';

const options: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  strict: true,
  noEmit: true,
  allowImportingTsExtensions: true,
  skipLibCheck: true,
  types: [],
};

/** Lib files parse once per process: they are most of the work of a program, and never change. */
const libFiles = new Map<string, ts.SourceFile | undefined>();
let libFolderOnDisk: string | null | undefined;

/**
 * Where the standard lib .d.ts files are on disk. By default (undefined) the folder next to the
 * compiler; a bundle has none there, so the extension can point at another copy (VS Code ships
 * one). A folder without lib.es2022.d.ts, or null, selects a small built-in lib that covers the
 * types main's signature can use.
 */
export function configureLibFolder(folder: string | null | undefined): void {
  libFolderOnDisk = folder === undefined ? undefined : folder !== null && hasLib(folder) ? folder : null;
  libFiles.clear();
}

function libFolder(): string | null {
  if (libFolderOnDisk === undefined) {
    const folder = parentOf(ts.getDefaultLibFilePath(options));
    libFolderOnDisk = hasLib(folder) ? folder : null;
  }
  return libFolderOnDisk;
}

function hasLib(folder: string): boolean {
  return ts.sys.fileExists(joinPath(folder, 'lib.es2022.d.ts'));
}

function defaultLibName(): string {
  return libFolder() === null ? MINIMAL_LIB_NAME : 'lib.es2022.d.ts';
}

function libText(name: string): string | undefined {
  if (name === MINIMAL_LIB_NAME) return MINIMAL_LIB;
  const folder = libFolder();
  return folder === null ? undefined : ts.sys.readFile(joinPath(folder, name));
}

function libSourceFile(path: string): ts.SourceFile | undefined {
  if (!libFiles.has(path)) {
    const text = libText(path.slice(LIB_FOLDER.length + 1));
    libFiles.set(path, text === undefined ? undefined : ts.createSourceFile(path, text, ts.ScriptTarget.ES2022, true));
  }
  return libFiles.get(path);
}

export interface ActionProgram {
  readonly program: ts.Program;
  readonly checker: ts.TypeChecker;
  readonly main: ts.SourceFile;
}

/** main.ts (and action.generated.ts beside it, when given) type-checked together with the standard lib. */
export function createActionProgram(mainSource: string, generatedSource: string | undefined, fileName = 'main.ts'): ActionProgram {
  const { program, checker, mains } = createProgramOf([{ folder: ACTION_FOLDER, mainSource, generatedSource, fileName }], false);
  return { program, checker, main: mains[0]! };
}

/** One action's files in a program of several: its own virtual folder. */
export interface ActionFiles {
  readonly folder: string;
  readonly mainSource: string;
  readonly generatedSource: string | undefined;
  readonly fileName?: string;
}

export interface ActionsProgram {
  readonly program: ts.Program;
  readonly checker: ts.TypeChecker;
  /** Each action's main file, in the order given. */
  readonly mains: ts.SourceFile[];
  /** Each action's generated file, when it has one. */
  readonly generated: (ts.SourceFile | undefined)[];
}

/**
 * Several actions in one program, each in its own folder, so the lib is merged into one checker's
 * globals once instead of once per action. An import resolves only inside the importing action's
 * folder (or the lib): as alone, one action never sees another's files. `parsed` keeps parsed files
 * by path, so a second program of some of the same files parses nothing again.
 */
export function createProgramOf(actions: readonly ActionFiles[], confine: boolean, parsed = new Map<string, ts.SourceFile>()): ActionsProgram {
  const files = new Map<string, string>();
  const folders = new Set<string>();
  const roots: string[] = [];
  const generatedPaths: (string | undefined)[] = [];
  for (const action of actions) {
    const mainPath = `${action.folder}/${baseName(action.fileName ?? 'main.ts')}`;
    folders.add(action.folder);
    files.set(mainPath, action.mainSource);
    roots.push(mainPath);
    const generatedPath = action.generatedSource === undefined ? undefined : `${action.folder}/action.generated.ts`;
    if (generatedPath !== undefined) files.set(generatedPath, action.generatedSource!);
    generatedPaths.push(generatedPath);
  }

  const host: ts.CompilerHost = {
    getSourceFile: (path, languageVersion) => {
      if (path.startsWith(`${LIB_FOLDER}/`)) return libSourceFile(path);
      const text = files.get(path);
      if (text === undefined) return undefined;
      const known = parsed.get(path);
      if (known && known.text === text) return known;
      const file = ts.createSourceFile(path, text, languageVersion, true, ts.ScriptKind.TS);
      parsed.set(path, file);
      return file;
    },
    getDefaultLibFileName: () => `${LIB_FOLDER}/${defaultLibName()}`,
    getDefaultLibLocation: () => LIB_FOLDER,
    writeFile: () => undefined,
    getCurrentDirectory: () => actions[0]?.folder ?? ACTION_FOLDER,
    getDirectories: () => [],
    directoryExists: (path) => folders.has(path) || path === LIB_FOLDER,
    fileExists: (path) => files.has(path) || (path.startsWith(`${LIB_FOLDER}/`) && libSourceFile(path) !== undefined),
    readFile: (path) => files.get(path) ?? (path.startsWith(`${LIB_FOLDER}/`) ? libSourceFile(path)?.text : undefined),
    getCanonicalFileName: (path) => path,
    useCaseSensitiveFileNames: () => true,
    getNewLine: () => '\n',
  };
  if (confine) {
    host.resolveModuleNameLiterals = (literals, containingFile, _redirected, compilerOptions) => {
      const own = `${parentOf(containingFile)}/`;
      return literals.map((literal) => {
        const found = ts.resolveModuleName(literal.text, containingFile, compilerOptions, host).resolvedModule;
        const inside = found && (found.resolvedFileName.startsWith(own) || found.resolvedFileName.startsWith(`${LIB_FOLDER}/`));
        return { resolvedModule: inside ? found : undefined };
      });
    };
  }
  const program = ts.createProgram({ rootNames: roots, options, host });
  const mains = roots.map((path) => {
    const main = program.getSourceFile(path);
    if (!main) throw new Error('the in-memory main file did not load');
    return main;
  });
  const generated = generatedPaths.map((path) => (path === undefined ? undefined : program.getSourceFile(path)));
  return { program, checker: program.getTypeChecker(), mains, generated };
}

function baseName(fileName: string): string {
  const name = fileName.split(/[\\/]/).pop() ?? 'main.ts';
  return /\.ts$/.test(name) ? name : 'main.ts';
}

// The lib folder is a real path of the machine; ts.sys takes either separator.
function parentOf(path: string): string {
  return path.replace(/[\\/][^\\/]*$/, '');
}

function joinPath(folder: string, name: string): string {
  return `${folder}/${name}`;
}
