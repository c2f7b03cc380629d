-- The editors/nvim plugin end to end on Neovim 0.7+ (run by nvim_plugin_test.sh, which loads
-- nvim_plugin_init.lua as the user config). Everything waits on events (vim.wait with a
-- predicate and a generous limit), never on time. Exit 0 pass, 1 fail, 2 Lua error.
local function out(...) -- print() in headless mode goes to stderr without a newline
  io.stdout:write(table.concat(vim.tbl_map(tostring, { ... }), ' ') .. '\n')
end
local failed = false
local function check(ok, what)
  out((ok and 'PASS ' or 'FAIL ') .. what)
  if not ok then failed = true end
  return ok
end
local WAIT = 20000 -- ms: an overall limit per step, not a timing assertion
local function wait(pred) return vim.wait(WAIT, pred, 10) end
local function read_file(path)
  local f = io.open(path, 'rb')
  if not f then return nil end
  local s = f:read('*a')
  f:close()
  return s
end

local blockls = require('blockls')
local ws = os.getenv('BLOCKLS_WS')

local function finish()
  for _, c in pairs(vim.lsp.get_active_clients()) do c.stop() end
  vim.wait(5000, function() return #vim.lsp.get_active_clients() == 0 end, 20)
  out(failed and 'RESULT: FAIL' or 'RESULT: PASS')
  vim.cmd(failed and 'cquit 1' or 'qall!')
end

local ok, err = xpcall(function()
  out('nvim ' .. tostring(vim.version().major) .. '.' .. tostring(vim.version().minor) .. '.' .. tostring(vim.version().patch))

  -- 1. Filetype detection, syntax and attach for the three file types.
  vim.cmd('edit ' .. ws .. '/one.telt')
  local telt = vim.api.nvim_get_current_buf()
  check(vim.bo.filetype == 'telt', '*.telt -> filetype telt')
  check(vim.b.current_syntax == 'telt', 'syntax/telt.vim loaded')
  local syn = vim.fn.synIDattr(vim.fn.synID(2, 6, 1), 'name')
  check(syn == 'teltCommandName', 'TELT command name highlighted (' .. syn .. ')')
  check(wait(function() return blockls.client(telt) ~= nil end), 'client attached to the .telt buffer')

  vim.cmd('edit ' .. ws .. '/one.nesl')
  check(vim.bo.filetype == 'nesl', '*.nesl -> filetype nesl')
  syn = vim.fn.synIDattr(vim.fn.synID(2, 1, 1), 'name')
  check(syn == 'neslKey', 'NESL key highlighted (' .. syn .. ')')
  syn = vim.fn.synIDattr(vim.fn.synID(2, 12, 1), 'name')
  check(syn == 'neslString', 'NESL string highlighted (' .. syn .. ')')
  vim.cmd('edit ' .. ws .. '/one.sham')
  check(vim.bo.filetype == 'nesl', '*.sham -> filetype nesl')
  check(wait(function() return blockls.client(0) ~= nil end), 'client attached to the .sham buffer')

  vim.cmd('edit ' .. ws .. '/notes.md')
  check(vim.bo.filetype == 'markdown' and blockls.client(0) == nil, 'plain Markdown: no client')

  -- 2. The demo transcript: attached (the same client: one per root), diagnostics, code lenses.
  vim.cmd('edit ' .. ws .. '/demo.transcript.md')
  local buf = vim.api.nvim_get_current_buf()
  check(vim.bo.filetype == 'markdown', 'transcript is markdown')
  check(wait(function() return blockls.client(buf) ~= nil end), 'client attached to *.transcript.md')
  local client = blockls.client(buf)
  check(client and client.id == blockls.client(telt).id, 'one client per root')

  local ns = vim.lsp.diagnostic.get_namespace(client.id)
  local function diags() return vim.diagnostic.get(buf, { namespace = ns }) end
  local function codes()
    local set = {}
    for _, d in ipairs(diags()) do set[d.code or (d.user_data and d.user_data.lsp.code) or '?'] = d end
    return set
  end
  local expected = { 'UNKNOWN_COMMAND', 'HASH_MISMATCH', 'INVALID_VALUE', 'UNCLOSED_BLOCK', 'LEGACY_ERA',
    'INDENTED_DELIMITER', 'UNKNOWN_PARAM' }
  check(wait(function()
    local c = codes()
    for _, code in ipairs(expected) do if not c[code] then return false end end
    return true
  end), 'diagnostics shown: ' .. table.concat(expected, ' '))
  local seen = {}
  for code, d in pairs(codes()) do table.insert(seen, code .. '@' .. (d.lnum + 1)) end
  table.sort(seen)
  out('diagnostics: ' .. table.concat(seen, ' '))

  local function lens_titles()
    local t = {}
    for _, l in ipairs(vim.lsp.codelens.get(buf) or {}) do
      if l.command then table.insert(t, l.command.title) end
    end
    return t
  end
  check(wait(function()
    local t = table.concat(lens_titles(), '|')
    return t:find('Apply block (1 action)', 1, true) and t:find('2 errors', 1, true)
  end), 'code lenses refreshed: ' .. table.concat(lens_titles(), ' | '))

  -- 3. :BlocklsExecuteBlock on the first block writes demo-out/hello.sh (disk backend on 0.7).
  local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
  local function line_of(text)
    for i, l in ipairs(lines) do if l == text then return i end end
  end
  local h3l = line_of('#!telt [3-char SHA: h3l]')
  vim.api.nvim_win_set_cursor(0, { h3l + 3, 0 }) -- any line of the block
  vim.cmd('BlocklsExecuteBlock')
  check(wait(function() return read_file(ws .. '/demo-out/hello.sh') ~= nil end),
    ':BlocklsExecuteBlock wrote demo-out/hello.sh')
  check(read_file(ws .. '/demo-out/hello.sh') == '#!/bin/sh\necho "hello from blockls"',
    'hello.sh content: ' .. vim.inspect(read_file(ws .. '/demo-out/hello.sh')))

  -- 4. :BlocklsFixAll applies every preferred fix; the buffer ends up without errors.
  vim.cmd('BlocklsFixAll')
  local function text() return table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), '\n') end
  check(wait(function() return text():find('=== MOVE_FILE ===', 1, true) ~= nil end), ':BlocklsFixAll changed the buffer')
  local t = text()
  check(not t:find('MOVE_FLIE', 1, true) and t:find('--END m4v--', 1, true) and t:find('count = "1"', 1, true)
    and t:find('#!end_s9k', 1, true), 'fixed: command name, end hash, quoted count, closed block')
  check(wait(function()
    local errors = 0
    for _, d in ipairs(diags()) do if d.severity == vim.diagnostic.severity.ERROR then errors = errors + 1 end end
    return errors == 0
  end), 'no error diagnostics after Fix All')
  check(wait(function()
    local titles = lens_titles()
    if #titles == 0 then return false end
    for _, title in ipairs(titles) do if title:find('error', 1, true) then return false end end
    return true
  end), 'every code lens is an Apply lens now: ' .. table.concat(lens_titles(), ' | '))

  -- 5. :BlocklsExecuteAll applies the rest.
  vim.cmd('BlocklsExecuteAll')
  -- The blocks are applied in order; the last one creates demo-out/empty.txt.
  check(wait(function() return read_file(ws .. '/demo-out/empty.txt') ~= nil end),
    ':BlocklsExecuteAll applied the last block')
  check(read_file(ws .. '/demo-out/greet.sh') ~= nil and read_file(ws .. '/demo-out/hello.sh') == nil,
    'hello.sh moved to greet.sh')
  local notes = read_file(ws .. '/demo-out/notes.md') or ''
  check(notes == '# Notes\nThe demo works.\n- written by a SHAM block',
    'notes.md written, replaced and appended: ' .. vim.inspect(notes))

  -- 6. :BlocklsInfo shows the server's debug info in a scratch buffer.
  vim.cmd('BlocklsInfo')
  check(wait(function() return vim.api.nvim_buf_get_name(0):find('blockls%-info') ~= nil end), ':BlocklsInfo opened a buffer')
  local info = table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), '\n')
  check(info:find('positionEncoding', 1, true) and info:find('demo.transcript.md', 1, true), 'debug info lists encoding and document')
end, debug.traceback)
if not ok then
  out('LUA ERROR: ' .. tostring(err))
  vim.cmd('cquit 2')
end
finish()
