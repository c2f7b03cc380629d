// The VS Code extension's own client code (editors/vscode/src/features.ts: client options and
// middleware, palette commands, status bar) running in Monaco with the real VS Code API
// (@codingame/monaco-vscode-api) and vscode-languageclient 9.0.1 — the version the extension
// ships — against the real `blockls lsp`, bridged over a WebSocket by bridge.mjs. The
// extension's manifest contributes the languages, grammars and settings; the Markdown grammar
// comes from VS Code's markdown-basics extension. Steps wait on events; bridge.mjs takes the
// screenshot (diagnostics, code lenses, the quick-fix menu) when asked.
import * as vscode from 'vscode';
import '@codingame/monaco-vscode-markdown-basics-default-extension';
import { MonacoVscodeApiWrapper } from 'monaco-languageclient/vscodeApiWrapper';
import { LanguageClientWrapper } from 'monaco-languageclient/lcwrapper';
import { EditorApp } from 'monaco-languageclient/editorApp';
import { configureDefaultWorkerFactory } from 'monaco-languageclient/workerFactory';
import getBulkEditServiceOverride from '@codingame/monaco-vscode-bulk-edit-service-override';
import { InMemoryFileSystemProvider, registerFileSystemOverlay } from '@codingame/monaco-vscode-files-service-override';
import pkg from '../../../../editors/vscode/package.json';
import teltGrammar from '../../../../editors/vscode/syntaxes/telt.tmLanguage.json?raw';
import neslGrammar from '../../../../editors/vscode/syntaxes/nesl.tmLanguage.json?raw';
import injectionGrammar from '../../../../editors/vscode/syntaxes/markdown-blocks.injection.json?raw';
import teltConfig from '../../../../editors/vscode/language-configuration.telt.json?raw';
import neslConfig from '../../../../editors/vscode/language-configuration.nesl.json?raw';
import { languageClientOptions, registerFeatures, type BlockStatus, type ClientHost } from '../../../../editors/vscode/src/features';
import * as P from '../../../../editors/vscode/src/protocol';

const log: string[] = [];
const say = (s: string) => { log.push(s); console.log(s); };
let failed = false;
const check = (ok: unknown, what: string) => { say(`${ok ? 'PASS' : 'FAIL'} ${what}`); if (!ok) failed = true; return !!ok; };
const canonical = (v: unknown): string => JSON.stringify(v, (_k, x) =>
  x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => a.localeCompare(b))) : x);
const post = (url: string, body: unknown) => fetch(url, { method: 'POST', body: JSON.stringify(body) });

/** Resolves when `test()` holds, re-checked whenever `event` fires; rejects after `ms` (a limit, not a timing check). */
function when<T>(event: vscode.Event<unknown> | undefined, test: () => T | undefined | false, what: string, ms = 30000): Promise<T> {
  return new Promise((resolve, reject) => {
    const first = test();
    if (first) return resolve(first);
    const timer = setTimeout(() => { sub?.dispose(); reject(new Error('gave up waiting for ' + what)); }, ms);
    const sub = event?.(() => {
      const v = test();
      if (v) { clearTimeout(timer); sub?.dispose(); resolve(v); }
    });
  });
}
/** Resolves when a DOM element matching `selector` (and `test`) exists. */
function element(selector: string, test: (e: Element) => boolean = () => true, ms = 30000): Promise<Element> {
  return new Promise((resolve, reject) => {
    const find = () => [...document.querySelectorAll(selector)].find(test);
    const hit = find();
    if (hit) return resolve(hit);
    const timer = setTimeout(() => { obs.disconnect(); reject(new Error('gave up waiting for ' + selector)); }, ms);
    const obs = new MutationObserver(() => { const e = find(); if (e) { clearTimeout(timer); obs.disconnect(); resolve(e); } });
    obs.observe(document.body, { childList: true, subtree: true, characterData: true });
  });
}

async function run() {
  const cfg = await (await fetch('/config')).json() as { ws: string; demo: string };
  const fileUri = vscode.Uri.file(cfg.ws + '/demo.transcript.md');

  const manifest = { ...pkg, name: 'blockls', publisher: 'blockls', engines: { vscode: '*' } };
  const apiWrapper = new MonacoVscodeApiWrapper({
    $type: 'extended',
    viewsConfig: { $type: 'EditorService' },
    // VS Code's bulk edit service: WorkspaceEdits with file operations (CreateFile, RenameFile, ...)
    serviceOverrides: { ...getBulkEditServiceOverride() },
    monacoWorkerFactory: configureDefaultWorkerFactory,
    userConfiguration: {
      json: JSON.stringify({
        'workbench.colorTheme': 'Default Dark Modern',
        'editor.codeLens': true,
        'editor.lightbulb.enabled': 'on',
        'editor.minimap.enabled': false,
        'editor.fontSize': 13,
        'editor.stickyScroll.enabled': false,
        'blockls.allowedRoots': [cfg.ws], // the server's root: actions are confined to it
      }),
    },
    extensions: [{
      config: manifest as never,
      filesOrContents: new Map([
        ['/syntaxes/telt.tmLanguage.json', teltGrammar],
        ['/syntaxes/nesl.tmLanguage.json', neslGrammar],
        ['/syntaxes/markdown-blocks.injection.json', injectionGrammar],
        ['/language-configuration.telt.json', teltConfig],
        ['/language-configuration.nesl.json', neslConfig],
      ]),
    }],
  });
  await apiWrapper.start();
  say('api wrapper started');
  // A writable in-memory file system over file:// so that the server's WorkspaceEdits (CreateFile,
  // RenameFile, ...) can be applied in the page, as VS Code applies them to its workspace.
  const memfs = new InMemoryFileSystemProvider();
  registerFileSystemOverlay(1, memfs);
  let dir = '';
  for (const part of cfg.ws.split('/').filter(Boolean)) {
    dir += '/' + part;
    await memfs.mkdir(vscode.Uri.file(dir) as never);
  }
  await memfs.writeFile(fileUri as never, new TextEncoder().encode(cfg.demo), { create: true, overwrite: true, unlock: false, atomic: false });

  // The extension's host interface, with a WebSocket client instead of the stdio one.
  let wrapper: LanguageClientWrapper | undefined;
  const host: ClientHost = {
    client: () => wrapper?.getLanguageClient(),
    restart: async () => { await wrapper?.restart(); },
  };
  const context = { subscriptions: [] as vscode.Disposable[] } as unknown as vscode.ExtensionContext;
  const status: BlockStatus = registerFeatures(context, host);
  const statusEl = document.getElementById('status')!;
  const updated = new vscode.EventEmitter<void>();
  status.onDidUpdate(() => {
    statusEl.textContent = status.item.text.replace('$(check)', '✔').replace('$(error)', '✖');
    statusEl.className = 'item' + ((status.counts?.invalid ?? 0) > 0 ? ' warn' : '');
    updated.fire();
  });

  const app = new EditorApp({ codeResources: { modified: { text: cfg.demo, uri: fileUri.path } } });
  await app.start(document.getElementById('editor')!);
  const editor = app.getEditor()!;
  editor.focus(); // the focused editor is VS Code's activeTextEditor (what the status bar follows)
  await when(vscode.window.onDidChangeActiveTextEditor, () => vscode.window.activeTextEditor, 'active editor');
  say('editor started');

  wrapper = new LanguageClientWrapper({
    languageId: 'markdown',
    connection: { options: { $type: 'WebSocketUrl', url: `ws://${location.host}/lsp` } },
    clientOptions: languageClientOptions(host),
  });
  await wrapper.start();
  say('language client started (clientOptions and middleware from features.ts)');
  void status.refresh();

  const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === fileUri.toString())!;
  check(doc?.languageId === 'markdown', 'transcript opened as markdown');

  // 1. diagnostics
  const expected = ['UNKNOWN_COMMAND', 'HASH_MISMATCH', 'INVALID_VALUE', 'UNCLOSED_BLOCK', 'LEGACY_ERA', 'INDENTED_DELIMITER', 'UNKNOWN_PARAM'];
  const diags = await when(vscode.languages.onDidChangeDiagnostics, () => {
    const d = vscode.languages.getDiagnostics(fileUri);
    const codes = new Set(d.map((x) => (typeof x.code === 'object' ? x.code.value : x.code)));
    return expected.every((c) => codes.has(c)) && d;
  }, 'diagnostics');
  check(true, 'diagnostics: ' + diags.map((d) => `${typeof d.code === 'object' ? d.code.value : d.code}@${d.range.start.line + 1}`).join(' '));
  const unknown = diags.find((d) => (typeof d.code === 'object' ? d.code.value : d.code) === 'UNKNOWN_COMMAND')!;
  check(unknown.severity === vscode.DiagnosticSeverity.Error && typeof unknown.code === 'object' && /codes/.test(String(unknown.code.target)),
    'UNKNOWN_COMMAND is an error linking to its docs page');

  // 2. status bar item
  await when(updated.event, () => status.counts && status.counts.valid + status.counts.invalid === 6, 'status bar count');
  check(status.item.text === '$(check) 3 valid  $(error) 3 invalid', 'status bar: ' + status.item.text);

  // 3. code lenses
  const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', fileUri);
  const titles = lenses.map((l) => l.command?.title ?? '');
  say('code lenses: ' + titles.join(' | '));
  check(titles.filter((t) => t === '▶ Apply block (1 action)').length === 3 && titles.includes('✗ 2 errors'), 'code lenses: 3 apply, errors counted');
  check(lenses.filter((l) => l.command?.command === P.SERVER_COMMANDS.executeBlock)
    .every((l) => canonical(l.command!.arguments) === canonical(P.executeBlockArguments(fileUri.toString(), doc.version, l.range.start.line))),
  'lens arguments = executeBlockArguments(uri, version, line)');

  // 4. quick fixes, shown as the editor's quick-fix menu, then the screenshot
  const lines = doc.getText().split('\n');
  const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', fileUri, unknown.range);
  check(actions.some((a) => a.title === "Change 'MOVE_FLIE' to 'MOVE_FILE'" && a.isPreferred), 'quick fix offered: ' + actions.map((a) => a.title).join(' | '));
  const mismatch = diags.find((d) => (typeof d.code === 'object' ? d.code.value : d.code) === 'HASH_MISMATCH')!;
  const hashFixes = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', fileUri, mismatch.range);
  const hashFix = hashFixes.find((a) => a.kind?.value === 'quickfix' && a.isPreferred)!;
  check(!!hashFix, 'HASH_MISMATCH fix: ' + hashFix?.title);
  editor.setPosition({ lineNumber: mismatch.range.start.line + 1, column: mismatch.range.start.character + 2 });
  editor.revealLineInCenter(mismatch.range.start.line - 7);
  // tokenize the whole model (the viewport is first coloured from a guessed state)
  const model = editor.getModel()!;
  const part = (model as unknown as { tokenization?: { forceTokenization?(line: number): void; hasAccurateTokensForLine?(line: number): boolean } }).tokenization;
  part?.forceTokenization?.(model.getLineCount());
  say('accurate tokens for the last line: ' + part?.hasAccurateTokensForLine?.(model.getLineCount()));
  editor.focus();
  // let the code lenses render before opening the menu
  await element('.codelens-decoration', (e) => (e.textContent ?? '').includes('Apply block'));
  editor.trigger('test', 'editor.action.quickFix', {});
  const menu = await element('.action-widget', (e) => (e.textContent ?? '').includes(hashFix.title));
  check(!!menu, 'quick-fix menu open: ' + (menu as HTMLElement).innerText.replace(/\s+/g, ' '));
  check(!!document.querySelector('.squiggly-error'), 'error squiggles rendered');
  const shot = await (await post('/screenshot', {})).json();
  check(shot.ok, 'screenshot taken: ' + shot.file);
  editor.trigger('test', 'hideCodeActionWidget', {});

  // The page's files live in an in-memory file system and the server checks the real disk, so the
  // steps below only create files that exist in neither. VS Code applies a WorkspaceEdit to
  // editor models (the user saves them), so results are read through openTextDocument.
  const text = async (rel: string) => (await vscode.workspace.openTextDocument(vscode.Uri.file(cfg.ws + '/' + rel))).getText();

  // 5. Fix All (palette command): source.fixAll.blockls resolved and applied
  check(await vscode.commands.executeCommand(P.EXTENSION_COMMANDS.fixAll), 'Fix All applied');
  check(doc.getText().includes('=== MOVE_FILE ===') && doc.getText().includes('#!end_s9k'), 'document fixed');
  await when(updated.event, () => status.counts?.valid === 6, 'status after Fix All');
  check(status.item.text === '$(check) 6 valid  $(error) 0 invalid', 'status bar after Fix All: ' + status.item.text);
  check(vscode.languages.getDiagnostics(fileUri).every((d) => d.severity !== vscode.DiagnosticSeverity.Error), 'no errors left');

  // 6. Show Server Debug Info
  const info = await vscode.commands.executeCommand<Record<string, any>>(P.EXTENSION_COMMANDS.showServerDebugInfo);
  check(info?.positionEncoding === 'utf-16' && JSON.stringify(info?.settings?.allowedRoots) === JSON.stringify([cfg.ws]),
    `debug info: encoding ${info?.positionEncoding}, allowedRoots ${JSON.stringify(info?.settings?.allowedRoots)}`);

  // 7. Restart Server: a new server, the document synced again
  await vscode.commands.executeCommand(P.EXTENSION_COMMANDS.restartServer);
  check(host.client()?.isRunning(), 'Restart Server: client running again');
  const lenses2 = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', fileUri);
  check(lenses2.length === 6 && lenses2.every((l) => l.command?.title === '▶ Apply block (1 action)'), 'after restart: 6 apply lenses');

  // 8. Execute All Blocks (palette command) -> blockls.executeAll -> one WorkspaceEdit
  const r2 = await vscode.commands.executeCommand(P.EXTENSION_COMMANDS.executeAllBlocks);
  const said2 = P.describeExecuteResult(r2);
  check(said2.ok && (r2 as P.ExecuteResult).backend === 'workspaceEdit' && (r2 as P.ExecuteResult).results?.length === 6, 'Execute All: ' + said2.message);
  check(await text('demo-out/notes.md') === '# Notes\nThe demo works.\n- written by a SHAM block', 'notes.md written, replaced, appended');
  check(await text('demo-out/greet.sh') === '#!/bin/sh\necho "hello from blockls"', 'hello.sh created and moved to greet.sh');

  // 9. Execute Block at the cursor (palette command) -> the server's blockls.executeBlock
  const h3l = lines.indexOf('#!telt [3-char SHA: h3l]');
  editor.setPosition({ lineNumber: h3l + 4, column: 1 });
  const r1 = await vscode.commands.executeCommand(P.EXTENSION_COMMANDS.executeBlockAtCursor);
  const said = P.describeExecuteResult(r1);
  check(said.ok && (r1 as P.ExecuteResult).results?.length === 1, 'Execute Block: ' + said.message);
  check(await text('demo-out/hello.sh') === '#!/bin/sh\necho "hello from blockls"', 'demo-out/hello.sh created again');

  await wrapper.dispose();
}

run().then(() => post('/result', { failed, log }), (e) => { failed = true; say('EXCEPTION ' + (e?.stack || e)); return post('/result', { failed, log }); });
