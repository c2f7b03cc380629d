// Tokenizes TELT, NESL and a Markdown transcript with the extension's TextMate grammars through
// vscode-textmate + vscode-oniguruma (the engine VS Code uses) and checks the scopes of
// start/end lines, delimiters with their hash, keys, quoted values and heredoc bodies, and that
// the injection colours the same blocks inside Markdown fences. Markdown itself is a stub
// grammar with VS Code's two kinds of fence rule (begin/end for unknown languages, begin/while
// for shell). Usage: node grammar.test.mjs DEMO_TRANSCRIPT. Exit 0 pass, 1 fail.
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';

const ext = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../../editors/vscode');
const require = createRequire(path.join(ext, 'package.json'));
const vsctm = require('vscode-textmate');
const oniguruma = require('vscode-oniguruma');

let failed = false;
const check = (ok, what) => { console.log(`${ok ? 'PASS' : 'FAIL'} ${what}`); if (!ok) failed = true; return ok; };

const markdownStub = {
  scopeName: 'text.html.markdown',
  patterns: [
    {
      name: 'markup.fenced_code.block.markdown',
      begin: '(^|\\G)(\\s*)(`{3,}|~{3,})\\s*(?i:(shell|sh|bash)((\\s+|:|,|\\{|\\?)[^`]*)?$)',
      end: '(^|\\G)(\\2|\\s{0,3})(\\3)\\s*$',
      patterns: [{ begin: '(^|\\G)(\\s*)(.*)', while: '(^|\\G)(?!\\s*([`~]{3,})\\s*$)', contentName: 'meta.embedded.block.shell', patterns: [] }],
    },
    {
      name: 'markup.fenced_code.block.markdown',
      begin: '(^|\\G)(\\s*)(`{3,}|~{3,})\\s*(?=([^`]*)?$)',
      end: '(^|\\G)(\\2|\\s{0,3})(\\3)\\s*$',
      contentName: 'markup.raw.block.markdown',
    },
    { match: '^#{1,6} .*$', name: 'markup.heading.markdown' },
  ],
};

const files = {
  'source.telt': path.join(ext, 'syntaxes/telt.tmLanguage.json'),
  'source.nesl': path.join(ext, 'syntaxes/nesl.tmLanguage.json'),
  'markdown.blockls.injection': path.join(ext, 'syntaxes/markdown-blocks.injection.json'),
};
const wasm = fs.readFileSync(require.resolve('vscode-oniguruma/release/onig.wasm')).buffer;
await oniguruma.loadWASM(wasm);
const registry = new vsctm.Registry({
  onigLib: Promise.resolve({ createOnigScanner: (p) => new oniguruma.OnigScanner(p), createOnigString: (s) => new oniguruma.OnigString(s) }),
  loadGrammar: async (scope) => {
    if (scope === 'text.html.markdown') return markdownStub;
    return files[scope] ? vsctm.parseRawGrammar(fs.readFileSync(files[scope], 'utf8'), files[scope]) : null;
  },
  getInjections: (scope) => (scope === 'text.html.markdown' ? ['markdown.blockls.injection'] : undefined),
});

// tokenize(scope, text) -> lines of [{text, scopes}]
async function tokenize(scope, text) {
  const grammar = await registry.loadGrammar(scope);
  let state = vsctm.INITIAL;
  return text.split('\n').map((line) => {
    const r = grammar.tokenizeLine(line, state);
    state = r.ruleStack;
    return r.tokens.map((t) => ({ text: line.slice(t.startIndex, t.endIndex), scopes: t.scopes }));
  });
}
// The scopes of the token that contains `needle` in line `n` (0-based).
function scopesAt(lines, n, needle) {
  const line = lines[n].map((t) => t.text).join('');
  const at = line.indexOf(needle);
  if (at < 0) return [];
  let o = 0;
  for (const t of lines[n]) { if (at < o + t.text.length) return t.scopes; o += t.text.length; }
  return [];
}
const has = (lines, n, needle, scope) => {
  const s = scopesAt(lines, n, needle);
  return check(s.includes(scope), `line ${n + 1} '${needle}' has ${scope}${s.includes(scope) ? '' : ' (got ' + s.join(' ') + ')'}`);
};
const lacks = (lines, n, needle, prefix) => {
  const s = scopesAt(lines, n, needle);
  return check(!s.some((x) => x.startsWith(prefix)), `line ${n + 1} '${needle}' has no ${prefix}* scope (${s.join(' ')})`);
};

// ---- TELT
const telt = await tokenize('source.telt', [
  '#!telt [3-char SHA: abc]', // 0
  '=== CREATE_FILE ===', // 1
  '--FILE abc--', // 2
  'src/x.py', // 3
  '--CONTENT abc--', // 4
  '-- an sql comment', // 5
  '--END abc--', // 6
  'prose after', // 7
  '#!TELT [SHA: xyz]', // 8
  '  --PATH xyz--', // 9
  '--END xyz--', // 10
].join('\n'));
has(telt, 0, 'telt', 'keyword.control.start.telt');
has(telt, 0, 'abc', 'variable.other.constant.hash.telt');
has(telt, 1, 'CREATE_FILE', 'entity.name.function.command.telt');
has(telt, 2, 'FILE', 'variable.parameter.telt');
has(telt, 2, 'abc', 'variable.other.constant.hash.telt');
has(telt, 3, 'src/x.py', 'string.unquoted.value.telt');
has(telt, 5, 'sql comment', 'string.unquoted.value.telt');
has(telt, 6, 'END', 'keyword.control.end.telt');
has(telt, 6, 'abc', 'variable.other.constant.hash.telt');
lacks(telt, 7, 'prose', 'meta.block');
has(telt, 8, 'TELT', 'invalid.illegal.start.telt');
has(telt, 9, 'PATH', 'invalid.illegal.delimiter.telt');

// ---- NESL, three eras
const nesl = await tokenize('source.nesl', [
  '#!nesl [@three-char-SHA-256: k7m]', // 0
  'path = "xy\\"z"', // 1
  "content = <<'EOT_k7m'", // 2
  'body "not a string"', // 3
  'EOT_k7m', // 4
  '#!end_k7m', // 5
  'prose', // 6
  '#!SHAM [@three-char-SHA-256: t5b]', // 7
  "content = <<'EOT_SHAM_t5b'", // 8
  '- config movedEOT_SHAM_t5b', // 9
  'x = "y"', // 10
  '#!END_SHAM_t5b', // 11
  '#!NESL [@three-char-SHA-256: u8w]', // 12
  '#!END_NESL_u8w', // 13
].join('\n'));
has(nesl, 0, 'nesl', 'keyword.control.start.nesl');
has(nesl, 0, 'k7m', 'variable.other.constant.hash.nesl');
has(nesl, 1, 'path', 'variable.other.key.nesl');
has(nesl, 1, 'xy', 'string.quoted.double.nesl');
has(nesl, 1, '\\"', 'constant.character.escape.nesl');
has(nesl, 2, 'EOT_k7m', 'constant.other.heredoc-delimiter.nesl');
has(nesl, 3, 'body', 'meta.embedded.block.text.nesl');
lacks(nesl, 3, 'not a string', 'string.quoted');
has(nesl, 4, 'EOT_k7m', 'constant.other.heredoc-delimiter.nesl');
has(nesl, 5, 'end_', 'keyword.control.end.nesl');
lacks(nesl, 6, 'prose', 'meta.block');
has(nesl, 7, 'SHAM', 'keyword.control.start.nesl');
has(nesl, 9, 'config', 'string.unquoted.heredoc.nesl');
has(nesl, 9, 'EOT_SHAM_t5b', 'constant.other.heredoc-delimiter.nesl'); // glued delimiter closes it
has(nesl, 10, 'x', 'variable.other.key.nesl');
has(nesl, 11, 'END_SHAM_', 'keyword.control.end.nesl');
has(nesl, 12, 'NESL', 'keyword.control.start.nesl');
has(nesl, 13, 'u8w', 'variable.other.constant.hash.nesl');

// ---- the demo transcript in Markdown: blocks inside fences, prose untouched
const demoText = fs.readFileSync(process.argv[2], 'utf8');
const md = await tokenize('text.html.markdown', demoText);
const demo = demoText.split('\n');
const lineOf = (s, from = 0) => demo.indexOf(s, from);
has(md, lineOf('#!telt [3-char SHA: h3l]'), 'h3l', 'variable.other.constant.hash.telt');
has(md, lineOf('=== MOVE_FLIE ==='), 'MOVE_FLIE', 'entity.name.function.command.telt');
has(md, lineOf('demo-out/hello.sh'), 'demo-out', 'string.unquoted.value.telt');
has(md, lineOf('--END m4x--'), 'm4x', 'variable.other.constant.hash.telt');
has(md, lineOf('action = "write_file"'), 'action', 'variable.other.key.nesl');
has(md, lineOf('action = "write_file"'), 'write_file', 'string.quoted.double.nesl');
has(md, lineOf('Teh demo works.'), 'Teh', 'meta.embedded.block.text.nesl');
has(md, lineOf("content = <<'EOT_SHAM_t5b'"), 'EOT_SHAM_t5b', 'constant.other.heredoc-delimiter.nesl');
// the unclosed s9k block ends with its fence: the prose after it is not NESL
const s9k = lineOf('#!nesl [@three-char-SHA-256: s9k]');
has(md, s9k + 5, 'count', 'variable.other.key.nesl');
has(md, s9k + 5, '1', 'invalid.illegal.value.nesl');
lacks(md, lineOf('An older tool still speaks SHAM (information: a legacy era, with a fix that converts it):'), 'older', 'meta.block');
lacks(md, lineOf("That's everything: run **Fix All**, then **Execute All Blocks**."), 'everything', 'meta.block');
has(md, 0, 'Demo', 'markup.heading.markdown');

console.log(failed ? 'RESULT: FAIL' : 'RESULT: PASS');
process.exit(failed ? 1 : 0);
