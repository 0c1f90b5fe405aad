import * as vscode from 'vscode';
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

  constructor(private readonly secrets: vscode.SecretStorage) {
    super();
    this.register(
      secrets.onDidChange((e) => {
        const parsed = parseName(e.key);
        if (parsed) this.changed.fire(parsed);
      }),
    );
  }

  /** The application's own key, else the base URL's default key. */
  async get(baseUrl: string, applicationId: string): Promise<string | undefined> {
    return (await this.secrets.get(secretName(baseUrl, applicationId))) ?? (await this.secrets.get(secretName(baseUrl, ANY_APPLICATION)));
  }

  async has(baseUrl: string, applicationId: string): Promise<boolean> {
    return (await this.get(baseUrl, applicationId)) !== undefined;
  }

  async set(baseUrl: string, applicationId: string, key: string): Promise<void> {
    await this.secrets.store(secretName(baseUrl, applicationId), key);
  }

  async delete(baseUrl: string, applicationId: string): Promise<void> {
    await this.secrets.delete(secretName(baseUrl, applicationId));
  }
}

const PREFIX = 'customActions.key/';

function secretName(baseUrl: string, applicationId: string): string {
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
