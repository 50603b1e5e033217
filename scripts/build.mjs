// Bundles the CLI with esbuild. Type checking is `npm run typecheck` (tsc -b).
import { build } from 'esbuild';

await build({
  entryPoints: ['shared/src/cli.ts'],
  outfile: 'shared/out/cli.js',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: true,
  logLevel: 'warning',
});

// The VS Code extension client (issue 5): self-contained except for `vscode`, which the editor provides.
await build({
  entryPoints: ['client/src/extension.ts'],
  outfile: 'client/out/extension.js',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  external: ['vscode'],
  sourcemap: true,
  logLevel: 'warning',
});

// The graph view's layout thread (client/src/graph-worker.ts): Graphviz compiled to WebAssembly,
// inlined in the bundle, run off the extension host's own thread.
await build({
  entryPoints: ['client/src/graph-worker.ts'],
  outfile: 'client/out/graph-worker.js',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: true,
  logLevel: 'warning',
});

// The graph view's page script (client/webview/graph-view.ts): runs in the webview, loaded by nonce
// from the extension's own files; plain browser code, no Node and no WebAssembly.
await build({
  entryPoints: ['client/webview/graph-view.ts'],
  outfile: 'client/out/graph-view.js',
  bundle: true,
  platform: 'browser',
  target: 'chrome120',
  format: 'iife',
  sourcemap: false,
  logLevel: 'warning',
});

// The language server (issue 4): `node server/out/server.js --stdio` (or --node-ipc).
await build({
  entryPoints: ['server/src/server.ts'],
  outfile: 'server/out/server.js',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: true,
  logLevel: 'warning',
});
