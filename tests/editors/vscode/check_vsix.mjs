// Checks a packaged .vsix: the files it must hold and the manifest's languages, grammars,
// commands, menus and settings; with --target linux-x64, also the bundled server (bin/blockls,
// executable) and the manifest's target platform, else that no server is bundled.
// Usage: node check_vsix.mjs FILE.vsix [--target linux-x64]. Exit 0 pass, 1 fail.
import { createRequire } from 'node:module';
import path from 'node:path';
import fs from 'node:fs';

const ext = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../../editors/vscode');
const require = createRequire(path.join(ext, 'package.json'));
const yauzl = require('yauzl'); // a dependency of @vscode/vsce

let failed = false;
const check = (ok, what) => { console.log(`${ok ? 'PASS' : 'FAIL'} ${what}`); if (!ok) failed = true; };

const modes = new Map(); // file name -> Unix permission bits, as an installer restores them
function readZip(file) {
  return new Promise((resolve, reject) => {
    const entries = new Map();
    modes.clear();
    yauzl.open(file, { lazyEntries: true }, (err, zip) => {
      if (err) return reject(err);
      zip.on('entry', (e) => zip.openReadStream(e, (err2, s) => {
        if (err2) return reject(err2);
        const chunks = [];
        s.on('data', (c) => chunks.push(c));
        s.on('end', () => {
          entries.set(e.fileName, Buffer.concat(chunks));
          modes.set(e.fileName, (e.externalFileAttributes >>> 16) & 0o777);
          zip.readEntry();
        });
      }));
      zip.on('end', () => resolve(entries));
      zip.readEntry();
    });
  });
}

const vsix = process.argv[2];
const target = process.argv[3] === '--target' ? process.argv[4] : undefined;
const files = await readZip(vsix);
console.log(`${vsix}: ${fs.statSync(vsix).size} bytes, ${files.size} files: ${[...files.keys()].join(' ')}`);
for (const f of ['extension.vsixmanifest', 'extension/package.json', 'extension/dist/extension.js', 'extension/readme.md',
  'extension/syntaxes/telt.tmLanguage.json', 'extension/syntaxes/nesl.tmLanguage.json',
  'extension/syntaxes/markdown-blocks.injection.json', 'extension/language-configuration.telt.json',
  'extension/language-configuration.nesl.json'])
  check(files.has(f), `contains ${f}`);
check(![...files.keys()].some((f) => f.includes('node_modules/') || f.startsWith('extension/src/') || f.endsWith('.map')),
  'no node_modules, sources or source maps');

const manifest = files.get('extension.vsixmanifest').toString();
if (target) {
  check(files.has('extension/bin/blockls'), `${target}: the server is bundled as extension/bin/blockls`);
  check(files.get('extension/bin/blockls')?.subarray(0, 4).toString('latin1') === '\x7fELF', `${target}: bin/blockls is an ELF binary`);
  check(modes.get('extension/bin/blockls') === 0o755, `${target}: bin/blockls is stored with mode 755 (got ${modes.get('extension/bin/blockls')?.toString(8)})`);
  check(manifest.includes(`TargetPlatform="${target}"`), `${target}: the manifest names the target platform`);
} else {
  check(![...files.keys()].some((f) => f.startsWith('extension/bin/')), 'no bundled server in the platform-neutral package');
  check(!/TargetPlatform=/.test(manifest), 'no target platform in the platform-neutral package');
}

const pkg = JSON.parse(files.get('extension/package.json'));
const c = pkg.contributes;
check(pkg.main === './dist/extension.js', 'main is the bundle');
const lock = JSON.parse(fs.readFileSync(path.join(ext, 'package-lock.json'), 'utf8'));
const typesVscode = lock.packages['node_modules/@types/vscode'].version;
check(pkg.engines.vscode === `^${typesVscode}`, `engines.vscode ${pkg.engines.vscode} matches @types/vscode ${typesVscode}`);
check(/Identity Language="en-US" Id="blockls"/.test(files.get('extension.vsixmanifest').toString()), 'vsixmanifest identity');

const lang = (id) => c.languages.find((l) => l.id === id);
check(lang('telt')?.extensions.join() === '.telt', 'language telt: *.telt');
check(lang('nesl')?.extensions.sort().join() === '.nesl,.sham', 'language nesl: *.nesl, *.sham');
for (const l of c.languages) check(files.has('extension/' + l.configuration.replace(/^\.\//, '')), `language configuration of ${l.id} packaged`);

for (const [scope, language] of [['source.telt', 'telt'], ['source.nesl', 'nesl'], ['markdown.blockls.injection', undefined]]) {
  const g = c.grammars.find((x) => x.scopeName === scope);
  check(g && g.language === language, `grammar ${scope}${language ? ' for ' + language : ''}`);
  const text = g && files.get('extension/' + g.path.replace(/^\.\//, ''));
  let parsed;
  try { parsed = JSON.parse(text); } catch { parsed = undefined; }
  check(parsed?.scopeName === scope, `grammar file ${g?.path} is JSON with scopeName ${scope}`);
}
check(c.grammars.find((g) => g.scopeName === 'markdown.blockls.injection')?.injectTo?.includes('text.html.markdown'),
  'injection grammar injected into Markdown');

const commands = ['blockls.executeBlockAtCursor', 'blockls.executeAllBlocks', 'blockls.fixAll', 'blockls.showServerDebugInfo', 'blockls.restartServer'];
for (const id of commands) {
  check(c.commands.some((x) => x.command === id && x.title && x.category === 'blockls'), `command ${id}`);
  check(c.menus['editor/context'].some((m) => m.command === id), `context menu ${id}`);
}
check(!c.commands.some((x) => ['blockls.executeBlock', 'blockls.executeAll', 'blockls.showDebugInfo'].includes(x.command)),
  "no contributed command clashes with the server's commands (the client registers those)");

const props = c.configuration.properties;
for (const key of ['serverPath', 'serverArgs', 'documentSelector', 'dialects', 'allowedRoots', 'denyPatterns', 'execAllowed',
  'schemaFile', 'docsUrl', 'maxDocumentBytes', 'trace.server'])
  check(props['blockls.' + key] !== undefined, `setting blockls.${key}`);
check(/warning/i.test(props['blockls.execAllowed'].markdownDescription) && props['blockls.execAllowed'].default === false,
  'execAllowed: off by default, with a warning');
check(props['blockls.serverPath'].default === '', 'serverPath defaults to PATH lookup');
// Workspace trust: a repository's .vscode/settings.json must not choose the server or its
// arguments, turn exec on, widen the allowed roots, or replace the user's deny patterns, schema
// or docs URL (docs/editors.md, "Workspace trust").
const trust = pkg.capabilities?.untrustedWorkspaces;
check(trust?.supported === 'limited' && typeof trust.description === 'string' && /exec/.test(trust.description),
  'capabilities.untrustedWorkspaces: limited, with a description that names exec');
for (const key of ['serverPath', 'serverArgs', 'execAllowed', 'allowedRoots', 'denyPatterns', 'schemaFile', 'docsUrl'])
  check(trust?.restrictedConfigurations?.includes('blockls.' + key), `blockls.${key} is a restricted configuration`);
for (const key of ['serverPath', 'serverArgs', 'execAllowed', 'allowedRoots']) {
  const scope = props['blockls.' + key].scope ?? 'window';
  check(scope === 'machine' || scope === 'application', `blockls.${key}: no workspace can set it (scope ${scope})`);
}
check(Array.isArray(props['blockls.denyPatterns'].default) && props['blockls.denyPatterns'].default.length === 0 &&
  /added to/.test(props['blockls.denyPatterns'].markdownDescription), 'denyPatterns: empty by default, added to the server defaults');
const sel = props['blockls.documentSelector'].default;
check(JSON.stringify(sel) === JSON.stringify([{ language: 'telt' }, { language: 'nesl' },
  { language: 'markdown', pattern: '**/*.transcript.md' }, { language: 'markdown', pattern: '**/*.llm.md' }]),
  'documentSelector default: telt, nesl, *.transcript.md, *.llm.md');

// The bundle needs nothing but `vscode` and Node built-ins at run time.
const bundle = files.get('extension/dist/extension.js').toString();
const requires = new Set([...bundle.matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1]));
const { builtinModules } = await import('node:module');
const foreign = [...requires].filter((r) => r !== 'vscode' && !builtinModules.includes(r.replace(/^node:/, '')));
check(foreign.length === 0, `bundle requires only vscode and built-ins (${[...requires].sort().join(', ')})`);

console.log(failed ? 'RESULT: FAIL' : 'RESULT: PASS');
process.exit(failed ? 1 : 0);
