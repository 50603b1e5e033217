-- Neovim (0.7+) formats a topology with the DarkPrint server, as its own
-- `vim.lsp.buf.formatting_sync()` does (the request with the buffer's indentation options, then the
-- edits applied to the buffer), and writes the buffer to stdout, line by line, between markers.
-- `print` does not reach stdout headless, so io.stdout is used. Inputs come from the environment:
--   DARKPRINT_SERVER  the server entry (server/out/server.js)
--   DARKPRINT_ROOT    the bundle folder (the workspace folder)
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

local ready = vim.wait(30000, function()
  local client = vim.lsp.get_client_by_id(client_id)
  return client ~= nil and client.server_capabilities ~= nil and client.server_capabilities.documentFormattingProvider ~= nil
end, 20)
if not ready then
  out:write('TIMEOUT the server did not initialize\n')
end

vim.bo.expandtab = true
vim.bo.shiftwidth = 2
vim.bo.tabstop = 2
vim.lsp.buf.formatting_sync(nil, 10000)

out:write('BEGIN\n')
for _, line in ipairs(vim.api.nvim_buf_get_lines(0, 0, -1, false)) do
  out:write(line .. '\n')
end
out:write('END\n')

vim.lsp.stop_client(client_id)
vim.wait(5000, function()
  return vim.lsp.get_client_by_id(client_id) == nil
end, 20)
out:flush()
vim.cmd('qa!')
