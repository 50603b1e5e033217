// Bundles the CLI with esbuild. Type checking is `npm run typecheck` (tsc -b).
import { build } from 'esbuild';
import { nodeOnlyImports, sizeLines, webBuilds } from './web-bundles.mjs';

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

// The VS Code extension client: self-contained except for `vscode`, which the editor provides.
await build({
  entryPoints: ['client/src/desktop.ts'],
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

// The language server: `node server/out/server.js --stdio` (or --node-ipc).
await build({
  entryPoints: ['server/src/node.ts'],
  outfile: 'server/out/server.js',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: true,
  logLevel: 'warning',
});

// The web build (docs/web.md): the same server and extension for a browser's Web Workers, shipped in
// the same .vsix (the manifest's `browser`). No Node module may reach them: the build fails naming
// the file that imports one, and prints their sizes.
const nodeReached = [];
for (const options of webBuilds) {
  const result = await build(options);
  for (const line of nodeOnlyImports(result.metafile)) nodeReached.push(`  ${options.outfile}: ${line}`);
}
if (nodeReached.length > 0) {
  console.error(`A web bundle imports a Node module, which a browser does not have:\n${nodeReached.join('\n')}`);
  process.exit(1);
}
console.log(`Web bundles:\n${sizeLines(webBuilds.map((options) => options.outfile)).join('\n')}`);
