-- Neovim 0.7 end-to-end test of `blockls lsp` (run by nvim_lsp_test.sh). 0.7 has no
-- vim.lsp.start: start_client + buf_attach_client; apply_workspace_edit needs the offset
-- encoding; LSP `data` survives under user_data.lsp. Exit 0 pass, 1 fail, 2 Lua error.
local function out(...) -- print() in headless mode goes to stderr without a newline
  io.stdout:write(table.concat(vim.tbl_map(tostring, { ... }), ' ') .. '\n')
end
local failed = false
local function check(ok, what)
  out((ok and 'PASS ' or 'FAIL ') .. what)
  if not ok then failed = true end
  return ok
end
local function read_file(path)
  local f = io.open(path, 'rb')
  if not f then return nil end
  local s = f:read('*a')
  f:close()
  return s
end

local ok, err = xpcall(function()
  local ws = os.getenv('BLOCKLS_WS')
  local client_id = vim.lsp.start_client({
    name = 'blockls',
    cmd = { os.getenv('BLOCKLS_BIN'), 'lsp', '--debounce-ms', '0' },
    root_dir = ws,
    flags = { debounce_text_changes = 0 },
  })
  check(client_id ~= nil, 'start_client')

  -- Name, text and filetype before attaching: didOpen is sent on attach.
  local buf = vim.api.nvim_create_buf(true, false)
  vim.api.nvim_buf_set_name(buf, ws .. '/transcript.md')
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, {
    'Moving the config, then fixing the README:',
    '#!telt [3-char SHA: m4v]',
    '=== MOVE_FLIE ===',
    '--OLD_PATH m4v--',
    'a.txt',
    '--NEW_PATH m4v--',
    'b.txt',
    '--END m4v--',
    '#!nesl [@three-char-SHA-256: r2d]',
    'action = "replace_text_in_file"',
    'path = "README.md"',
    'old_text = "Teh project"',
    'new_text = "The project"',
    '#!end_r2d',
    'And an Aider edit:',
    '',
    'src/app.py',
    '```python',
    '<<<<<<< SEARCH',
    '    print("hello")',
    '=======',
    '    print("hello, world")',
    '>>>>>>> REPLACE',
    '```',
  })
  vim.api.nvim_buf_set_option(buf, 'filetype', 'markdown')
  vim.api.nvim_set_current_buf(buf)
  check(vim.lsp.buf_attach_client(buf, client_id), 'buf_attach_client')
  local client = vim.lsp.get_client_by_id(client_id)
  check(client.offset_encoding == 'utf-16', 'offset encoding utf-16 (0.7 offers no other)')

  -- 1. The broken transcript gets its diagnostic.
  local ns = vim.lsp.diagnostic.get_namespace(client_id)
  local function diagnostics() return vim.diagnostic.get(buf, { namespace = ns }) end
  local function has_code(code)
    for _, d in ipairs(diagnostics()) do
      if d.code == code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code == code) then return d end
    end
  end
  check(vim.wait(10000, function() return has_code('UNKNOWN_COMMAND') ~= nil end, 10), 'UNKNOWN_COMMAND diagnostic arrived')
  local d = has_code('UNKNOWN_COMMAND')
  out(string.format('diag %d:%d-%d:%d sev=%d %q', d.lnum, d.col, d.end_lnum, d.end_col, d.severity, d.message))
  check(d.lnum == 2 and d.col == 4 and d.end_col == 13 and d.severity == 1, 'diagnostic range and severity')
  check(d.user_data.lsp.data ~= nil and d.user_data.lsp.data.fixes ~= nil, 'fix payload in data')

  -- 2. The preferred quick fix, applied the way vim.lsp.buf.code_action would.
  vim.api.nvim_win_set_cursor(0, { 3, 0 })
  local params = vim.lsp.util.make_range_params()
  params.context = { diagnostics = vim.lsp.diagnostic.get_line_diagnostics(buf, 2, {}, client_id) }
  local results = vim.lsp.buf_request_sync(buf, 'textDocument/codeAction', params, 10000)
  local actions = results and results[client_id] and results[client_id].result or {}
  local preferred
  for _, a in ipairs(actions) do
    if a.kind == 'quickfix' and a.isPreferred then preferred = a end
  end
  if check(preferred ~= nil and preferred.edit ~= nil, 'preferred quick fix offered') then
    vim.lsp.util.apply_workspace_edit(preferred.edit, client.offset_encoding)
  end
  local line = vim.api.nvim_buf_get_lines(buf, 2, 3, false)[1]
  check(line == '=== MOVE_FILE ===', 'buffer after the quick fix: ' .. line)
  check(vim.wait(10000, function() return #diagnostics() == 0 end, 10), 'diagnostics cleared after the fix')

  -- 3. execute-block from the code lenses (TELT, NESL, an Aider edit): Neovim 0.7 has no documentChanges, so the server
  --    applies on disk through the apply module and says so with window/showMessage.
  local lens_results = vim.lsp.buf_request_sync(buf, 'textDocument/codeLens',
    { textDocument = { uri = vim.uri_from_bufnr(buf) } }, 10000)
  local lenses = lens_results and lens_results[client_id] and lens_results[client_id].result or {}
  check(#lenses == 3, 'three code lenses')
  local titles = {}
  for _, lens in ipairs(lenses) do
    out('lens', lens.command.title)
    titles[#titles + 1] = lens.command.title
    check(lens.command.command == 'blockls.executeBlock', 'lens runs executeBlock')
    local resp = client.request_sync('workspace/executeCommand',
      { command = lens.command.command, arguments = lens.command.arguments }, 10000, buf)
    check(resp and resp.err == nil, 'executeBlock answered without error ' .. vim.inspect(resp and resp.err))
    local result = resp and resp.result or {}
    check(result.applied == true and result.backend == 'disk', 'applied on disk')
  end
  check(titles[3] == '▶ Apply edit to src/app.py', 'the Aider edit\'s lens names its file')
  check(read_file(ws .. '/README.md') == 'The project is nice.\n', 'README.md changed on disk')
  check(read_file(ws .. '/src/app.py') == 'def hello():\n    print("hello, world")\n',
    'the Aider edit applied to src/app.py on disk')
  check(read_file(ws .. '/a.txt') == nil and read_file(ws .. '/b.txt') == 'old config\n', 'a.txt moved to b.txt')

  -- 4. A stale version is refused and changes nothing.
  local resp = client.request_sync('workspace/executeCommand', { command = 'blockls.executeBlock',
    arguments = { { uri = vim.uri_from_bufnr(buf), version = 0, line = 8 } } }, 10000, buf)
  check(resp and resp.err ~= nil and resp.err.message:find('changed since version 0') ~= nil, 'stale version refused')
end, debug.traceback)

if not ok then
  out('LUA ERROR: ' .. tostring(err))
  vim.cmd('cquit 2')
end
for _, c in pairs(vim.lsp.get_active_clients()) do c.stop() end
vim.wait(5000, function() return #vim.lsp.get_active_clients() == 0 end, 10)
out(failed and 'RESULT: FAIL' or 'RESULT: PASS')
vim.cmd(failed and 'cquit 1' or 'qall!')
