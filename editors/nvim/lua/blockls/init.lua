-- blockls for Neovim: starts `blockls lsp` for TELT / NESL files and Markdown transcripts,
-- adds :BlocklsExecuteBlock, :BlocklsExecuteAll, :BlocklsFixAll, :BlocklsInfo, :BlocklsRestart
-- and keeps code lenses fresh. Works on Neovim 0.7 (vim.lsp.start_client + buf_attach_client)
-- and uses vim.lsp.start on 0.8+. The requests match editors/vscode/src/protocol.ts.
local M = {}

local defaults = {
  -- The server command; the binary must be on PATH unless an absolute path is given.
  cmd = { 'blockls', 'lsp' },
  -- Server settings (docs/lsp.md): dialects, allowedRoots, denyPatterns, execAllowed,
  -- schemaFile, docsUrl, maxDocumentBytes. Sent as initializationOptions and settings.
  settings = {},
  filetypes = { 'telt', 'nesl' },
  -- Markdown buffers whose file name matches one of these are transcripts and get blockls too.
  transcript_patterns = { '*.transcript.md', '*.llm.md' },
  -- A function(bufnr) -> directory: the workspace root (actions are confined to it).
  root_dir = nil,
  codelens = true, -- show code lenses (refreshed on enter, after edits and diagnostics)
  markdown_fences = true, -- colour ```telt / ```nesl / ```sham fences (g:markdown_fenced_languages)
  on_attach = nil, -- function(client, bufnr)
  capabilities = nil,
  flags = {},
}

M.config = vim.deepcopy(defaults)
local clients_by_root = {} -- 0.7: root_dir -> client id
local augroup

local FIX_ALL_KIND = 'source.fixAll.blockls'

local function notify(msg, level)
  vim.notify('blockls: ' .. msg, level or vim.log.levels.INFO)
end

local function find_root(bufnr)
  if M.config.root_dir then return M.config.root_dir(bufnr) end
  local name = vim.api.nvim_buf_get_name(bufnr)
  local start = name ~= '' and vim.fn.fnamemodify(name, ':p:h') or vim.fn.getcwd()
  local git = vim.fn.finddir('.git', start .. ';')
  if git ~= '' then return vim.fn.fnamemodify(git, ':p:h:h') end
  return vim.fn.getcwd()
end

local function is_transcript(bufnr)
  local name = vim.api.nvim_buf_get_name(bufnr)
  if name == '' then return false end
  local base = vim.fn.fnamemodify(name, ':t')
  for _, pat in ipairs(M.config.transcript_patterns) do
    local re = vim.fn.glob2regpat(pat)
    if vim.fn.match(base, re) >= 0 or vim.fn.match(name, re) >= 0 then return true end
  end
  return false
end

--- Whether blockls handles this buffer.
function M.handles(bufnr)
  local ft = vim.api.nvim_buf_get_option(bufnr, 'filetype')
  if vim.tbl_contains(M.config.filetypes, ft) then return true end
  return ft == 'markdown' and is_transcript(bufnr)
end

--- The blockls client attached to a buffer (or the current one).
function M.client(bufnr)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  local list = vim.lsp.get_clients and vim.lsp.get_clients({ bufnr = bufnr }) or vim.lsp.buf_get_clients(bufnr)
  for _, c in pairs(list) do
    if c.name == 'blockls' then return c end
  end
end

local function all_clients()
  local list = vim.lsp.get_clients and vim.lsp.get_clients() or vim.lsp.get_active_clients()
  return vim.tbl_filter(function(c) return c.name == 'blockls' end, list)
end

local function refresh_codelens(bufnr)
  if not M.config.codelens then return end
  if bufnr == vim.api.nvim_get_current_buf() and M.client(bufnr) then
    pcall(vim.lsp.codelens.refresh) -- refreshes the current buffer
  end
end

local function publish_handler(err, result, ctx, config)
  vim.lsp.handlers['textDocument/publishDiagnostics'](err, result, ctx, config)
  if result and result.uri then
    local ok, bufnr = pcall(vim.uri_to_bufnr, result.uri)
    if ok then refresh_codelens(bufnr) end
  end
end

local function make_config(bufnr)
  local root = find_root(bufnr)
  local settings = M.config.settings or {}
  local flags = vim.tbl_extend('keep', M.config.flags or {}, { debounce_text_changes = 150 })
  return {
    name = 'blockls',
    cmd = M.config.cmd,
    root_dir = root,
    workspace_folders = { { uri = vim.uri_from_fname(root), name = root } },
    init_options = { blockls = settings },
    settings = { blockls = settings },
    capabilities = M.config.capabilities,
    flags = flags,
    handlers = { ['textDocument/publishDiagnostics'] = publish_handler },
    on_attach = function(client, b)
      refresh_codelens(b)
      if M.config.on_attach then M.config.on_attach(client, b) end
    end,
  }
end

--- Starts (or reuses) the client for the buffer's root and attaches it.
function M.attach(bufnr)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  if M.client(bufnr) then return M.client(bufnr).id end
  local config = make_config(bufnr)
  if vim.lsp.start then -- 0.8+: reuses a client with the same name and root_dir
    return vim.lsp.start(config, { bufnr = bufnr })
  end
  local id = clients_by_root[config.root_dir]
  local existing = id and vim.lsp.get_client_by_id(id)
  if not existing or existing.is_stopped() then
    id = vim.lsp.start_client(config)
    if not id then
      notify('could not start ' .. table.concat(M.config.cmd, ' ') ..
        ' (is blockls on PATH? set cmd in require("blockls").setup{})', vim.log.levels.ERROR)
      return nil
    end
    clients_by_root[config.root_dir] = id
  end
  vim.lsp.buf_attach_client(bufnr, id)
  return id
end

local function need_client()
  local bufnr = vim.api.nvim_get_current_buf()
  local client = M.client(bufnr)
  if not client then
    notify('no blockls client is attached to this buffer', vim.log.levels.WARN)
    return nil
  end
  return client, bufnr
end

local function buffer_version(bufnr)
  local v = vim.lsp.util.buf_versions and vim.lsp.util.buf_versions[bufnr]
  return v or vim.api.nvim_buf_get_changedtick(bufnr)
end

--- Runs a server command; `done(err, result)` is optional.
local function execute(client, bufnr, command, arguments, done)
  client.request('workspace/executeCommand', { command = command, arguments = arguments },
    function(err, result)
      if err then
        notify(err.message or tostring(err), vim.log.levels.ERROR)
      elseif result and result.applied == false then
        notify('nothing was applied: ' .. tostring(result.failureReason or ''), vim.log.levels.WARN)
      end
      refresh_codelens(bufnr)
      if done then done(err, result) end
    end, bufnr)
end

--- :BlocklsExecuteBlock — the block at the cursor (the same arguments as its code lens).
function M.execute_block(done)
  local client, bufnr = need_client()
  if not client then return end
  local line = vim.api.nvim_win_get_cursor(0)[1] - 1
  execute(client, bufnr, 'blockls.executeBlock',
    { { uri = vim.uri_from_bufnr(bufnr), version = buffer_version(bufnr), line = line } }, done)
end

--- :BlocklsExecuteAll — every block without errors.
function M.execute_all(done)
  local client, bufnr = need_client()
  if not client then return end
  execute(client, bufnr, 'blockls.executeAll',
    { { uri = vim.uri_from_bufnr(bufnr), version = buffer_version(bufnr) } }, done)
end

local function apply_fix_all(client, bufnr, action, done)
  local function apply(a)
    if a and a.edit then
      vim.lsp.util.apply_workspace_edit(a.edit, client.offset_encoding or 'utf-16')
      if done then done(true) end
    else
      notify('the server returned no edit for Fix All', vim.log.levels.ERROR)
      if done then done(false) end
    end
  end
  if action.edit then return apply(action) end
  client.request('codeAction/resolve', action, function(err, resolved)
    if err then
      notify(err.message or tostring(err), vim.log.levels.ERROR)
      if done then done(false) end
      return
    end
    apply(resolved)
  end, bufnr)
end

--- :BlocklsFixAll — every preferred fix once (the server's source.fixAll.blockls action).
function M.fix_all(done)
  local client, bufnr = need_client()
  if not client then return end
  local last = vim.api.nvim_buf_line_count(bufnr) - 1
  local last_text = vim.api.nvim_buf_get_lines(bufnr, last, last + 1, false)[1] or ''
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) },
    -- the range end in UTF-16 units (the default encoding of 0.7 and of the server)
    range = { start = { line = 0, character = 0 },
      ['end'] = { line = last, character = select(2, vim.str_utfindex(last_text)) } },
    context = { diagnostics = {}, only = { FIX_ALL_KIND }, triggerKind = 1 },
  }
  client.request('textDocument/codeAction', params, function(err, actions)
    if err then
      notify(err.message or tostring(err), vim.log.levels.ERROR)
      if done then done(false) end
      return
    end
    for _, a in ipairs(actions or {}) do
      if a.kind == FIX_ALL_KIND then return apply_fix_all(client, bufnr, a, done) end
    end
    notify('nothing to fix')
    if done then done(false) end
  end, bufnr)
end

--- :BlocklsInfo — the client and the server's debug info in a scratch buffer.
function M.info(done)
  local client, bufnr = need_client()
  if not client then return end
  execute(client, bufnr, 'blockls.showDebugInfo', { { uri = vim.uri_from_bufnr(bufnr) } },
    function(err, result)
      if err then
        if done then done(nil) end
        return
      end
      local lines = {
        'blockls client ' .. client.id .. ': ' .. table.concat(client.config.cmd, ' '),
        'root: ' .. tostring(client.config.root_dir),
        'offset encoding: ' .. tostring(client.offset_encoding),
        '',
      }
      vim.list_extend(lines, vim.split(vim.inspect(result), '\n', { plain = true }))
      vim.cmd('botright new')
      local info = vim.api.nvim_get_current_buf()
      vim.api.nvim_buf_set_lines(info, 0, -1, false, lines)
      vim.api.nvim_buf_set_option(info, 'buftype', 'nofile')
      vim.api.nvim_buf_set_option(info, 'bufhidden', 'wipe')
      vim.api.nvim_buf_set_option(info, 'modified', false)
      vim.api.nvim_buf_set_name(info, 'blockls-info-' .. info)
      if done then done(result, info) end
    end)
end

--- :BlocklsRestart — stops the blockls clients and attaches the handled buffers again.
function M.restart()
  for _, c in ipairs(all_clients()) do c.stop() end
  clients_by_root = {}
  vim.wait(3000, function() return #all_clients() == 0 end, 20)
  for _, b in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(b) and M.handles(b) then M.attach(b) end
  end
end

local function maybe_attach(bufnr)
  if vim.api.nvim_buf_get_option(bufnr, 'buftype') ~= '' then return end
  if M.handles(bufnr) then M.attach(bufnr) end
end

function M.setup(opts)
  M.config = vim.tbl_deep_extend('force', vim.deepcopy(defaults), opts or {})
  if M.config.markdown_fences then
    local fenced = vim.g.markdown_fenced_languages or {}
    for _, l in ipairs({ 'telt', 'nesl', 'sham=nesl' }) do
      if not vim.tbl_contains(fenced, l) then table.insert(fenced, l) end
    end
    vim.g.markdown_fenced_languages = fenced
  end
  augroup = vim.api.nvim_create_augroup('blockls', { clear = true })
  -- Filetype detection also when the plugin was added to 'runtimepath' after startup
  -- (ftdetect/blockls.vim covers the usual case).
  vim.api.nvim_create_autocmd({ 'BufRead', 'BufNewFile' }, {
    group = augroup, pattern = { '*.telt' }, command = 'setfiletype telt' })
  vim.api.nvim_create_autocmd({ 'BufRead', 'BufNewFile' }, {
    group = augroup, pattern = { '*.nesl', '*.sham' }, command = 'setfiletype nesl' })
  local fts = vim.list_extend({ 'markdown' }, M.config.filetypes)
  vim.api.nvim_create_autocmd('FileType', {
    group = augroup, pattern = fts,
    callback = function(args) maybe_attach(args.buf) end,
  })
  if M.config.codelens then
    vim.api.nvim_create_autocmd({ 'BufEnter', 'InsertLeave' }, {
      group = augroup,
      callback = function(args) refresh_codelens(args.buf) end,
    })
  end
  local cmds = {
    BlocklsExecuteBlock = { function() M.execute_block() end, 'Apply the blockls block at the cursor' },
    BlocklsExecuteAll = { function() M.execute_all() end, 'Apply every blockls block without errors' },
    BlocklsFixAll = { function() M.fix_all() end, 'Apply every preferred blockls fix' },
    BlocklsInfo = { function() M.info() end, 'Show the blockls client and server debug info' },
    BlocklsRestart = { function() M.restart() end, 'Restart the blockls language server' },
  }
  for name, c in pairs(cmds) do
    vim.api.nvim_create_user_command(name, c[1], { desc = c[2] })
  end
  -- Buffers that were loaded before setup() ran.
  for _, b in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(b) then
      local name = vim.api.nvim_buf_get_name(b)
      if vim.api.nvim_buf_get_option(b, 'filetype') == '' then
        if name:match('%.telt$') then vim.api.nvim_buf_set_option(b, 'filetype', 'telt')
        elseif name:match('%.nesl$') or name:match('%.sham$') then vim.api.nvim_buf_set_option(b, 'filetype', 'nesl') end
      end
      maybe_attach(b)
    end
  end
end

return M
