// The VS Code extension's requests, sent by a Node client (vscode-jsonrpc) to the real
// `blockls lsp`: every request is built by editors/vscode/src/protocol.ts (bundled to
// PROTOCOL_MJS), as the extension builds it, and answered the way VS Code would (workspace/applyEdit
// with documentChanges applied to the files). Usage:
//   PROTOCOL_MJS=protocol.mjs node lsp_client.test.mjs BLOCKLS DEMO_TRANSCRIPT
// Exit 0 pass, 1 fail, 2 exception, 3 timeout. No sleeps: every step waits on a message.
import { createRequire } from 'node:module';
import cp from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import assert from 'node:assert/strict';

const ext = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../../editors/vscode');
const require = createRequire(path.join(ext, 'package.json'));
const L = require('vscode-languageserver-protocol/node');
const P = await import(pathToFileURL(process.env.PROTOCOL_MJS).href);

const [blockls, demoPath] = process.argv.slice(2);
const TIMEOUT_MS = Number(process.env.LSP_TIMEOUT_MS || 60000); // overall limit, not a timing check
let proc;
const timer = setTimeout(() => { console.log(`FAIL: timeout after ${TIMEOUT_MS} ms`); proc?.kill(); process.exit(3); }, TIMEOUT_MS);

let failed = false;
const check = (ok, what) => { console.log(`${ok ? 'PASS' : 'FAIL'} ${what}`); if (!ok) failed = true; return ok; };
const same = (a, b) => { try { assert.deepStrictEqual(a, b); return true; } catch { return false; } };

// ---- a small document model and VS Code-like workspace edits (UTF-16 = JS string indices) ----
const offsetAt = (text, pos) => {
  let o = 0;
  for (let i = 0; i < pos.line; i++) {
    const nl = text.indexOf('\n', o);
    if (nl < 0) return text.length;
    o = nl + 1;
  }
  return Math.min(o + pos.character, text.length);
};
const applyEdits = (text, edits) => [...edits]
  .sort((a, b) => offsetAt(text, b.range.start) - offsetAt(text, a.range.start))
  .reduce((t, e) => t.slice(0, offsetAt(t, e.range.start)) + e.newText + t.slice(offsetAt(t, e.range.end)), text);
const fsPath = (uri) => new URL(uri).pathname;

function unitChecks() {
  // protocol.ts on its own: server path lookup, settings mapping, result sentences.
  const exe = new Set(['/opt/bin/blockls', '/custom/blockls']);
  const isExe = (p) => exe.has(p);
  check(same(P.resolveServerPath('', { PATH: '/usr/bin:/opt/bin' }, isExe), { path: '/opt/bin/blockls' }), 'server found on PATH');
  check(same(P.resolveServerPath('/custom/blockls', { PATH: '' }, isExe), { path: '/custom/blockls' }), 'serverPath setting wins');
  const none = P.resolveServerPath('', { PATH: '/usr/bin' }, isExe);
  check('error' in none && /blockls\.serverPath/.test(none.error), 'clear error when no server: ' + none.error);
  check('error' in P.resolveServerPath('/nope/blockls', {}, isExe), 'error for a serverPath that is not executable');
  // The binary bundled in the linux-x64 .vsix: used only when neither the setting nor PATH has one.
  exe.add('/ext/bin/blockls');
  check(same(P.resolveServerPath('', { PATH: '/usr/bin' }, isExe, 'linux', '/ext/bin/blockls'), { path: '/ext/bin/blockls' }),
    'bundled server used when none is on PATH');
  check(same(P.resolveServerPath('', { PATH: '/opt/bin' }, isExe, 'linux', '/ext/bin/blockls'), { path: '/opt/bin/blockls' }),
    'PATH wins over the bundled server');
  check(same(P.resolveServerPath('/custom/blockls', { PATH: '' }, isExe, 'linux', '/ext/bin/blockls'), { path: '/custom/blockls' }),
    'serverPath wins over the bundled server');
  check('error' in P.resolveServerPath('', { PATH: '/usr/bin' }, isExe, 'linux', '/ext/bin/missing'),
    'error when the bundled server is not executable either');
  check(same(P.serverSettings({ dialects: ['telt'], docsUrl: '', maxDocumentBytes: null }),
    { dialects: ['telt'] }), 'empty settings are left to the server defaults');
  // Cleared roots and schema are sent as cleared: left out, the server kept the ones sent before.
  check(same(P.serverSettings({ dialects: ['telt'], schemaFile: '', allowedRoots: [] }),
    { dialects: ['telt'], allowedRoots: [], schemaFile: '' }), 'cleared roots and schema are sent');
  check(same(P.serverSettings({ allowedRoots: ['${workspaceFolder}/src'], schemaFile: '${workspaceFolder}/s.yaml' }, '/w'),
    { allowedRoots: ['/w/src'], schemaFile: '/w/s.yaml' }), '${workspaceFolder} expanded');
  check(same(P.serverArguments({ serverArgs: ['--log-level', 'debug'] }), ['lsp', '--log-level', 'debug']), 'server arguments');
  // Restricted Mode: exec is off whatever the setting says; a trusted workspace keeps the setting.
  check(P.serverSettings(P.settingsForTrust({ execAllowed: true, dialects: ['telt'] }, false)).execAllowed === false,
    'untrusted workspace: execAllowed sent as false');
  check(P.serverSettings(P.settingsForTrust({ execAllowed: true }, true)).execAllowed === true, 'trusted workspace: execAllowed kept');
  const manifest = JSON.parse(fs.readFileSync(path.join(ext, 'package.json'), 'utf8'));
  check(same([...P.RESTRICTED_SETTINGS].sort(), [...manifest.capabilities.untrustedWorkspaces.restrictedConfigurations].sort()),
    'RESTRICTED_SETTINGS = package.json restrictedConfigurations');
  check(P.describeExecuteResult({ applied: false, failureReason: 'x' }).ok === false, 'describeExecuteResult: failure');
}

async function main() {
  unitChecks();
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'blockls-vscode-'));
  const wsUri = pathToFileURL(ws).href;
  const docPath = path.join(ws, 'demo.transcript.md');
  fs.copyFileSync(demoPath, docPath);
  const uri = pathToFileURL(docPath).href;
  let text = fs.readFileSync(docPath, 'utf8');
  let version = 1;

  // The user's settings as VS Code would hold them (package.json defaults, allowedRoots set).
  const user = {
    serverPath: '', serverArgs: ['--debounce-ms', '0'], documentSelector: P.DEFAULT_DOCUMENT_SELECTOR,
    dialects: ['telt', 'nesl'], allowedRoots: ['${workspaceFolder}'],
    denyPatterns: [], execAllowed: false,
    schemaFile: '', docsUrl: '', maxDocumentBytes: null,
  };
  proc = cp.spawn(blockls, P.serverArguments(user), { cwd: ws, stdio: ['pipe', 'pipe', 'inherit'] });
  proc.on('error', (e) => { console.log('FAIL: spawn', e.message); process.exit(2); });
  const conn = L.createProtocolConnection(new L.StreamMessageReader(proc.stdout), new L.StreamMessageWriter(proc.stdin));

  // publishDiagnostics waiters: resolve on the first publish for (uri, version) that passes `pred`
  let waiters = [];
  const published = [];
  conn.onNotification(L.PublishDiagnosticsNotification.type, (p) => {
    if (p.uri !== uri) return;
    published.push(p);
    waiters = waiters.filter((w) => (w.pred(p) ? (w.resolve(p), false) : true));
  });
  const diagnosticsFor = (pred) => {
    const hit = published.find(pred);
    return hit ? Promise.resolve(hit) : new Promise((resolve) => waiters.push({ pred, resolve }));
  };
  const messages = [];
  conn.onNotification(L.ShowMessageNotification.type, (p) => messages.push(p.message));
  conn.onNotification(L.LogMessageNotification.type, () => {});
  conn.onRequest('client/registerCapability', () => null);
  conn.onRequest(L.WorkDoneProgressCreateRequest.type, () => null);
  conn.onRequest(L.ConfigurationRequest.type, (p) => p.items.map(() => P.serverSettings(user, ws)));

  // workspace/applyEdit: documentChanges applied as VS Code would, to the files (and our doc)
  const applied = [];
  conn.onRequest(L.ApplyWorkspaceEditRequest.type, (p) => {
    applied.push(p);
    for (const ch of p.edit.documentChanges ?? []) {
      if (ch.kind === 'create') {
        if (!(fs.existsSync(fsPath(ch.uri)) && ch.options?.ignoreIfExists)) {
          fs.mkdirSync(path.dirname(fsPath(ch.uri)), { recursive: true });
          fs.writeFileSync(fsPath(ch.uri), '');
        }
      } else if (ch.kind === 'rename') {
        fs.mkdirSync(path.dirname(fsPath(ch.newUri)), { recursive: true });
        fs.renameSync(fsPath(ch.oldUri), fsPath(ch.newUri));
      } else if (ch.kind === 'delete') {
        fs.rmSync(fsPath(ch.uri), { recursive: !!ch.options?.recursive, force: !!ch.options?.ignoreIfNotExists });
      } else if (ch.textDocument.uri === uri) {
        text = applyEdits(text, ch.edits);
      } else {
        const f = fsPath(ch.textDocument.uri);
        fs.writeFileSync(f, applyEdits(fs.readFileSync(f, 'utf8'), ch.edits));
      }
    }
    return { applied: true };
  });
  conn.listen();

  // ---- initialize: capabilities as vscode-languageclient 9 advertises them (the ones that matter)
  const init = await conn.sendRequest(L.InitializeRequest.type, {
    processId: process.pid, clientInfo: { name: 'Visual Studio Code', version: '1.82.0' },
    rootUri: wsUri, workspaceFolders: [{ uri: wsUri, name: 'ws' }],
    initializationOptions: P.initializationOptions(user, ws),
    capabilities: {
      general: { positionEncodings: ['utf-16'] },
      workspace: {
        applyEdit: true, configuration: true, workspaceFolders: true,
        workspaceEdit: { documentChanges: true, resourceOperations: ['create', 'rename', 'delete'], failureHandling: 'textOnlyTransactional' },
        executeCommand: { dynamicRegistration: true }, didChangeConfiguration: { dynamicRegistration: true },
      },
      textDocument: {
        synchronization: { didSave: true },
        publishDiagnostics: { relatedInformation: true, versionSupport: false, codeDescriptionSupport: true, dataSupport: true },
        codeAction: {
          codeActionLiteralSupport: { codeActionKind: { valueSet: ['', 'quickfix', 'refactor', 'source', 'source.fixAll'] } },
          isPreferredSupport: true, dataSupport: true, resolveSupport: { properties: ['edit'] },
        },
        codeLens: {}, documentSymbol: { hierarchicalDocumentSymbolSupport: true }, hover: { contentFormat: ['markdown', 'plaintext'] },
      },
      window: { workDoneProgress: true, showMessage: {} },
    },
  });
  const caps = init.capabilities;
  check(Object.values(P.SERVER_COMMANDS).every((c) => caps.executeCommandProvider?.commands?.includes(c)),
    'server offers ' + Object.values(P.SERVER_COMMANDS).join(', '));
  check(caps.codeActionProvider?.codeActionKinds?.includes(P.FIX_ALL_KIND), 'server offers ' + P.FIX_ALL_KIND);
  check(!!caps.codeLensProvider && !!caps.documentSymbolProvider, 'code lenses and document symbols');
  conn.sendNotification(L.InitializedNotification.type, {});

  // ---- open the demo transcript: diagnostics, status bar count, code lenses
  conn.sendNotification(L.DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'markdown', version, text } });
  const d1 = await diagnosticsFor((p) => p.version === 1);
  const codes = new Set(d1.diagnostics.map((d) => d.code));
  console.log('diagnostics v1:', [...codes].join(' '));
  check(['UNKNOWN_COMMAND', 'HASH_MISMATCH', 'INVALID_VALUE', 'UNCLOSED_BLOCK', 'LEGACY_ERA', 'INDENTED_DELIMITER', 'UNKNOWN_PARAM']
    .every((c) => codes.has(c)), 'every demo diagnostic published');
  check(d1.diagnostics.every((d) => d.source === 'blockls'), 'diagnostics from source blockls');
  const unknown = d1.diagnostics.find((d) => d.code === 'UNKNOWN_COMMAND');
  check(unknown?.data?.fixes?.[0]?.edits?.[0]?.newText === 'MOVE_FILE' && unknown.severity === 1, 'UNKNOWN_COMMAND: error with its fix in data');

  const counts1 = P.countBlocks(await conn.sendRequest(L.DocumentSymbolRequest.type, P.documentSymbolParams(uri)));
  check(same(counts1, { valid: 3, invalid: 3 }), `status bar counts ${JSON.stringify(counts1)}: ${P.statusBarText(counts1)}`);

  const lenses = await conn.sendRequest(L.CodeLensRequest.type, { textDocument: { uri } });
  console.log('code lenses:', lenses.map((l) => `${l.range.start.line}:${l.command?.title}`).join(' | '));
  const applyLenses = lenses.filter((l) => l.command?.command === P.SERVER_COMMANDS.executeBlock);
  check(applyLenses.length === 3 && applyLenses.every((l) => /^▶ Apply block \(1 action\)$/.test(l.command.title)), '3 "▶ Apply block (1 action)" lenses');
  check(lenses.filter((l) => /^✗ \d+ errors?$/.test(l.command?.title ?? '')).length === 3, '3 "✗ N errors" lenses');
  // The palette's Execute Block builds exactly the lens's arguments for a cursor on the block's first line.
  check(applyLenses.every((l) => same(l.command.arguments, P.executeBlockArguments(uri, version, l.range.start.line))),
    'executeBlockArguments(uri, version, line) == the code lens arguments');

  // ---- Execute Block at a cursor inside the first block (h3l) -> workspace/applyEdit
  const lines = text.split('\n');
  const h3l = lines.indexOf('#!telt [3-char SHA: h3l]');
  const r1 = await conn.sendRequest(L.ExecuteCommandRequest.type,
    { command: P.SERVER_COMMANDS.executeBlock, arguments: P.executeBlockArguments(uri, version, h3l + 4) });
  const said = P.describeExecuteResult(r1);
  check(said.ok && r1.backend === 'workspaceEdit', `executeBlock applied through a WorkspaceEdit: ${said.message}`);
  check(applied.length === 1 && applied[0].edit.documentChanges?.some((c) => c.kind === 'create'), 'server sent applyEdit with CreateFile');
  check(fs.readFileSync(path.join(ws, 'demo-out/hello.sh'), 'utf8') === '#!/bin/sh\necho "hello from blockls"', 'demo-out/hello.sh written');

  // ---- the server refuses an invalid block with a sentence (the extension shows it as is)
  const m4v = lines.indexOf('#!telt [3-char SHA: m4v]');
  const refused = await conn.sendRequest(L.ExecuteCommandRequest.type,
    { command: P.SERVER_COMMANDS.executeBlock, arguments: P.executeBlockArguments(uri, version, m4v) }).then(() => null, (e) => e);
  check(refused?.code === -32803 && /has 2 errors.*nothing was changed/.test(refused.message), `invalid block refused: ${refused?.message}`);

  // ---- Fix All: codeAction(only fixAll) -> resolve -> apply -> didChange -> no errors
  const end = { line: lines.length - 1, character: lines[lines.length - 1].length };
  const fixAll = P.pickFixAll(await conn.sendRequest(L.CodeActionRequest.type, P.fixAllParams(uri, end)));
  check(!!fixAll && /^Fix all blockls problems/.test(fixAll.title), `fix-all action offered: ${fixAll?.title}`);
  const resolved = fixAll.edit ? fixAll : await conn.sendRequest(L.CodeActionResolveRequest.type, fixAll);
  check(!fixAll.edit && !!resolved.edit, 'fix-all resolved lazily (codeAction/resolve)');
  const docEdits = resolved.edit.documentChanges ?? [{ textDocument: { uri }, edits: resolved.edit.changes[uri] }];
  for (const de of docEdits) text = applyEdits(text, de.edits);
  version++;
  conn.sendNotification(L.DidChangeTextDocumentNotification.type, { textDocument: { uri, version }, contentChanges: [{ text }] });
  const d2 = await diagnosticsFor((p) => p.version === version);
  const errors2 = d2.diagnostics.filter((d) => d.severity === 1);
  check(errors2.length === 0, `no errors after Fix All (${d2.diagnostics.map((d) => d.code).join(' ')})`);
  check(text.includes('=== MOVE_FILE ===') && text.includes('--END m4v--') && text.includes('count = "1"') && text.includes('#!end_s9k'),
    'fixed text: command, end hash, quoted count, closed block');
  const counts2 = P.countBlocks(await conn.sendRequest(L.DocumentSymbolRequest.type, P.documentSymbolParams(uri)));
  check(same(counts2, { valid: 6, invalid: 0 }), `status bar after Fix All: ${P.statusBarText(counts2)}`);

  // ---- Execute All: a stale version is refused, the current one applies every block
  const stale = await conn.sendRequest(L.ExecuteCommandRequest.type,
    { command: P.SERVER_COMMANDS.executeAll, arguments: P.executeAllArguments(uri, version - 1) }).then(() => null, (e) => e);
  check(stale?.code === -32803 && /changed since version/.test(stale.message), `stale version refused: ${stale?.message}`);
  const r2 = await conn.sendRequest(L.ExecuteCommandRequest.type,
    { command: P.SERVER_COMMANDS.executeAll, arguments: P.executeAllArguments(uri, version) });
  console.log('executeAll:', P.describeExecuteResult(r2).message);
  check(r2.applied === true && r2.results.length === 6, 'executeAll applied 6 actions');
  const notes = fs.readFileSync(path.join(ws, 'demo-out/notes.md'), 'utf8');
  check(fs.existsSync(path.join(ws, 'demo-out/greet.sh')) && !fs.existsSync(path.join(ws, 'demo-out/hello.sh')) &&
    notes === '# Notes\nThe demo works.\n- written by a SHAM block', `files after executeAll (notes: ${JSON.stringify(notes)})`);

  // ---- Show Server Debug Info: the settings the extension sent
  const info = await conn.sendRequest(L.ExecuteCommandRequest.type,
    { command: P.SERVER_COMMANDS.showDebugInfo, arguments: P.showDebugInfoArguments(uri) });
  check(same(info.settings.allowedRoots, [ws]) && info.settings.execAllowed === false && info.document?.version === version,
    `debug info: allowedRoots ${JSON.stringify(info.settings.allowedRoots)}, document v${info.document?.version}`);

  // ---- a settings change (dialects: telt only) goes out as didChangeConfiguration
  conn.sendNotification(L.DidChangeConfigurationNotification.type, P.didChangeConfigurationParams({ ...user, dialects: ['telt'] }, ws));
  const info2 = await conn.sendRequest(L.ExecuteCommandRequest.type,
    { command: P.SERVER_COMMANDS.showDebugInfo, arguments: P.showDebugInfoArguments() });
  check(info2.settings.telt === true && info2.settings.nesl === false, 'didChangeConfiguration: NESL turned off');
  const counts3 = P.countBlocks(await conn.sendRequest(L.DocumentSymbolRequest.type, P.documentSymbolParams(uri)));
  check(same(counts3, { valid: 3, invalid: 0 }), `only TELT blocks counted now: ${P.statusBarText(counts3)}`);

  await conn.sendRequest(L.ShutdownRequest.type);
  conn.sendNotification(L.ExitNotification.type);
  const code = await new Promise((r) => (proc.exitCode !== null ? r(proc.exitCode) : proc.on('exit', r)));
  check(code === 0, `server exit code ${code}`);
  conn.dispose();
  if (!failed) fs.rmSync(ws, { recursive: true, force: true });
  else console.log('workspace kept:', ws, 'messages:', messages);
}

main().then(
  () => { clearTimeout(timer); console.log(failed ? 'RESULT: FAIL' : 'RESULT: PASS'); process.exit(failed ? 1 : 0); },
  (e) => { console.log('FAIL: exception', e?.stack || e); proc?.kill(); process.exit(2); });
