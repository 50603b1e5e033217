-- Neovim (0.7+) asks the DarkPrint server for document highlights and workspace symbols, as its
-- own `vim.lsp.buf.document_highlight()` and `vim.lsp.buf.workspace_symbol()` do, and writes
-- what it gets to stdout, one per line:
--   highlight|<line>:<col>-<line>:<col>|<kind>      (0-based, kind 1 text, 2 read, 3 write)
--   symbol|<name>|<kind>|<file>:<line>
-- `print` does not reach stdout headless, so io.stdout is used. Inputs come from the environment:
--   DARKPRINT_SERVER  the server entry (server/out/server.js)
--   DARKPRINT_ROOT    the bundle folder (the workspace folder)
--   DARKPRINT_LINE, DARKPRINT_CHARACTER  where the cursor is for the highlight (0-based)
--   DARKPRINT_QUERY   the workspace symbol query
local server = os.getenv('DARKPRINT_SERVER')
local root = os.getenv('DARKPRINT_ROOT')
local out = io.stdout

local client_id = vim.lsp.start_client({
  name = 'darkprint',
  cmd = { 'node', server, '--stdio' },
  root_dir = root,
  workspace_folders = { { uri = vim.uri_from_fname(root), name = 'bundle' } },
  init_options = { debounceMs = 0 },
  settings = { darkprint = { debounceMs = 0 } },
})
if client_id == nil then
  out:write('ERROR could not start the server\n')
  vim.cmd('cquit 1')
end
vim.lsp.buf_attach_client(0, client_id)

-- Once the server has answered `initialize` (its requests themselves wait for the bundle to be read).
local ready = vim.wait(30000, function()
  local client = vim.lsp.get_client_by_id(client_id)
  return client ~= nil and client.server_capabilities ~= nil and client.server_capabilities.documentHighlightProvider ~= nil
end, 20)
if not ready then
  out:write('TIMEOUT the server did not initialize\n')
end

local position = { line = tonumber(os.getenv('DARKPRINT_LINE')), character = tonumber(os.getenv('DARKPRINT_CHARACTER')) }
local highlights = vim.lsp.buf_request_sync(0, 'textDocument/documentHighlight', { textDocument = vim.lsp.util.make_text_document_params(), position = position }, 10000)
for _, answer in pairs(highlights or {}) do
  if answer.err then out:write('ERROR ' .. vim.inspect(answer.err) .. '\n') end
  for _, h in ipairs(answer.result or {}) do
    local r = h.range
    out:write(string.format('highlight|%d:%d-%d:%d|%d\n', r.start.line, r.start.character, r['end'].line, r['end'].character, h.kind or 1))
  end
end

local symbols = vim.lsp.buf_request_sync(0, 'workspace/symbol', { query = os.getenv('DARKPRINT_QUERY') }, 10000)
for _, answer in pairs(symbols or {}) do
  if answer.err then out:write('ERROR ' .. vim.inspect(answer.err) .. '\n') end
  for _, s in ipairs(answer.result or {}) do
    local file = vim.fn.fnamemodify(vim.uri_to_fname(s.location.uri), ':.')
    out:write(string.format('symbol|%s|%d|%s:%d\n', s.name, s.kind, file, s.location.range.start.line))
  end
end

vim.lsp.stop_client(client_id)
vim.wait(5000, function()
  return vim.lsp.get_client_by_id(client_id) == nil
end, 20)
out:flush()
vim.cmd('qa!')
