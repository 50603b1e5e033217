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
