import * as vscode from 'vscode';
import { codeHash, metadataHash } from '../../core/deploy/base';
import { parseActionYaml } from '../../core/workspace';
import { Disposable } from '../lifecycle';

/** The files a save pushes: code, and action.yaml. */
const ACTION_TEXT = /(\.ts|\/action\.ya?ml)$/;

/**
 * The text each open action file held on disk before the save now being pushed: what the user's copy
 * was derived from in this session. Where the lock has no base for a part (a checkout whose team never
 * committed customactions.lock.json, or a folder made by hand), the server holding exactly that text is
 * safe to replace, as it would be with a base that says so (docs/deploy.md, *The base*); the server
 * holding anything else is held as before.
 *
 * Known from the moment a document is opened clean, then from each save; kept only while it is open.
 */
export class SavedTexts extends Disposable {
  /** The hash of each open file's text on disk (see `hashOf`); undefined where it has none. */
  private readonly hashes = new Map<string, string | undefined>();
  /** The hash `replaced` last returned per file, for a push by hand of the file as it is. */
  private readonly lastReplaced = new Map<string, string>();

  constructor() {
    super();
    for (const document of vscode.workspace.textDocuments) this.seen(document);
    this.register(vscode.workspace.onDidOpenTextDocument((document) => this.seen(document)));
    // Not taken from change events: an edit's event may come before the document is marked dirty, and
    // would pass the new text off as the old. A reload from disk (a checkout) is therefore not seen; the
    // text kept is still one this workspace held, which the server holding is as safe to replace.
    this.register(
      vscode.workspace.onDidCloseTextDocument((document) => {
        this.hashes.delete(document.uri.toString());
        this.lastReplaced.delete(document.uri.toString());
      }),
    );
  }

  /**
   * A save of `document` as `text`: the hash of the text it replaced on disk (a code hash for a `.ts`
   * file, the metadata's hash for action.yaml), or undefined when that is not known or not metadata.
   */
  replaced(document: vscode.TextDocument, text: string): string | undefined {
    const key = document.uri.toString();
    if (!ACTION_TEXT.test(document.uri.path)) return undefined;
    const hash = this.hashes.get(key);
    this.hashes.set(key, hashOf(document.uri, text));
    if (hash === undefined) this.lastReplaced.delete(key);
    else this.lastReplaced.set(key, hash);
    return hash;
  }

  /** What the latest save of the file replaced, as `replaced` told it, while the file is open. */
  latest(uri: vscode.Uri): string | undefined {
    return this.lastReplaced.get(uri.toString());
  }

  private seen(document: vscode.TextDocument): void {
    if (document.isDirty || document.uri.scheme === 'git' || !ACTION_TEXT.test(document.uri.path)) return;
    this.hashes.set(document.uri.toString(), hashOf(document.uri, document.getText()));
  }
}

function hashOf(uri: vscode.Uri, text: string): string | undefined {
  if (uri.path.endsWith('.ts')) return codeHash(text);
  const metadata = parseActionYaml(text).metadata;
  try {
    return metadata ? metadataHash(metadata) : undefined;
  } catch {
    // Nested too deep to hash: no base can be taken from it.
    return undefined;
  }
}
