-- Neovim (0.7+) as a second, independent LSP client: starts the DarkPrint server on a
-- bundle, attaches it to the buffer opened on the command line, waits until diagnostics
-- arrive for it, and writes every diagnostic Neovim holds (all buffers) to stdout, one per
-- line: <file>|<code>|<severity>|<line>:<col>|<message>. `print` does not reach stdout
-- headless, so io.stdout is used. Inputs come from the environment:
--   DARKPRINT_SERVER  the server entry (server/out/server.js)
--   DARKPRINT_ROOT    the bundle folder (the workspace folder)
--   DARKPRINT_EXPECT  how many diagnostics to wait for, across all buffers
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

-- Wait until the open buffer has diagnostics and Neovim holds at least DARKPRINT_EXPECT in all
-- (the ones pushed for files that are not open arrive in the same burst).
local wanted = tonumber(os.getenv('DARKPRINT_EXPECT') or '1')
local arrived = vim.wait(30000, function()
  return #vim.diagnostic.get(0) > 0 and #vim.diagnostic.get(nil) >= wanted
end, 20)
if not arrived then
  out:write('TIMEOUT the expected diagnostics did not all arrive\n')
end

for _, d in ipairs(vim.diagnostic.get(nil)) do
  local lsp = d.user_data and d.user_data.lsp or {}
  local code = lsp.code or d.code or ''
  local file = vim.fn.fnamemodify(vim.api.nvim_buf_get_name(d.bufnr), ':.')
  local message = string.gsub(d.message, '\n', ' ')
  out:write(string.format('%s|%s|%d|%d:%d|%s\n', file, code, d.severity, d.lnum, d.col, message))
end

vim.lsp.stop_client(client_id)
vim.wait(5000, function()
  return vim.lsp.get_client_by_id(client_id) == nil
end, 20)
out:flush()
vim.cmd('qa!')
