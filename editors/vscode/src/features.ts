// The editor side of the extension, independent of how the server is reached: palette and
// context-menu commands, the status bar count, settings sync, and the language client's options
// and middleware. extension.ts plugs in a stdio LanguageClient; the Monaco test
// (tests/editors/monaco) plugs in a WebSocket MonacoLanguageClient and runs this same file.
import * as vscode from 'vscode';
import type { BaseLanguageClient, LanguageClientOptions } from 'vscode-languageclient';
import * as P from './protocol';

/** Who owns the language client: extension.ts (stdio) or a test harness. */
export interface ClientHost {
  client(): BaseLanguageClient | undefined;
  restart(): Promise<void>;
}

/** Whether the user trusts the workspace; not knowing counts as not trusted. */
function workspaceTrusted(): boolean {
  return vscode.workspace.isTrusted === true;
}

export function readUserSettings(): P.UserSettings {
  const c = vscode.workspace.getConfiguration('blockls');
  return P.settingsForTrust({
    serverPath: c.get<string>('serverPath', ''),
    serverArgs: c.get<string[]>('serverArgs', []),
    documentSelector: c.get<P.UserSettings['documentSelector']>('documentSelector', P.DEFAULT_DOCUMENT_SELECTOR),
    dialects: c.get<string[]>('dialects', ['telt', 'nesl']),
    allowedRoots: c.get<string[]>('allowedRoots', []),
    denyPatterns: c.get<string[]>('denyPatterns', []),
    execAllowed: c.get<boolean>('execAllowed', false),
    schemaFile: c.get<string>('schemaFile', ''),
    docsUrl: c.get<string>('docsUrl', ''),
    maxDocumentBytes: c.get<number | null>('maxDocumentBytes', null),
  }, workspaceTrusted());
}

export function firstWorkspaceFolder(): string | undefined {
  const f = vscode.workspace.workspaceFolders?.[0];
  return f && f.uri.scheme === 'file' ? f.uri.fsPath : undefined;
}

function selector(): vscode.DocumentSelector {
  return readUserSettings().documentSelector as vscode.DocumentSelector;
}

/** Whether blockls handles this document (the `blockls.documentSelector` setting). */
export function handles(doc: vscode.TextDocument | undefined): boolean {
  return !!doc && vscode.languages.match(selector(), doc) > 0;
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/**
 * Runs one server command through workspace/executeCommand and reports the outcome. Used by the
 * middleware (so code lenses go through here) and by the palette commands.
 */
async function runServerCommand(host: ClientHost, command: string, args: unknown[]): Promise<unknown> {
  const client = host.client();
  if (!client) {
    void vscode.window.showErrorMessage('blockls: the language server is not running.');
    return undefined;
  }
  const isExecute = command === P.SERVER_COMMANDS.executeBlock || command === P.SERVER_COMMANDS.executeAll;
  try {
    const run = () => client.sendRequest('workspace/executeCommand', { command, arguments: args });
    const result = isExecute
      ? await vscode.window.withProgress(
          { location: vscode.ProgressLocation.Notification, title: 'blockls: applying…' },
          run,
        )
      : await run();
    if (isExecute) {
      const r = P.describeExecuteResult(result);
      if (r.ok) void vscode.window.showInformationMessage(r.message);
      else void vscode.window.showWarningMessage(r.message);
    }
    return result;
  } catch (e) {
    // The server refuses with a sentence saying why (-32803): show it as it is.
    void vscode.window.showErrorMessage(`blockls: ${message(e)}`);
    return undefined;
  }
}

export function languageClientOptions(
  host: ClientHost,
  outputChannel?: vscode.OutputChannel,
): LanguageClientOptions {
  const user = readUserSettings();
  return {
    documentSelector: user.documentSelector,
    initializationOptions: P.initializationOptions(user, firstWorkspaceFolder()),
    outputChannel,
    middleware: {
      // The server's commands (also those of the code lenses) are registered by the client;
      // route them through runServerCommand to report the result and the server's refusals.
      executeCommand: (command, args) => runServerCommand(host, command, args),
    },
  };
}

function activeDocument(): vscode.TextDocument | undefined {
  const doc = vscode.window.activeTextEditor?.document;
  return handles(doc) ? doc : undefined;
}

function protocolUri(client: BaseLanguageClient, doc: vscode.TextDocument): string {
  return client.code2ProtocolConverter.asUri(doc.uri);
}

async function needDocument(host: ClientHost): Promise<{ client: BaseLanguageClient; doc: vscode.TextDocument } | undefined> {
  const doc = activeDocument();
  const client = host.client();
  if (!doc) {
    void vscode.window.showWarningMessage(
      'blockls: the active editor is not a TELT/NESL file or transcript (see "blockls.documentSelector").',
    );
    return undefined;
  }
  if (!client) {
    void vscode.window.showErrorMessage('blockls: the language server is not running.');
    return undefined;
  }
  return { client, doc };
}

/** Execute Block: the block at the cursor, with the same arguments as the server's code lens. */
export async function executeBlockAtCursor(host: ClientHost): Promise<unknown> {
  const got = await needDocument(host);
  if (!got) return undefined;
  const editor = vscode.window.activeTextEditor!;
  const args = P.executeBlockArguments(protocolUri(got.client, got.doc), got.doc.version, editor.selection.active.line);
  return vscode.commands.executeCommand(P.SERVER_COMMANDS.executeBlock, ...args);
}

export async function executeAllBlocks(host: ClientHost): Promise<unknown> {
  const got = await needDocument(host);
  if (!got) return undefined;
  const args = P.executeAllArguments(protocolUri(got.client, got.doc), got.doc.version);
  return vscode.commands.executeCommand(P.SERVER_COMMANDS.executeAll, ...args);
}

/** Fix All: the server's source.fixAll.blockls action (resolved when it comes without an edit). */
export async function fixAll(host: ClientHost): Promise<boolean> {
  const got = await needDocument(host);
  if (!got) return false;
  const { client, doc } = got;
  const last = doc.lineAt(doc.lineCount - 1).range.end;
  try {
    const actions = await client.sendRequest(
      'textDocument/codeAction',
      P.fixAllParams(protocolUri(client, doc), { line: last.line, character: last.character }),
    );
    let action = P.pickFixAll(actions as unknown[]);
    if (!action) {
      void vscode.window.showInformationMessage('blockls: nothing to fix.');
      return false;
    }
    if (!action.edit) action = (await client.sendRequest('codeAction/resolve', action)) as typeof action;
    if (!action.edit) throw new Error('the server returned no edit for the fix-all action');
    const edit = await client.protocol2CodeConverter.asWorkspaceEdit(action.edit);
    return await vscode.workspace.applyEdit(edit);
  } catch (e) {
    void vscode.window.showErrorMessage(`blockls: fix all failed: ${message(e)}`);
    return false;
  }
}

export async function showServerDebugInfo(host: ClientHost): Promise<unknown> {
  const client = host.client();
  const doc = activeDocument();
  const args = P.showDebugInfoArguments(client && doc ? protocolUri(client, doc) : undefined);
  const info = await runServerCommand(host, P.SERVER_COMMANDS.showDebugInfo, args);
  if (info !== undefined) {
    try {
      const shown = await vscode.workspace.openTextDocument({ language: 'json', content: JSON.stringify(info, null, 2) });
      await vscode.window.showTextDocument(shown, { preview: true, viewColumn: vscode.ViewColumn.Beside });
    } catch (e) {
      void vscode.window.showErrorMessage(`blockls: cannot show the debug info: ${message(e)}`);
    }
  }
  return info;
}

/** The status bar item: valid / invalid blocks of the active transcript, from documentSymbol. */
export class BlockStatus implements vscode.Disposable {
  readonly item: vscode.StatusBarItem;
  counts: P.BlockCounts | undefined;
  private running = false;
  private again = false;
  private readonly listeners: ((c: P.BlockCounts | undefined) => void)[] = [];

  constructor(private readonly host: ClientHost) {
    this.item = vscode.window.createStatusBarItem('blockls.blocks', vscode.StatusBarAlignment.Left, 10);
    this.item.name = 'blockls blocks';
    this.item.command = 'workbench.actions.view.problems';
  }

  onDidUpdate(f: (c: P.BlockCounts | undefined) => void): void {
    this.listeners.push(f);
  }

  /** Coalesces calls: at most one request in flight, one more queued. */
  async refresh(): Promise<void> {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    try {
      do {
        this.again = false;
        await this.once();
      } while (this.again);
    } finally {
      this.running = false;
    }
  }

  private async once(): Promise<void> {
    const doc = activeDocument();
    const client = this.host.client();
    void vscode.commands.executeCommand('setContext', 'blockls.activeDocument', !!doc);
    if (!doc || !client || !client.isRunning()) {
      this.counts = undefined;
      this.item.hide();
    } else {
      try {
        const symbols = await client.sendRequest('textDocument/documentSymbol', P.documentSymbolParams(protocolUri(client, doc)));
        this.counts = P.countBlocks(symbols as unknown[]);
        this.item.text = P.statusBarText(this.counts);
        this.item.tooltip = P.statusBarTooltip(this.counts);
        this.item.backgroundColor =
          this.counts.invalid > 0 ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
        this.item.show();
      } catch {
        return; // ContentModified and the like: the next publishDiagnostics triggers a refresh
      }
    }
    for (const f of this.listeners) f(this.counts);
  }

  dispose(): void {
    this.item.dispose();
  }
}

/** Registers everything that does not depend on the client's transport. */
export function registerFeatures(context: vscode.ExtensionContext, host: ClientHost): BlockStatus {
  const status = new BlockStatus(host);
  const C = P.EXTENSION_COMMANDS;
  context.subscriptions.push(
    status,
    vscode.commands.registerCommand(C.executeBlockAtCursor, () => executeBlockAtCursor(host)),
    vscode.commands.registerCommand(C.executeAllBlocks, () => executeAllBlocks(host)),
    vscode.commands.registerCommand(C.fixAll, () => fixAll(host)),
    vscode.commands.registerCommand(C.showServerDebugInfo, () => showServerDebugInfo(host)),
    vscode.commands.registerCommand(C.restartServer, async () => {
      await host.restart();
      await status.refresh();
    }),
    vscode.window.onDidChangeActiveTextEditor(() => void status.refresh()),
    vscode.languages.onDidChangeDiagnostics((e) => {
      const doc = vscode.window.activeTextEditor?.document;
      if (doc && e.uris.some((u) => u.toString() === doc.uri.toString())) void status.refresh();
    }),
    vscode.workspace.onDidChangeConfiguration(async (e) => {
      if (!e.affectsConfiguration('blockls')) return;
      const restartKeys = ['blockls.serverPath', 'blockls.serverArgs', 'blockls.documentSelector'];
      if (restartKeys.some((k) => e.affectsConfiguration(k))) {
        await host.restart();
      } else {
        await host
          .client()
          ?.sendNotification(
            'workspace/didChangeConfiguration',
            P.didChangeConfigurationParams(readUserSettings(), firstWorkspaceFolder()),
          );
      }
      await status.refresh();
    }),
  );
  // Trust granted: exec follows execAllowed again, and the workspace's values of the restricted
  // settings count (serverPath and serverArgs are machine settings: no restart).
  const trustGranted = vscode.workspace.onDidGrantWorkspaceTrust?.(async () => {
    await host
      .client()
      ?.sendNotification('workspace/didChangeConfiguration', P.didChangeConfigurationParams(readUserSettings(), firstWorkspaceFolder()));
    await status.refresh();
  });
  if (trustGranted) context.subscriptions.push(trustGranted);
  return status;
}
