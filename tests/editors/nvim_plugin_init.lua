-- Minimal user config for the plugin test: the plugin from the repository on 'runtimepath'
-- (as a user or a plugin manager would add it), filetype detection and syntax on, then setup().
vim.opt.runtimepath:prepend(os.getenv('BLOCKLS_PLUGIN'))
vim.cmd('filetype plugin on')
vim.cmd('syntax on')
require('blockls').setup({
  cmd = { os.getenv('BLOCKLS_BIN'), 'lsp', '--debounce-ms', '0' },
  settings = { dialects = { 'telt', 'nesl' } },
  flags = { debounce_text_changes = 0 },
})
