" blockls: filetypes of the LLM action-block files (Markdown transcripts stay 'markdown').
autocmd BufRead,BufNewFile *.telt setfiletype telt
autocmd BufRead,BufNewFile *.nesl,*.sham setfiletype nesl
