// VS Code entry point: finds the `blockls` binary, starts `blockls lsp` over stdio through
// vscode-languageclient and wires the shared features (features.ts). Bundled by esbuild into
// dist/extension.js; `vscode` is the only external module.
import * as fs from 'fs';
import * as vscode from 'vscode';
import { LanguageClient, TransportKind } from 'vscode-languageclient/node';
import type { ServerOptions } from 'vscode-languageclient/node';
import { BlockStatus, ClientHost, firstWorkspaceFolder, languageClientOptions, readUserSettings, registerFeatures } from './features';
import { resolveServerPath, serverArguments } from './protocol';

let client: LanguageClient | undefined;
let output: vscode.OutputChannel | undefined;
let status: BlockStatus | undefined;

function isExecutable(path: string): boolean {
  try {
    fs.accessSync(path, fs.constants.X_OK);
    return fs.statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * The server shipped inside a platform-specific .vsix (scripts/package-vsix.sh puts it in
 * `bin/`), or undefined. Made executable when an installer dropped the mode bits.
 */
function bundledServer(context: vscode.ExtensionContext): string | undefined {
  const path = context.asAbsolutePath(process.platform === 'win32' ? 'bin/blockls.exe' : 'bin/blockls');
  if (!fs.existsSync(path)) return undefined;
  if (!isExecutable(path)) {
    try {
      fs.chmodSync(path, 0o755);
    } catch {
      // read-only installation: resolveServerPath reports that no server was found
    }
  }
  return path;
}

let bundled: string | undefined;

const host: ClientHost = {
  client: () => client,
  restart: async () => {
    await stopClient();
    await startClient();
  },
};

async function startClient(): Promise<void> {
  const user = readUserSettings();
  const resolved = resolveServerPath(user.serverPath, process.env, isExecutable, process.platform, bundled);
  if ('error' in resolved) {
    output?.appendLine(resolved.error);
    // Not awaited: activation must not wait for the user to dismiss the message.
    void vscode.window.showErrorMessage(resolved.error, 'Set the path').then((pick) => {
      if (pick) void vscode.commands.executeCommand('workbench.action.openSettings', 'blockls.serverPath');
    });
    return;
  }
  const command = { command: resolved.path, args: serverArguments(user), transport: TransportKind.stdio, options: { cwd: firstWorkspaceFolder() } };
  const serverOptions: ServerOptions = { run: command, debug: command };
  client = new LanguageClient('blockls', 'blockls', serverOptions, languageClientOptions(host, output));
  try {
    await client.start();
    output?.appendLine(`blockls: started ${resolved.path} ${command.args.join(' ')}`);
  } catch (e) {
    void vscode.window.showErrorMessage(`blockls: the server (${resolved.path}) did not start: ${e instanceof Error ? e.message : e}`, 'Set the path').then((pick) => {
      if (pick) void vscode.commands.executeCommand('workbench.action.openSettings', 'blockls.serverPath');
    });
  }
  void status?.refresh();
}

async function stopClient(): Promise<void> {
  const c = client;
  client = undefined;
  if (c) {
    try {
      await c.stop();
    } catch {
      // a server that died already: nothing to stop
    }
  }
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  output = vscode.window.createOutputChannel('blockls');
  context.subscriptions.push(output);
  bundled = bundledServer(context);
  status = registerFeatures(context, host);
  await startClient();
}

export function deactivate(): Thenable<void> | undefined {
  return stopClient();
}
