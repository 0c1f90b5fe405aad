import * as vscode from 'vscode';
import { serverIdentity } from '../core/client/serverIdentity';
import { Disposable } from './lifecycle';

/** Applies to every application of a base URL that has no key of its own. */
export const ANY_APPLICATION = '*';

/**
 * Keys of the actions interface, one per base URL and application, only ever in SecretStorage.
 * The secret's name holds no secret: `customActions.key/<baseUrl>/<applicationId>`.
 */
export class KeyStore extends Disposable {
  private readonly changed = this.register(new vscode.EventEmitter<{ baseUrl: string; applicationId: string }>());
  readonly onDidChange = this.changed.event;

  /**
   * Keys as SecretStorage answered, held in this process's memory only: every request needs its key,
   * and asking SecretStorage crosses to the workbench and back (milliseconds in a remote or browser
   * window, on the path of every save). A change, from this window or another, drops the entry.
   */
  private readonly known = new Map<string, Promise<string | undefined>>();

  constructor(private readonly secrets: vscode.SecretStorage) {
    super();
    this.register(
      secrets.onDidChange((e) => {
        this.known.delete(e.key);
        const parsed = parseName(e.key);
        if (parsed) this.changed.fire(parsed);
      }),
    );
  }

  /** The application's own key, else the base URL's default key. */
  async get(baseUrl: string, applicationId: string): Promise<string | undefined> {
    return (await this.own(baseUrl, applicationId)) ?? (await this.own(baseUrl, ANY_APPLICATION));
  }

  /**
   * The key stored for exactly this application (or `*`): under the server's identity, else under the
   * name this spelling of the base URL had before servers had one identity (kept, and read, until a
   * new key is stored or the key is deleted).
   */
  private async own(baseUrl: string, applicationId: string): Promise<string | undefined> {
    const name = secretName(baseUrl, applicationId);
    const legacy = legacySecretName(baseUrl, applicationId);
    return (await this.read(name)) ?? (legacy === name ? undefined : await this.read(legacy));
  }

  private read(name: string): Promise<string | undefined> {
    let known = this.known.get(name);
    if (!known) {
      known = Promise.resolve(this.secrets.get(name));
      this.known.set(name, known);
      // A failed read is not remembered: the next request asks again.
      known.catch(() => this.known.get(name) === known && this.known.delete(name));
    }
    return known;
  }

  async has(baseUrl: string, applicationId: string): Promise<boolean> {
    return (await this.get(baseUrl, applicationId)) !== undefined;
  }

  async set(baseUrl: string, applicationId: string, key: string): Promise<void> {
    const name = secretName(baseUrl, applicationId);
    this.known.delete(name);
    await this.secrets.store(name, key);
    this.known.delete(name);
  }

  async delete(baseUrl: string, applicationId: string): Promise<void> {
    for (const name of new Set([secretName(baseUrl, applicationId), legacySecretName(baseUrl, applicationId)])) {
      this.known.delete(name);
      await this.secrets.delete(name);
      this.known.delete(name);
    }
  }
}

const PREFIX = 'customActions.key/';

/** The secret of a server's application: named by the server's identity, so every spelling of it finds the key. */
function secretName(baseUrl: string, applicationId: string): string {
  return `${PREFIX}${encodeURIComponent(serverIdentity(baseUrl))}/${encodeURIComponent(applicationId)}`;
}

/** The name the secret had when it was named by the base URL's text. */
function legacySecretName(baseUrl: string, applicationId: string): string {
  return `${PREFIX}${encodeURIComponent(normalizeBaseUrl(baseUrl))}/${encodeURIComponent(applicationId)}`;
}

function parseName(name: string): { baseUrl: string; applicationId: string } | undefined {
  if (!name.startsWith(PREFIX)) return undefined;
  const [baseUrl, applicationId] = name.slice(PREFIX.length).split('/');
  return baseUrl !== undefined && applicationId !== undefined
    ? { baseUrl: decodeURIComponent(baseUrl), applicationId: decodeURIComponent(applicationId) }
    : undefined;
}

export function normalizeBaseUrl(baseUrl: string): string {
  return baseUrl.trim().replace(/\/+$/, '');
}
