// Writes the TextMate grammars (telt.tmLanguage.json, nesl.tmLanguage.json and the Markdown
// injection) from one definition, so the standalone and the in-Markdown rules cannot drift.
// Run: node syntaxes/generate.mjs [--check]   (--check: exit 1 when a committed file differs)
// Syntax: /work/shared/spec/telt.md and nesl.md; the server's diagnostics stay the authority,
// the grammars only colour what is recognisable.
import fs from 'node:fs';
import path from 'node:path';

const here = path.dirname(new URL(import.meta.url).pathname);
const HASH = '[A-Za-z0-9]+';
const NAME = '[A-Z][A-Z0-9_]*';
// In Markdown, a closing fence ends whatever is open (CommonMark closes the fence there too).
const FENCE_AHEAD = '(?=^\\s{0,3}(?:`{3,}|~{3,})\\s*$)';

function telt(md) {
  const s = md ? '-md' : '';
  const endAhead = [`(?=^#!\\s*(?i:telt)\\b)`, ...(md ? [FENCE_AHEAD] : [])].join('|');
  const blockBody = { patterns: [{ include: '#comment' }, { include: '#command' }, { include: `#param${s}` }, { include: '#delimiter-like' }] };
  const end = `^(--)(END)( )(${HASH})(--)(?=\\s*(?://.*)?$)|${endAhead}`;
  const endCaptures = {
    0: { name: 'meta.delimiter.end.telt' },
    1: { name: 'punctuation.definition.delimiter.telt' },
    2: { name: 'keyword.control.end.telt' },
    4: { name: 'variable.other.constant.hash.telt' },
    5: { name: 'punctuation.definition.delimiter.telt' },
  };
  return {
    [`block${s}`]: {
      patterns: [
        {
          name: 'meta.block.telt',
          begin: `^(#!)(telt)( )(\\[)(3-char SHA)(:)( )(${HASH})(\\])(?=\\s*(?://.*)?$)`,
          beginCaptures: {
            0: { name: 'meta.delimiter.start.telt' },
            1: { name: 'punctuation.definition.directive.telt' },
            2: { name: 'keyword.control.start.telt' },
            4: { name: 'punctuation.definition.hash.begin.telt' },
            5: { name: 'comment.other.hash-label.telt' },
            8: { name: 'variable.other.constant.hash.telt' },
            9: { name: 'punctuation.definition.hash.end.telt' },
          },
          end,
          endCaptures,
          ...blockBody,
        },
        {
          // START near misses (#!TELT, missing label, ...): MALFORMED_START / BAD_HASH, a block still opens.
          name: 'meta.block.telt',
          begin: '^#!\\s*(?i:telt)\\b.*$',
          beginCaptures: { 0: { name: 'invalid.illegal.start.telt' } },
          end,
          endCaptures,
          ...blockBody,
        },
      ],
    },
    [`param${s}`]: {
      name: 'meta.param.telt',
      begin: `^(--)(?!END )(${NAME})( )(${HASH})(--)(?=\\s*(?://.*)?$)`,
      beginCaptures: {
        0: { name: 'meta.delimiter.param.telt' },
        1: { name: 'punctuation.definition.delimiter.telt' },
        2: { name: 'variable.parameter.telt' },
        4: { name: 'variable.other.constant.hash.telt' },
        5: { name: 'punctuation.definition.delimiter.telt' },
      },
      // The value runs to the next syntax line of the block (PARAM, COMMAND, END, START).
      end: [`(?=^--${NAME} ${HASH}--\\s*(?://.*)?$)`, `(?=^=== ${NAME} ===\\s*(?://.*)?$)`, `(?=^#!\\s*(?i:telt)\\b)`, ...(md ? [FENCE_AHEAD] : [])].join('|'),
      contentName: 'string.unquoted.value.telt',
    },
  };
}

const teltCommon = {
  command: {
    match: `^(===)( )(${NAME})( )(===)(?=\\s*(?://.*)?$)`,
    name: 'meta.delimiter.command.telt',
    captures: {
      1: { name: 'punctuation.definition.delimiter.telt' },
      3: { name: 'entity.name.function.command.telt' },
      5: { name: 'punctuation.definition.delimiter.telt' },
    },
  },
  comment: { match: '^//.*$', name: 'comment.line.double-slash.telt' },
  // An indented or misspelt delimiter (INDENTED_DELIMITER, MALFORMED_DELIMITER): mark it.
  'delimiter-like': {
    match: `^\\s+--${NAME} ${HASH}--\\s*$|^-{1,3}\\s*[A-Za-z_]+:? ${HASH}-{1,3}\\s*$`,
    name: 'invalid.illegal.delimiter.telt',
  },
};

const ERA = '(nesl|NESL|SHAM)';
const KEY = '[\\p{L}_][\\p{L}\\p{N}_]*';

function nesl(md) {
  const s = md ? '-md' : '';
  const endAhead = [`(?=^#!(?:nesl|NESL|SHAM) \\[)`, ...(md ? [FENCE_AHEAD] : [])].join('|');
  return {
    [`block${s}`]: {
      name: 'meta.block.nesl',
      begin: `^(#!)${ERA}( )(\\[)(@[^:\\]]*)(:)( )(${HASH})(\\])\\s*$`,
      beginCaptures: {
        0: { name: 'meta.delimiter.start.nesl' },
        1: { name: 'punctuation.definition.directive.nesl' },
        2: { name: 'keyword.control.start.nesl' },
        4: { name: 'punctuation.definition.id.begin.nesl' },
        5: { name: 'comment.other.id-label.nesl' },
        8: { name: 'variable.other.constant.hash.nesl' },
        9: { name: 'punctuation.definition.id.end.nesl' },
      },
      end: `^(#!)(end_|END_NESL_|END_SHAM_)(${HASH})\\s*$|${endAhead}`,
      endCaptures: {
        0: { name: 'meta.delimiter.end.nesl' },
        1: { name: 'punctuation.definition.directive.nesl' },
        2: { name: 'keyword.control.end.nesl' },
        3: { name: 'variable.other.constant.hash.nesl' },
      },
      patterns: [{ include: `#heredoc${s}` }, { include: '#assignment' }, { include: '#bare-assignment' }, { include: '#suspicious-end' }],
    },
    [`heredoc${s}`]: {
      name: 'meta.heredoc.nesl',
      begin: `^(${KEY})\\s*(=)\\s*(<<)(')((?:EOT_NESL_|EOT_SHAM_|EOT_)${HASH})(')\\s*$`,
      beginCaptures: {
        1: { name: 'variable.other.key.nesl' },
        2: { name: 'keyword.operator.assignment.nesl' },
        3: { name: 'keyword.operator.heredoc.nesl' },
        4: { name: 'punctuation.definition.string.begin.nesl' },
        5: { name: 'constant.other.heredoc-delimiter.nesl' },
        6: { name: 'punctuation.definition.string.end.nesl' },
      },
      // nesl-js also closes a heredoc whose delimiter is glued to the last line (GLUED_DELIMITER).
      end: `(\\5)'?\\s*$${md ? '|' + FENCE_AHEAD : ''}`,
      endCaptures: { 1: { name: 'constant.other.heredoc-delimiter.nesl' } },
      contentName: 'meta.embedded.block.text.nesl string.unquoted.heredoc.nesl',
    },
  };
}

const neslCommon = {
  assignment: {
    begin: `^(${KEY})\\s*(=)\\s*(")`,
    beginCaptures: {
      1: { name: 'variable.other.key.nesl' },
      2: { name: 'keyword.operator.assignment.nesl' },
      3: { name: 'punctuation.definition.string.begin.nesl' },
    },
    end: '(")\\s*$|$',
    endCaptures: { 1: { name: 'punctuation.definition.string.end.nesl' } },
    contentName: 'string.quoted.double.nesl',
    patterns: [
      { match: '\\\\(?:["\\\\/bfnrt]|u[0-9A-Fa-f]{4})', name: 'constant.character.escape.nesl' },
      { match: '\\\\.', name: 'invalid.illegal.escape.nesl' },
    ],
  },
  // `key = value` without quotes (INVALID_VALUE): the key as usual, the value marked.
  'bare-assignment': {
    match: `^(${KEY})\\s*(=)\\s*([^"<\\s].*)$`,
    captures: {
      1: { name: 'variable.other.key.nesl' },
      2: { name: 'keyword.operator.assignment.nesl' },
      3: { name: 'invalid.illegal.value.nesl' },
    },
  },
  // A line that trims to an end marker but is not exact (SUSPICIOUS_END).
  'suspicious-end': { match: `^\\s+#!(?:end_|END_NESL_|END_SHAM_)${HASH}.*$|^#!(?:end_|END_NESL_|END_SHAM_)${HASH}\\s+\\S.*$`, name: 'invalid.illegal.end.nesl' },
};

const grammars = {
  'telt.tmLanguage.json': {
    $schema: 'https://raw.githubusercontent.com/martinring/tmlanguage/master/tmlanguage.json',
    name: 'TELT',
    scopeName: 'source.telt',
    comment: 'Generated by syntaxes/generate.mjs; edit that file.',
    patterns: [{ include: '#block' }],
    repository: { ...telt(false), ...telt(true), ...teltCommon },
  },
  'nesl.tmLanguage.json': {
    $schema: 'https://raw.githubusercontent.com/martinring/tmlanguage/master/tmlanguage.json',
    name: 'NESL',
    scopeName: 'source.nesl',
    comment: 'Generated by syntaxes/generate.mjs; edit that file.',
    patterns: [{ include: '#block' }],
    repository: { ...nesl(false), ...nesl(true), ...neslCommon },
  },
  'markdown-blocks.injection.json': {
    $schema: 'https://raw.githubusercontent.com/martinring/tmlanguage/master/tmlanguage.json',
    scopeName: 'markdown.blockls.injection',
    comment: 'Generated by syntaxes/generate.mjs. TELT and NESL blocks anywhere in Markdown, fenced or not.',
    injectionSelector: 'L:text.html.markdown',
    patterns: [{ include: 'source.telt#block-md' }, { include: 'source.nesl#block-md' }],
  },
};

const check = process.argv.includes('--check');
let stale = 0;
for (const [file, g] of Object.entries(grammars)) {
  const text = JSON.stringify(g, null, 2) + '\n';
  const target = path.join(here, file);
  if (check) {
    const old = fs.existsSync(target) ? fs.readFileSync(target, 'utf8') : '';
    if (old !== text) {
      console.error(`${file} is out of date: run node syntaxes/generate.mjs`);
      stale++;
    }
  } else {
    fs.writeFileSync(target, text);
  }
}
process.exit(stale ? 1 : 0);
