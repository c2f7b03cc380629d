// node bridge.mjs BLOCKLS DEMO_TRANSCRIPT [SCREENSHOT.png]
// Serves the built page (dist/), bridges ws://127.0.0.1:PORT/lsp <-> `BLOCKLS lsp` on stdio (one
// JSON-RPC message per WebSocket frame), gives the page a fresh workspace (/config), takes the
// screenshot through the DevTools protocol when the page POSTs /screenshot, runs headless
// Chromium, and exits with the page's verdict: 0 pass, 1 fail, 3 overall timeout.
// Env: CHROMIUM (default chromium), PORT (default 0 = any free port), TIMEOUT_MS, CHROME_LOG=1, DIST.
import http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { WebSocketServer, WebSocket } from 'ws';

const here = path.dirname(new URL(import.meta.url).pathname);
const [blockls, demoPath, screenshotFile] = process.argv.slice(2);
const TIMEOUT = Number(process.env.TIMEOUT_MS || 180000); // overall limit only
const dist = path.resolve(here, process.env.DIST || 'dist');
const types = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json',
  '.wasm': 'application/wasm', '.ttf': 'font/ttf', '.svg': 'image/svg+xml', '.png': 'image/png' };
const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'blockls-monaco-ws-'));
fs.copyFileSync(demoPath, path.join(ws, 'demo.transcript.md'));
const servers = [];
let chrome, udd;

const done = async (code, msg) => {
  console.log(msg);
  for (const s of servers) { try { s.kill(); } catch { /* gone */ } }
  if (chrome && chrome.exitCode === null) {
    const gone = new Promise((r) => chrome.once('exit', r));
    chrome.kill();
    await Promise.race([gone, new Promise((r) => setTimeout(r, 5000))]);
  }
  if (code === 0) fs.rmSync(ws, { recursive: true, force: true });
  process.exit(code);
};
setTimeout(() => done(3, `FAIL: overall timeout after ${TIMEOUT} ms`), TIMEOUT).unref();

async function screenshot(file) {
  const port = fs.readFileSync(path.join(udd, 'DevToolsActivePort'), 'utf8').split('\n')[0];
  const page = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()).find((t) => t.type === 'page');
  const cdp = new WebSocket(page.webSocketDebuggerUrl);
  await new Promise((r) => cdp.once('open', r));
  let id = 0;
  const call = (method, params = {}) => new Promise((resolve) => {
    const my = ++id;
    const on = (m) => { const j = JSON.parse(m); if (j.id === my) { cdp.off('message', on); resolve(j.result); } };
    cdp.on('message', on);
    cdp.send(JSON.stringify({ id: my, method, params }));
  });
  // wait for two animation frames in the page so the menu and squiggles are painted
  await call('Runtime.evaluate', { expression: 'new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(1))))', awaitPromise: true });
  const shot = await call('Page.captureScreenshot', { format: 'png', clip: { x: 0, y: 0, width: 1180, height: 662, scale: 1 } });
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  fs.writeFileSync(file, Buffer.from(shot.data, 'base64'));
  cdp.close();
}

const srv = http.createServer((req, res) => {
  const body = () => new Promise((r) => { let b = ''; req.on('data', (c) => (b += c)); req.on('end', () => r(b)); });
  if (req.url === '/config') {
    res.writeHead(200, { 'content-type': 'application/json' });
    return res.end(JSON.stringify({ ws, demo: fs.readFileSync(demoPath, 'utf8') }));
  }
  if (req.method === 'POST' && req.url === '/screenshot') {
    return void body().then(async () => {
      const file = screenshotFile || path.join(ws, 'screenshot.png');
      try { await screenshot(file); console.log('screenshot', file); res.end(JSON.stringify({ ok: true, file })); }
      catch (e) { console.log('screenshot failed', e); res.end(JSON.stringify({ ok: false, file: String(e) })); }
    });
  }
  if (req.method === 'POST' && req.url === '/result') {
    return void body().then((b) => {
      res.end('ok');
      const r = JSON.parse(b);
      r.log.forEach((l) => console.log('[page]', l));
      done(r.failed ? 1 : 0, r.failed ? 'RESULT: FAIL' : 'RESULT: PASS');
    });
  }
  const f = path.join(dist, decodeURIComponent(req.url.split('?')[0]).replace(/\/$/, '/index.html'));
  if (!f.startsWith(dist)) { res.writeHead(403); return res.end(); }
  fs.readFile(f, (e, data) => {
    if (e) { res.writeHead(404); return res.end(); }
    res.writeHead(200, { 'content-type': types[path.extname(f)] || 'application/octet-stream' });
    res.end(data);
  });
});

new WebSocketServer({ server: srv, path: '/lsp' }).on('connection', (sock) => {
  // one server per connection (Restart Server opens a new one)
  const lsp = spawn(blockls, ['lsp', '--debounce-ms', '0'], { cwd: ws, stdio: ['pipe', 'pipe', 'inherit'] });
  servers.push(lsp);
  console.log('server started, pid', lsp.pid);
  let buf = Buffer.alloc(0);
  lsp.stdout.on('data', (chunk) => { // Content-Length frames -> one WebSocket text message each
    buf = Buffer.concat([buf, chunk]);
    for (;;) {
      const h = buf.indexOf('\r\n\r\n');
      if (h < 0) break;
      const n = Number(/Content-Length: *(\d+)/i.exec(buf.subarray(0, h).toString())[1]);
      if (buf.length < h + 4 + n) break;
      sock.send(buf.subarray(h + 4, h + 4 + n).toString('utf8'));
      buf = buf.subarray(h + 4 + n);
    }
  });
  lsp.on('exit', (code) => console.log('server exited', code));
  sock.on('message', (m) => {
    const b = Buffer.from(m.toString(), 'utf8');
    if (lsp.stdin.writable) { lsp.stdin.write(`Content-Length: ${b.length}\r\n\r\n`); lsp.stdin.write(b); }
  });
  sock.on('close', () => lsp.stdin.end());
});

srv.listen(Number(process.env.PORT || 0), '127.0.0.1', () => {
  const port = srv.address().port;
  // fresh profile each run, wiped at the start (Chromium's helpers keep writing for a moment after exit)
  udd = path.join(here, 'chrome-profile');
  fs.rmSync(udd, { recursive: true, force: true });
  fs.mkdirSync(udd);
  chrome = spawn(process.env.CHROMIUM || 'chromium', ['--headless', '--no-sandbox', '--disable-gpu',
    '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run',
    '--hide-scrollbars', `--user-data-dir=${udd}`, '--remote-debugging-port=0', '--window-size=1180,820',
    '--enable-logging=stderr', '--v=0', `http://127.0.0.1:${port}/`],
  { stdio: ['ignore', 'ignore', process.env.CHROME_LOG ? 'inherit' : 'ignore'],
    // keep crashpad and dconf out of $HOME: they ignore --user-data-dir
    env: { ...process.env, XDG_CONFIG_HOME: `${udd}/xdg-config`, XDG_CACHE_HOME: `${udd}/xdg-cache` } });
  chrome.on('exit', (c) => console.log('chromium exited', c));
});
