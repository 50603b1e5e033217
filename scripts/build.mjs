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
