// What the extension sends to `blockls lsp` and how it reads the answers, with no `vscode`
// import: the extension (extension.ts, features.ts) and the tests outside VS Code
// (tests/editors/vscode/*.test.mjs, the Monaco page) all build their requests here.
import type {
  CodeAction,
  CodeActionParams,
  DocumentFilter,
  DocumentSymbol,
  DocumentSymbolParams,
  Position,
} from 'vscode-languageserver-protocol';

/** Commands the server executes (its executeCommandProvider), named by issue #4. */
export const SERVER_COMMANDS = {
  executeBlock: 'blockls.executeBlock',
  executeAll: 'blockls.executeAll',
  showDebugInfo: 'blockls.showDebugInfo',
} as const;

/** Commands the extension contributes (palette, editor context menu). */
export const EXTENSION_COMMANDS = {
  executeBlockAtCursor: 'blockls.executeBlockAtCursor',
  executeAllBlocks: 'blockls.executeAllBlocks',
  fixAll: 'blockls.fixAll',
  showServerDebugInfo: 'blockls.showServerDebugInfo',
  restartServer: 'blockls.restartServer',
} as const;

/** The code action kind of "apply every preferred fix" (server: source.fixAll.blockls). */
export const FIX_ALL_KIND = 'source.fixAll.blockls';

/** The default of `blockls.documentSelector`: the two languages and Markdown transcripts. */
export const DEFAULT_DOCUMENT_SELECTOR: DocumentFilter[] = [
  { language: 'telt' },
  { language: 'nesl' },
  { language: 'markdown', pattern: '**/*.transcript.md' },
  { language: 'markdown', pattern: '**/*.llm.md' },
];

/** The `blockls.*` settings as the user writes them (package.json `contributes.configuration`). */
export interface UserSettings {
  serverPath: string;
  serverArgs: string[];
  documentSelector: DocumentFilter[];
  dialects: string[];
  allowedRoots: string[];
  denyPatterns: string[];
  execAllowed: boolean;
  schemaFile: string;
  docsUrl: string;
  maxDocumentBytes: number | null;
}

/** The settings object of the server (docs/lsp.md, "Settings"). */
export interface ServerSettings {
  dialects?: string[];
  allowedRoots?: string[];
  denyPatterns?: string[];
  execAllowed?: boolean;
  schemaFile?: string;
  docsUrl?: string;
  maxDocumentBytes?: number;
}

/**
 * The settings a workspace may not set until the user trusts it (package.json
 * `capabilities.untrustedWorkspaces.restrictedConfigurations`): VS Code then reads only the
 * user's values of these. serverPath, serverArgs, execAllowed and allowedRoots have `machine`
 * scope as well, so a workspace can never set them.
 */
export const RESTRICTED_SETTINGS = [
  'blockls.serverPath',
  'blockls.serverArgs',
  'blockls.execAllowed',
  'blockls.allowedRoots',
  'blockls.denyPatterns',
  'blockls.schemaFile',
  'blockls.docsUrl',
] as const;

/**
 * The settings in force for a workspace: in an untrusted one (Restricted Mode) `exec` never
 * runs, whatever the user's `execAllowed` says.
 */
export function settingsForTrust<T extends Partial<UserSettings>>(user: T, trusted: boolean): T {
  return trusted ? user : { ...user, execAllowed: false };
}

function expandFolder(value: string, workspaceFolder: string | undefined): string {
  if (!workspaceFolder) return value;
  return value.split('${workspaceFolder}').join(workspaceFolder);
}

/**
 * User settings -> server settings. Unset or empty values are left out so the server keeps its
 * own defaults (an empty `docsUrl` would otherwise replace the server's docs URL by ""), except
 * where empty is itself the default the server must go back to: `allowedRoots` [] (the workspace
 * folders) and `schemaFile` "" (the built-in catalog). Leaving those out when the user cleared
 * them kept the roots and schema sent before until the server restarted: a root the user took
 * away stayed allowed. `${workspaceFolder}` in paths is replaced by the first workspace folder's
 * path.
 */
export function serverSettings(user: Partial<UserSettings>, workspaceFolder?: string): ServerSettings {
  const out: ServerSettings = {};
  if (Array.isArray(user.dialects) && user.dialects.length > 0) out.dialects = [...user.dialects];
  if (Array.isArray(user.allowedRoots))
    out.allowedRoots = user.allowedRoots.map((r) => expandFolder(r, workspaceFolder));
  // Always sent, [] too: the patterns add to the server's defaults, so [] means "the defaults
  // only", and leaving the key out would keep the patterns sent before.
  if (Array.isArray(user.denyPatterns)) out.denyPatterns = [...user.denyPatterns];
  if (typeof user.execAllowed === 'boolean') out.execAllowed = user.execAllowed;
  if (typeof user.schemaFile === 'string') out.schemaFile = expandFolder(user.schemaFile, workspaceFolder);
  if (user.docsUrl) out.docsUrl = user.docsUrl;
  if (typeof user.maxDocumentBytes === 'number' && user.maxDocumentBytes >= 0)
    out.maxDocumentBytes = Math.floor(user.maxDocumentBytes);
  return out;
}

/** `initialize` params.initializationOptions. */
export function initializationOptions(user: Partial<UserSettings>, workspaceFolder?: string) {
  return { blockls: serverSettings(user, workspaceFolder) };
}

/** `workspace/didChangeConfiguration` params, sent whenever a `blockls.*` setting changes. */
export function didChangeConfigurationParams(user: Partial<UserSettings>, workspaceFolder?: string) {
  return { settings: { blockls: serverSettings(user, workspaceFolder) } };
}

/** The server is started as `<serverPath> lsp <serverArgs...>`. */
export function serverArguments(user: Partial<UserSettings>): string[] {
  return ['lsp', ...(user.serverArgs ?? [])];
}

export interface ExecuteBlockArgument {
  uri: string;
  version: number;
  line: number;
}
export interface ExecuteAllArgument {
  uri: string;
  version: number;
}

/** Arguments of `blockls.executeBlock`: the same shape as the server's code lens arguments. */
export function executeBlockArguments(uri: string, version: number, line: number): [ExecuteBlockArgument] {
  return [{ uri, version, line }];
}

export function executeAllArguments(uri: string, version: number): [ExecuteAllArgument] {
  return [{ uri, version }];
}

export function showDebugInfoArguments(uri?: string): [] | [{ uri: string }] {
  return uri ? [{ uri }] : [];
}

/** `textDocument/codeAction` params asking only for the fix-all action over the whole text. */
export function fixAllParams(uri: string, documentEnd: Position): CodeActionParams {
  return {
    textDocument: { uri },
    range: { start: { line: 0, character: 0 }, end: documentEnd },
    context: { diagnostics: [], only: [FIX_ALL_KIND], triggerKind: 1 /* Invoked */ },
  };
}

/** The fix-all action in a codeAction answer, if the server offered one. */
export function pickFixAll(actions: ReadonlyArray<unknown> | null | undefined): CodeAction | undefined {
  for (const a of actions ?? []) {
    const action = a as CodeAction;
    if (action && typeof action === 'object' && action.kind === FIX_ALL_KIND) return action;
  }
  return undefined;
}

export function documentSymbolParams(uri: string): DocumentSymbolParams {
  return { textDocument: { uri } };
}

export interface BlockCounts {
  valid: number;
  invalid: number;
}

/** Blocks are the top-level document symbols; the server's detail is "valid" or "N errors". */
export function countBlocks(symbols: ReadonlyArray<unknown> | null | undefined): BlockCounts {
  const counts: BlockCounts = { valid: 0, invalid: 0 };
  for (const s of symbols ?? []) {
    const symbol = s as DocumentSymbol;
    if (!symbol || typeof symbol !== 'object' || !('detail' in symbol)) continue;
    if (symbol.detail === 'valid') counts.valid++;
    else counts.invalid++;
  }
  return counts;
}

/** Status bar text (codicons): "$(check) 3 valid  $(error) 2 invalid". */
export function statusBarText(c: BlockCounts): string {
  if (c.valid + c.invalid === 0) return '$(circle-slash) no blocks';
  return `$(check) ${c.valid} valid  $(error) ${c.invalid} invalid`;
}

export function statusBarTooltip(c: BlockCounts): string {
  const total = c.valid + c.invalid;
  return `blockls: ${total} block${total === 1 ? '' : 's'} in this document, ${c.valid} valid (can be applied), ${c.invalid} with errors`;
}

interface ActionResult {
  action?: string;
  success?: boolean;
  error?: string;
  params?: Record<string, unknown>;
}
export interface ExecuteResult {
  applied?: boolean;
  backend?: string;
  results?: ActionResult[];
  touched?: string[];
  failureReason?: string;
}

/** One sentence for the notification after blockls.executeBlock / executeAll. */
export function describeExecuteResult(result: unknown): { ok: boolean; message: string } {
  const r = (result ?? {}) as ExecuteResult;
  const results = Array.isArray(r.results) ? r.results : [];
  const failed = results.filter((a) => a && a.success === false);
  const n = results.length;
  const actions = `${n} action${n === 1 ? '' : 's'}`;
  const where = r.backend === 'disk' ? ' on disk' : r.backend === 'workspaceEdit' ? ' in the editor' : '';
  if (r.applied) {
    const names = results.map((a) => a.action).filter(Boolean).join(', ');
    return { ok: true, message: `blockls: applied ${actions}${where}${names ? ` (${names})` : ''}.` };
  }
  const why = r.failureReason ?? failed.map((a) => a.error).filter(Boolean).join('; ') ?? '';
  return { ok: false, message: `blockls: nothing was applied${why ? `: ${why}` : '.'}` };
}

/**
 * Finds the server binary: `serverPath` when set (a path, `~` expanded), else `blockls` on PATH,
 * else `bundled` (the binary shipped inside a platform-specific .vsix, when there is one).
 * `isExecutable` is injected so this stays free of Node and VS Code imports.
 */
export function resolveServerPath(
  serverPath: string | undefined,
  env: { PATH?: string; HOME?: string },
  isExecutable: (path: string) => boolean,
  platform: string = 'linux',
  bundled?: string,
): { path: string } | { error: string } {
  const sep = platform === 'win32' ? ';' : ':';
  const exe = platform === 'win32' ? ['blockls.exe', 'blockls'] : ['blockls'];
  let p = (serverPath ?? '').trim();
  if (p) {
    if (p.startsWith('~/') && env.HOME) p = env.HOME + p.slice(1);
    if (!p.includes('/') && !p.includes('\\')) {
      const found = searchPath([p], env.PATH ?? '', sep, isExecutable);
      if (found) return { path: found };
    } else if (isExecutable(p)) {
      return { path: p };
    }
    return { error: `The blockls server set in "blockls.serverPath" (${p}) is not an executable file.` };
  }
  const found = searchPath(exe, env.PATH ?? '', sep, isExecutable);
  if (found) return { path: found };
  if (bundled && isExecutable(bundled)) return { path: bundled };
  return {
    error:
      'No "blockls" executable was found on PATH. Build it (scripts/demo.sh) or install it, ' +
      'then set "blockls.serverPath" to its full path.',
  };
}

function searchPath(names: string[], PATH: string, sep: string, isExecutable: (p: string) => boolean) {
  for (const dir of PATH.split(sep)) {
    if (!dir) continue;
    for (const name of names) {
      const candidate = dir.replace(/[\\/]+$/, '') + '/' + name;
      if (isExecutable(candidate)) return candidate;
    }
  }
  return undefined;
}
