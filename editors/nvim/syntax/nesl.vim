" Vim syntax file for SHAM / NESL action blocks in all three eras (blockls):
" #!nesl|#!NESL|#!SHAM [@three-char-SHA-256: k7m], key = "json string",
" key = <<'EOT_k7m' ... EOT_k7m (EOT_NESL_/EOT_SHAM_), #!end_k7m|#!END_NESL_k7m|#!END_SHAM_k7m.
if exists('b:current_syntax')
  finish
endif

syn match neslStart /^#!\(nesl\|NESL\|SHAM\) \[@[^:\]]*: [A-Za-z0-9]\+\]\s*$/ contains=neslStartKw,neslId
syn match neslStartKw /^#!\(nesl\|NESL\|SHAM\)/ contained
syn match neslId /: \zs[A-Za-z0-9]\+\ze\]/ contained
syn match neslEnd /^#!\(end_\|END_NESL_\|END_SHAM_\)[A-Za-z0-9]\+\s*$/
" A line that trims to an end marker but is not exact (SUSPICIOUS_END).
syn match neslSuspiciousEnd /^\s\+#!\(end_\|END_NESL_\|END_SHAM_\)[A-Za-z0-9]\+.*$/
syn match neslKey /^[[:alpha:]_][[:alnum:]_]*\ze\s*=/ nextgroup=neslAssign skipwhite
syn match neslAssign /=/ contained nextgroup=neslString,neslHeredoc skipwhite
syn region neslString start=/"/ skip=/\\\\\|\\"/ end=/"\|$/ oneline contained contains=neslEscape
syn match neslEscape /\\\(["\\/bfnrt]\|u\x\{4}\)/ contained
" Heredoc: the body up to the line equal to the delimiter (or with it glued to the last line).
syn region neslHeredoc matchgroup=neslHeredocDelim start=/<<'\z(EOT_\(NESL_\|SHAM_\)\=[A-Za-z0-9]\+\)'\s*$/ end=/\z1'\=\s*$/ contained

hi def link neslStart PreProc
hi def link neslStartKw Keyword
hi def link neslId Constant
hi def link neslEnd Keyword
hi def link neslSuspiciousEnd Error
hi def link neslKey Identifier
hi def link neslAssign Operator
hi def link neslString String
hi def link neslEscape SpecialChar
hi def link neslHeredoc String
hi def link neslHeredocDelim Special

let b:current_syntax = 'nesl'
