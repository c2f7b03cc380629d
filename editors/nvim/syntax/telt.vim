" Vim syntax file for TELT action blocks (blockls). Spec: #!telt [3-char SHA: abc],
" === COMMAND ===, --PARAM abc--, --END abc--, // comments at column 0. Values are plain text.
if exists('b:current_syntax')
  finish
endif

syn match teltStart /^#!telt \[3-char SHA: [A-Za-z0-9]\+\]\s*\(\/\/.*\)\=$/ contains=teltStartKw,teltStartHash
syn match teltStartKw /^#!telt/ contained
syn match teltStartHash /[A-Za-z0-9]\+\ze\]/ contained
" START near misses (#!TELT, a missing label, ...): the server reports MALFORMED_START.
syn match teltBadStart /^#!\s*\c\(telt\)\>\(.*SHA: [A-Za-z0-9]\{3}\]\s*$\)\@!.*$/
syn match teltCommand /^=== [A-Z][A-Z0-9_]* ===\s*\(\/\/.*\)\=$/ contains=teltCommandName
syn match teltCommandName /[A-Z][A-Z0-9_]*/ contained
syn match teltParam /^--\(END \)\@![A-Z][A-Z0-9_]* [A-Za-z0-9]\+--\s*\(\/\/.*\)\=$/ contains=teltParamName,teltHash
syn match teltParamName /^--\zs[A-Z][A-Z0-9_]*/ contained
syn match teltHash / \zs[A-Za-z0-9]\+\ze--/ contained
syn match teltEnd /^--END [A-Za-z0-9]\+--\s*\(\/\/.*\)\=$/ contains=teltEndKw,teltHash
syn match teltEndKw /^--\zsEND/ contained
syn match teltComment /^\/\/.*$/
" An indented delimiter (INDENTED_DELIMITER): still a delimiter for blockls, marked here.
syn match teltIndented /^\s\+--[A-Z][A-Z0-9_]* [A-Za-z0-9]\+--\s*$/

hi def link teltStart PreProc
hi def link teltStartKw Keyword
hi def link teltStartHash Constant
hi def link teltBadStart Error
hi def link teltCommand Delimiter
hi def link teltCommandName Function
hi def link teltParam Delimiter
hi def link teltParamName Identifier
hi def link teltHash Constant
hi def link teltEnd Delimiter
hi def link teltEndKw Keyword
hi def link teltComment Comment
hi def link teltIndented Error

let b:current_syntax = 'telt'
