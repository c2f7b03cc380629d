-- Run by nvim_readme_test.sh after the README's config: the plugin is loaded from a clean
-- 'runtimepath', its settings are ones the server knows, and the demo transcript gets the
-- server's diagnostics (the same as `blockls check`) and code lenses. Exit 0 pass, 1 fail,
-- 2 Lua error.
local function out(...)
  io.stdout:write(table.concat(vim.tbl_map(tostring, { ... }), ' ') .. '\n')
end
local failed = false
local function check(ok, what)
  out((ok and 'PASS ' or 'FAIL ') .. what)
  if not ok then failed = true end
  return ok
end
local function wait(pred) return vim.wait(20000, pred, 10) end

local ok, err = xpcall(function()
  local work = os.getenv('BLOCKLS_WORK')
  local ws = work .. '/ws'
  local blockls = package.loaded['blockls']
  check(blockls ~= nil, 'the README config loaded the plugin (require("blockls"))')
  -- Nothing on 'runtimepath' but Neovim's own directories, the (empty) XDG ones and the plugin.
  local others = {}
  for _, d in ipairs(vim.opt.runtimepath:get()) do
    local plugin = d:match('/editors/nvim$') ~= nil
    if not (plugin or vim.startswith(d, work .. '/xdg/') or vim.startswith(d, '/usr/') or vim.startswith(d, '/etc/')) then
      table.insert(others, d)
    end
  end
  check(#others == 0, "'runtimepath' is clean: " .. (#others == 0 and 'yes' or table.concat(others, ', ')))
  check(#vim.api.nvim_get_runtime_file('lua/blockls/init.lua', true) == 1, 'one blockls plugin on the runtimepath')
  check(vim.fn.exepath('blockls') == work .. '/bin/blockls', 'cmd "blockls" found on PATH: ' .. vim.fn.exepath('blockls'))

  -- Every key the README passes under settings is one the server reads (docs/lsp.md "Settings");
  -- the server ignores unknown keys silently, so a misspelt one would do nothing.
  local known = { dialects = true, allowedRoots = true, denyPatterns = true, execAllowed = true,
    schemaFile = true, maxDocumentBytes = true, docsUrl = true }
  for k, _ in pairs(blockls.config.settings or {}) do
    check(known[k] == true, 'README setting "' .. k .. '" is a server setting')
  end

  -- The expected diagnostics: `blockls check` on the same file, with the workspace (the git
  -- repository the plugin takes as the root) as root.
  local report = vim.fn.json_decode(vim.fn.system({ os.getenv('BLOCKLS_BIN'), 'check', '--format', 'json',
    '--root', ws, ws .. '/demo.transcript.md' }))
  local want = #report.files[1].errors
  local blocks = #report.files[1].blocks

  vim.cmd('edit ' .. ws .. '/demo.transcript.md')
  local buf = vim.api.nvim_get_current_buf()
  check(wait(function() return blockls.client(buf) ~= nil end), 'client attached to demo.transcript.md')
  local client = blockls.client(buf)
  local ns = vim.lsp.diagnostic.get_namespace(client.id)
  check(wait(function() return #vim.diagnostic.get(buf, { namespace = ns }) == want end),
    'diagnostics: ' .. #vim.diagnostic.get(buf, { namespace = ns }) .. ' (blockls check: ' .. want .. ')')
  check(wait(function() return #(vim.lsp.codelens.get(buf) or {}) == blocks end),
    'code lenses: ' .. #(vim.lsp.codelens.get(buf) or {}) .. ' (one per block: ' .. blocks .. ')')
  check(vim.fn.exists(':BlocklsExecuteBlock') == 2 and vim.fn.exists(':BlocklsFixAll') == 2, 'commands defined')

  for _, c in pairs(vim.lsp.get_active_clients()) do c.stop() end
  vim.wait(5000, function() return #vim.lsp.get_active_clients() == 0 end, 20)
end, debug.traceback)
if not ok then
  out('ERROR ' .. tostring(err))
  vim.cmd('cquit 2')
end
out(failed and 'RESULT: FAIL' or 'RESULT: PASS')
vim.cmd(failed and 'cquit 1' or 'qall!')
