import * as vscode from 'vscode';
import { setDefaultTransport, type Transport } from '../core/client';
import { createNodeTransport } from '../core/client/nodeTransport';
import { affectsNetworkConfig, readNetworkConfig } from './config';
import { nodeTransportOptions, systemCertificates } from './networkOptions';

/**
 * Sets the extension's transport from VS Code's network settings, and sets it anew when they change
 * (a later request then goes the new way; the old connections are let go). The settings and the
 * system's authorities are read on the first request, not at activation.
 */
export function useNetworkSettings(context: vscode.ExtensionContext): void {
  let current = lazyTransport();
  setDefaultTransport(current);
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (!affectsNetworkConfig(event)) return;
      const old = current;
      current = lazyTransport();
      setDefaultTransport(current);
      void old.close();
    }),
  );
}

function lazyTransport(): Transport {
  let made: Transport | undefined;
  const transport = () => (made ??= createNodeTransport(nodeTransportOptions(readNetworkConfig(), process.env, () => systemCertificates(process.env))));
  return {
    request: (request) => transport().request(request),
    close: async () => made?.close(),
  };
}
