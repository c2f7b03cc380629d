// The extension in a real VS Code workbench (code-server: VS Code 1.100.3 with its Node extension
// host), driven through Debian's Chromium with puppeteer-core, exactly as a user would: install
// the linux-x64 .vsix (the bundled server, no blockls.serverPath, none on PATH), open the demo
// transcript, read the Problems panel, code lenses and status bar, apply the preferred quick fix,
// Execute Block, Restart Server, change blockls.dialects. Expected values come from
// `blockls check` on the same file, so the editor is held to what the CLI reports.
// Usage: node workbench.test.mjs (everything through the environment, see vscode_e2e_test.sh):
//   E2E_MODULES  directory whose node_modules hold code-server and puppeteer-core
//   VSIX         the linux-x64 .vsix        BLOCKLS  the same server, for the expected values
//   DEMO         examples/demo.transcript.md   ARTIFACTS  where screenshots and logs go
//   CHROMIUM     default /usr/bin/chromium     TIMEOUT_MS  overall limit (default 300000)
// Exit 0 pass, 1 fail, 3 overall timeout.
import { createRequire } from 'node:module';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const env = process.env;
const require = createRequire(path.join(env.E2E_MODULES, 'package.json'));
const puppeteer = require('puppeteer-core');
const codeServer = path.join(env.E2E_MODULES, 'node_modules/code-server/out/node/entry.js');
const artifacts = path.resolve(env.ARTIFACTS);
const TIMEOUT = Number(env.TIMEOUT_MS || 300000);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const began = Date.now();
const readOr = (file, otherwise = undefined) => { try { return fs.readFileSync(file, 'utf8'); } catch { return otherwise; } };

fs.rmSync(artifacts, { recursive: true, force: true });
fs.mkdirSync(artifacts, { recursive: true });
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'blockls-vscode-e2e-'));
const dirs = { ws: path.join(work, 'ws'), user: path.join(work, 'user/User'), ext: path.join(work, 'ext'),
  home: path.join(work, 'home'), chrome: path.join(work, 'chrome') };
for (const d of Object.values(dirs)) fs.mkdirSync(d, { recursive: true });
const demo = path.join(dirs.ws, 'demo.transcript.md');
fs.copyFileSync(env.DEMO, demo);

let failed = false;
const check = (ok, what) => {
  console.log(`${ok ? 'PASS' : 'FAIL'} ${what}`);
  if (!ok) failed = true;
  return ok;
};

// ---- expected values: `blockls check` on the same file, with the workspace as root ----------
function cliReport(dialects) {
  const r = spawnSync(env.BLOCKLS, ['check', '--format', 'json', '--root', dirs.ws, '--dialects', dialects, demo], { encoding: 'utf8' });
  if (r.status !== 0 && r.status !== 1) throw new Error(`blockls check exited ${r.status}: ${r.stderr}`);
  const file = JSON.parse(r.stdout).files[0];
  // The LSP severities of docs/lsp.md: block_fatal, command_error -> Error; parameter_warning ->
  // Warning; syntax_info -> Information.
  const severity = { block_fatal: 'error', command_error: 'error', parameter_warning: 'warning', syntax_info: 'info' };
  const errors = file.errors.map((e) => ({ ...e, severity: severity[e.severity] }));
  const bySeverity = (s) => errors.filter((e) => e.severity === s).length;
  const blocks = file.blocks.map((b) => ({
    line: b.metadata.start_line,
    errors: errors.filter((e) => e.block_id === b.metadata.hash && e.severity === 'error').length,
    actions: b.commands.length,
  }));
  return {
    count: errors.length, errors: bySeverity('error'), warnings: bySeverity('warning'), infos: bySeverity('info'),
    codes: [...new Set(errors.map((e) => e.code))].sort(), blocks,
    valid: blocks.filter((b) => b.errors === 0).length, invalid: blocks.filter((b) => b.errors > 0).length,
  };
}

// ---- code-server ------------------------------------------------------------------------
const freePort = () => new Promise((resolve) => {
  const s = net.createServer().listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
});
// No blockls on PATH: the extension must find the server it bundles.
const PATH = (env.PATH || '').split(':').filter((d) => d && !fs.existsSync(path.join(d, 'blockls'))).join(':');
const csEnv = { ...env, PATH, HOME: dirs.home, XDG_CONFIG_HOME: `${dirs.home}/.config`, XDG_DATA_HOME: `${dirs.home}/.local/share`,
  XDG_CACHE_HOME: `${dirs.home}/.cache` };
const csArgs = ['--config', path.join(work, 'config.yaml'), '--user-data-dir', path.join(work, 'user'), '--extensions-dir', dirs.ext];
const settingsFile = path.join(dirs.user, 'settings.json');
const writeSettings = (extra = {}) => fs.writeFileSync(settingsFile, JSON.stringify({
  'workbench.startupEditor': 'none', 'workbench.tips.enabled': false, 'security.workspace.trust.enabled': false,
  'telemetry.telemetryLevel': 'off', 'update.mode': 'none', 'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false, 'chat.commandCenter.enabled': false, 'workbench.colorTheme': 'Default Dark Modern',
  'editor.minimap.enabled': false, 'files.autoSave': 'off', 'window.restoreWindows': 'none',
  // Typing into settings.json (step 7) gives exactly the typed text.
  'editor.autoClosingBrackets': 'never', 'editor.autoClosingQuotes': 'never', 'editor.autoSurround': 'never',
  'editor.quickSuggestions': { other: 'off', comments: 'off', strings: 'off' }, 'editor.suggestOnTriggerCharacters': false,
  'editor.acceptSuggestionOnCommitCharacter': false, 'editor.formatOnType': false,
  'blockls.trace.server': 'messages', // the JSON-RPC trace lands in the output channel artefact
  ...extra,
}, null, 2));

let cs, browser, page;
const outputLog = () => {
  // The output channels of the extension host are files under the user data dir's logs.
  const found = [];
  const walk = (d) => { for (const e of fs.readdirSync(d, { withFileTypes: true })) {
    const p = path.join(d, e.name);
    if (e.isDirectory()) walk(p); else if (/-blockls\.log$/.test(e.name)) found.push(p);
  } };
  try { walk(path.join(work, 'user/logs')); } catch { /* not yet */ }
  return found.sort().map((f) => fs.readFileSync(f, 'utf8')).join('\n');
};
const serverProcesses = () => {
  // `blockls lsp` processes started from the installed extension (by /proc, this machine only).
  const out = [];
  for (const pid of fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const argv = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
      if (argv[0]?.startsWith(dirs.ext) && argv[1] === 'lsp') out.push({ pid: Number(pid), argv });
    } catch { /* gone */ }
  }
  return out;
};

async function finish(code, why) {
  if (why) console.log(why);
  if (code !== 0 && page) {
    try { await page.screenshot({ path: path.join(artifacts, 'failure.png') }); console.log('screenshot', path.join(artifacts, 'failure.png')); } catch { /* closed */ }
  }
  const channel = outputLog();
  fs.writeFileSync(path.join(artifacts, 'blockls-output.log'), channel);
  // On every path: a server that crashed and was restarted by the client leaves these lines.
  if (!check(!/Server will restart|will not be restarted|crashed|not expected/i.test(channel),
    'output channel: no restart loop, no rejected argument')) code = code || 1;
  if (code !== 0) console.log('--- the blockls output channel (last 20 lines) ---\n' + channel.trim().split('\n').slice(-20).join('\n') + '\n---');
  try { await browser?.close(); } catch { /* gone */ }
  if (cs && cs.exitCode === null) {
    const gone = new Promise((r) => cs.once('exit', r));
    cs.kill('SIGTERM');
    await Promise.race([gone, sleep(5000)]);
  }
  // The extension host is gone: its servers must go too (end of input, --clientProcessId).
  for (let i = 0; i < 50 && serverProcesses().length; i++) await sleep(100);
  if (!check(serverProcesses().length === 0, 'no blockls server left running after the workbench exits')) code = code || 1;
  if (code === 0) fs.rmSync(work, { recursive: true, force: true });
  else console.log(`(work directory kept: ${work}; code-server log: ${artifacts}/code-server.log)`);
  console.log(`${code === 0 ? 'RESULT: PASS' : 'RESULT: FAIL'} (${Math.round((Date.now() - began) / 1000)} s)`);
  process.exit(code);
}
setTimeout(() => finish(3, `FAIL: overall timeout after ${TIMEOUT} ms`), TIMEOUT).unref();

// ---- workbench helpers --------------------------------------------------------------------
async function waitFor(what, fn, ms = 30000) {
  const end = Date.now() + ms;
  let last;
  for (;;) {
    try { last = await fn(); } catch (e) { last = undefined; }
    if (last) return last;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(200);
  }
}
let shots = 0;
async function shot(name) {
  const file = path.join(artifacts, `${String(++shots).padStart(2, '0')}-${name}.png`);
  await page.screenshot({ path: file });
  console.log('screenshot', file);
  return file;
}
const key = async (...keys) => {
  for (const k of keys.slice(0, -1)) await page.keyboard.down(k);
  await page.keyboard.press(keys[keys.length - 1]);
  for (const k of keys.slice(0, -1).reverse()) await page.keyboard.up(k);
};
// Runs a command from the palette by its full title: the row whose label is exactly that title
// (the fuzzy order may put another first: "File: Save" lists "Compare Active File with Saved").
async function palette(title) {
  await focusEditor();
  await key('F1');
  const input = await waitFor('the command palette', () => page.$('.quick-input-widget:not([style*="display: none"]) input'));
  await input.type(title);
  const row = await waitFor(`"${title}" in the palette`, async () => {
    for (const r of await page.$$('.quick-input-list .monaco-list-row')) {
      const label = await r.evaluate((e) => (e.querySelector('.label-name') || e).innerText.split('\n')[0].replace(/\u00a0/g, ' ').trim());
      if (label === title) return r;
    }
    return undefined;
  });
  await row.click();
  await waitFor('the palette to close', () => page.$eval('.quick-input-widget', (w) => getComputedStyle(w).display === 'none').catch(() => true));
}
async function openTab(name) {
  const tab = await waitFor(`the ${name} tab`, async () => {
    for (const t of await page.$$('.tabs-container .tab')) if ((await t.evaluate((e) => e.innerText)).includes(name)) return t;
    return undefined;
  });
  await tab.click();
  await waitFor(`${name} active`, () => page.$$eval('.tabs-container .tab.active', (t, n) => t.some((e) => e.innerText.includes(n)), name));
}
async function focusEditor() {
  await page.evaluate(() => document.querySelector('.editor-instance .monaco-editor textarea, .editor-instance .monaco-editor .native-edit-context')?.focus());
}
async function goTo(line, column = 1) {
  await focusEditor();
  await key('Control', 'g');
  const input = await waitFor('go to line', () => page.$('.quick-input-widget:not([style*="display: none"]) input'));
  await input.type(`${line}:${column}`);
  await page.keyboard.press('Enter');
  await waitFor(`the cursor on ${line}:${column}`, () => page.$$eval('.statusbar-item',
    (els, want) => els.some((e) => e.innerText.trim() === want), `Ln ${line}, Col ${column}`));
}
const statusItems = () => page.$$eval('.statusbar-item', (els) => els.map((e) => ({ id: e.id, text: e.innerText.trim(), label: e.getAttribute('aria-label') || '' })));
async function problemCounts() {
  // The Problems status item: its tooltip/aria label counts errors, warnings and infos.
  const items = await statusItems();
  const p = items.find((i) => i.id === 'status.problems');
  if (!p) return undefined;
  const n = (re) => Number((re.exec(p.label) || [0, 0])[1]);
  return { errors: n(/Errors?: (\d+)/i), warnings: n(/Warnings?: (\d+)/i), infos: n(/Infos?: (\d+)/i), label: p.label, text: p.text };
}
async function blockStatus() {
  const items = await statusItems();
  const m = items.map((i) => /(\d+) valid\s+(\d+) invalid/.exec(i.text)).find(Boolean);
  return m ? { valid: Number(m[1]), invalid: Number(m[2]) } : undefined;
}
// The code lens above `line` (1-based), found by its position against the line-number gutter.
// The cursor goes to the line once, then the DOM is polled without touching the editor: VS Code's
// code lens controller cancels its pending (debounced) lens request whenever the editor text loses
// focus, and every Ctrl+G does that, so re-running goTo in the poll could starve the request.
// Returns the lens text once it equals `expected`, else the last text seen when `ms` runs out.
async function lensAbove(line, expected, ms) {
  await goTo(line);
  let seen;
  const read = () => page.evaluate((want) => {
    const num = [...document.querySelectorAll('.editor-instance .margin-view-overlays .line-numbers')].find((e) => e.textContent.trim() === String(want));
    if (!num) return undefined;
    const top = num.getBoundingClientRect().top;
    let best;
    for (const lens of document.querySelectorAll('.editor-instance .codelens-decoration')) {
      const r = lens.getBoundingClientRect();
      if (r.bottom <= top + 2 && top - r.bottom < 30 && (!best || r.top > best.r.top)) best = { r, text: lens.innerText.trim() };
    }
    return best?.text;
  }, line);
  return waitFor(`the code lens above line ${line}`, async () => ((seen = await read()) === expected ? seen : undefined), ms)
    .catch(() => seen);
}
// On a failed lens check: what the editor shows (lenses, line numbers) and what the server was asked.
async function dumpLenses(line) {
  const seen = await page.evaluate(() => ({
    lenses: [...document.querySelectorAll('.editor-instance .codelens-decoration')].map((e) => `${Math.round(e.getBoundingClientRect().top)}:${e.innerText.trim()}`),
    lines: [...document.querySelectorAll('.editor-instance .margin-view-overlays .line-numbers')].map((e) => `${e.textContent.trim()}@${Math.round(e.getBoundingClientRect().top)}`),
  })).catch((e) => ({ error: String(e) }));
  const asked = outputLog().split('\n').filter((l) => /codeLens|cancelRequest|refresh/.test(l));
  console.log(`  (line ${line}) editor: ${JSON.stringify(seen)}\n  server traffic: ${asked.slice(-12).join(' | ')}`);
}
async function problemsRows() {
  return page.$$eval('.markers-panel .monaco-list-row', (rows) => rows.map((r) => r.innerText.replace(/\s+/g, ' ').trim()));
}

// ---- the test -----------------------------------------------------------------------------
async function main() {
  const all = cliReport('telt,nesl');
  const teltOnly = cliReport('telt');
  console.log(`expected (blockls check): ${all.count} diagnostics (${all.errors} errors, ${all.warnings} warnings, ${all.infos} infos), ` +
    `codes ${all.codes.join(' ')}; blocks ${all.valid} valid ${all.invalid} invalid; TELT only: ${teltOnly.count} diagnostics`);
  check(all.count > teltOnly.count && all.codes.includes('UNKNOWN_COMMAND'), 'the demo has NESL diagnostics and the MOVE_FLIE error');

  // Install the .vsix the way a user does; the bundled server must keep its executable bit.
  const inst = spawnSync(process.execPath, [codeServer, ...csArgs, '--install-extension', env.VSIX], { env: csEnv, encoding: 'utf8' });
  check(inst.status === 0 && /successfully installed/.test(inst.stdout), `--install-extension ${path.basename(env.VSIX)}: ${(inst.stdout + inst.stderr).trim().split('\n').pop()}`);
  const installed = fs.readdirSync(dirs.ext).find((d) => d.startsWith('blockls.blockls-'));
  const bundled = installed && path.join(dirs.ext, installed, 'bin/blockls');
  check(!!bundled && (fs.statSync(bundled).mode & 0o111) === 0o111, `the installed extension's bin/blockls is executable (${bundled})`);
  writeSettings();

  const port = await freePort();
  const log = fs.openSync(path.join(artifacts, 'code-server.log'), 'w');
  cs = spawn(process.execPath, [codeServer, ...csArgs, '--bind-addr', `127.0.0.1:${port}`, '--auth', 'none',
    '--disable-telemetry', '--disable-update-check', '--disable-workspace-trust', '--disable-getting-started-override', dirs.ws],
  { env: csEnv, stdio: ['ignore', log, log] });
  cs.on('exit', (c) => console.log('code-server exited', c));
  await waitFor('code-server to listen', () => fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.ok), 60000);

  browser = await puppeteer.launch({
    executablePath: env.CHROMIUM || '/usr/bin/chromium', headless: true, userDataDir: dirs.chrome,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', '--disable-background-networking'],
    defaultViewport: { width: 1400, height: 900 },
    env: { ...csEnv, XDG_CONFIG_HOME: `${dirs.chrome}/xdg-config`, XDG_CACHE_HOME: `${dirs.chrome}/xdg-cache` },
  });
  page = await browser.newPage();
  await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(dirs.ws)}`, { waitUntil: 'domcontentloaded' });
  await waitFor('the workbench', () => page.$('.monaco-workbench .part.editor'), 90000);
  await waitFor('the explorer to list the transcript', () => page.$$eval('.explorer-item', (els) => els.some((e) => e.innerText.includes('demo.transcript.md'))), 60000);

  // Open the transcript from the explorer (a double click keeps it open, not in preview).
  const item = await waitFor('the explorer item', async () => {
    for (const el of await page.$$('.explorer-item')) if ((await el.evaluate((e) => e.innerText)).includes('demo.transcript.md')) return el;
    return undefined;
  });
  await item.click({ count: 2 });
  await waitFor('the editor tab', () => page.$$eval('.tabs-container .tab', (t) => t.some((e) => e.innerText.includes('demo.transcript.md'))));

  // 1. The server starts once, from the bundled binary, with --stdio: no restart loop.
  const started = await waitFor('"blockls: started" in the output channel', () => /blockls: started (\S+) lsp/.exec(outputLog()), 60000);
  check(started[1] === bundled, `the extension started the bundled server (${started[1]})`);
  const procs = serverProcesses();
  check(procs.length === 1 && procs[0].argv.includes('--stdio'), `one server process: ${procs.map((p) => p.argv.join(' ')).join('; ')}`);
  const firstPid = procs[0]?.pid;

  // 2. Problems: the status item counts them; the panel lists them with their codes.
  const counts = await waitFor('the problem counts', async () => {
    const c = await problemCounts();
    return c && c.errors === all.errors && c.warnings === all.warnings && c.infos === all.infos ? c : undefined;
  }, 30000).catch(async () => problemCounts());
  check(counts?.errors === all.errors && counts?.warnings === all.warnings && counts?.infos === all.infos,
    `problem counts ${JSON.stringify(counts)} = blockls check (${all.errors}/${all.warnings}/${all.infos})`);
  // 3. Code lenses and the status item (before the Problems panel takes the editor's room).
  for (const b of all.blocks) {
    const want = b.errors === 0 ? `▶ Apply block (${b.actions} action${b.actions === 1 ? '' : 's'})` : `✗ ${b.errors} error${b.errors === 1 ? '' : 's'}`;
    const got = await lensAbove(b.line, want, 15000).catch(() => undefined);
    if (!check(got === want, `code lens above line ${b.line}: ${got} (want ${want})`)) await dumpLenses(b.line);
  }
  const st = await waitFor('the status item', blockStatus);
  check(st.valid === all.valid && st.invalid === all.invalid, `status item: ${st.valid} valid ${st.invalid} invalid`);

  // The Problems panel, maximized to show every row, lists each code.
  await palette('View: Focus Problems (Errors, Warnings, Infos)');
  await palette('View: Toggle Maximized Panel');
  const rows = await waitFor('the Problems panel rows', async () => {
    const r = await problemsRows();
    return all.codes.every((c) => r.some((row) => row.includes(c))) ? r : undefined;
  }).catch(problemsRows);
  await shot('problems');
  for (const code of all.codes) check(rows.some((r) => r.includes('blockls') && r.includes(code)), `Problems panel lists ${code} (source blockls)`);
  check(rows.filter((r) => all.codes.some((c) => r.includes(c))).length >= all.count, `Problems panel: ${all.count} blockls rows`);
  await palette('View: Toggle Maximized Panel');

  // 4. The preferred quick fix on MOVE_FLIE: the menu lists it; Auto Fix applies it.
  const lines = fs.readFileSync(demo, 'utf8').split('\n');
  const flie = lines.findIndex((l) => l.includes('=== MOVE_FLIE ===')) + 1;
  await goTo(flie, 6);
  await key('Control', '.');
  const menu = await waitFor('the quick-fix menu', () => page.$$eval('.action-widget .monaco-list-row', (r) => r.map((e) => e.innerText.trim())).then((t) => t.length ? t : undefined));
  check(menu.includes("Change 'MOVE_FLIE' to 'MOVE_FILE'"), `quick-fix menu: ${menu.join(' | ')}`);
  await shot('walkthrough');
  await page.keyboard.press('Escape');
  // Auto Fix acts at the cursor; once in a few runs the palette's return left it elsewhere and
  // nothing changed (CI, 2026-11-26), so a second try goes to the line again first and says so.
  const fixed = () => page.$$eval('.editor-instance .view-line', (ls) => ls.some((l) => l.innerText.replace(/\u00a0/g, ' ').includes('=== MOVE_FILE ===')));
  await palette('Auto Fix...');
  let autoFixed = await waitFor('the line to change', fixed, 10000).then(() => true, () => false);
  if (!autoFixed) {
    console.log('(Auto Fix changed nothing; going to the line again and retrying once)');
    await goTo(flie, 6);
    await palette('Auto Fix...');
    autoFixed = await waitFor('the line to change', fixed, 10000).then(() => true, () => false);
  }
  check(autoFixed, autoFixed ? 'Auto Fix applied the preferred fix: === MOVE_FILE ===' : 'Auto Fix changed the line');
  await waitFor('one error fewer', async () => (await problemCounts())?.errors === all.errors - 1, 15000)
    .then(() => check(true, 'UNKNOWN_COMMAND is gone from the problems'), () => check(false, 'the error count went down by one'));
  await palette('File: Save');
  await waitFor('the fix on disk', () => fs.readFileSync(demo, 'utf8').includes('=== MOVE_FILE ==='), 10000)
    .then(() => check(true, 'the fixed line is saved to disk'), () => check(false, 'the fixed line reached the disk'));

  // 5. Execute Block (at the cursor) on the first block writes demo-out/hello.sh.
  const h3l = lines.findIndex((l) => l.startsWith('#!telt [3-char SHA: h3l]')) + 2;
  await goTo(h3l);
  await palette('blockls: Execute Block (at the cursor)');
  const hello = path.join(dirs.ws, 'demo-out/hello.sh');
  await waitFor('demo-out/hello.sh on disk', () => fs.existsSync(hello), 15000)
    .then(() => check(true, 'Execute Block created demo-out/hello.sh'), () => check(false, 'Execute Block created demo-out/hello.sh'));
  const note = await waitFor('the result notification', () => page.$$eval('.notification-list-item', (n) => n.map((e) => e.innerText).find((t) => /blockls: applied/.test(t))), 10000).catch(() => undefined);
  check(/applied 1 action/.test(note || ''), `notification: ${note}`);
  await shot('execute-block');
  await palette('File: Save All Files');
  await waitFor('hello.sh content', () => readOr(hello, '').startsWith('#!/bin/sh\necho "hello from blockls"'), 10000)
    .then(() => check(true, 'demo-out/hello.sh holds the script after Save All'), () => check(false, `demo-out/hello.sh content: ${JSON.stringify(readOr(hello))}`));

  // 6. Restart Server: a new process, diagnostics back, still no restart loop.
  const before = await problemCounts();
  await palette('blockls: Restart Server');
  await waitFor('a second "started" line', () => (outputLog().match(/blockls: started /g) || []).length === 2, 30000)
    .then(() => check(true, 'Restart Server: started again'), () => check(false, 'Restart Server: started again'));
  const after = await waitFor('one new server process', () => { const p = serverProcesses(); return p.length === 1 && p[0].pid !== firstPid ? p : undefined; }, 15000).catch(serverProcesses);
  check(after.length === 1 && after[0].pid !== firstPid, `after restart one server process, a new one (${firstPid} -> ${after.map((p) => p.pid)})`);
  await waitFor('the problems again', async () => { const c = await problemCounts(); return c?.errors === before.errors && c?.warnings === before.warnings ? c : undefined; }, 20000)
    .then(() => check(true, `problems after restart: ${before.label}`), () => check(false, 'problems after restart'));

  // 7. blockls.dialects = ["telt"], typed into the user settings as a user would: the NESL blocks
  // are no longer checked.
  await palette('Preferences: Open User Settings (JSON)');
  await waitFor('the settings.json editor', () => page.$$eval('.tabs-container .tab.active', (t) => t.some((e) => e.innerText.includes('settings.json'))));
  await focusEditor();
  await key('Control', 'Home');
  await page.keyboard.press('End');
  await page.keyboard.press('Enter');
  await page.keyboard.type('"blockls.dialects": ["telt"],');
  await key('Control', 's');
  await waitFor('the setting on disk', () => JSON.parse(fs.readFileSync(settingsFile, 'utf8'))['blockls.dialects']?.[0] === 'telt', 10000)
    .then(() => check(true, 'settings.json: "blockls.dialects": ["telt"] typed and saved'), () => check(false, `settings.json: ${fs.readFileSync(settingsFile, 'utf8')}`));
  await openTab('demo.transcript.md');
  const tOnly = cliReport('telt');
  const fixedTelt = tOnly.errors - (tOnly.codes.includes('UNKNOWN_COMMAND') ? 1 : 0); // MOVE_FLIE was fixed above
  await waitFor('TELT-only problems', async () => {
    const c = await problemCounts();
    return c?.errors === fixedTelt && c?.warnings === tOnly.warnings && c?.infos === tOnly.infos ? c : undefined;
  }, 30000)
    .then(() => check(true, `blockls.dialects ["telt"]: ${fixedTelt} errors, ${tOnly.warnings} warning(s), ${tOnly.infos} infos: no NESL/SHAM diagnostics`),
      async () => check(false, `blockls.dialects ["telt"]: problems ${JSON.stringify(await problemCounts())}, want ${fixedTelt}/${tOnly.warnings}/${tOnly.infos}`));
  // (The MOVE_FLIE fix left m4v invalid: its end hash is still wrong.)
  const st2 = await waitFor('the status item to count TELT blocks only', async () => { const s = await blockStatus(); return s && s.valid === tOnly.valid && s.invalid === tOnly.invalid ? s : undefined; }, 15000).catch(blockStatus);
  check(st2?.valid === tOnly.valid && st2?.invalid === tOnly.invalid, `status item with TELT only: ${JSON.stringify(st2)} (want ${tOnly.valid} valid ${tOnly.invalid} invalid)`);
  await shot('dialects-telt');

  await finish(failed ? 1 : 0);
}

main().catch((e) => finish(1, `FAIL: ${e.stack || e}`));
