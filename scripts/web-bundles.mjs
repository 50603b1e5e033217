// The web build's bundles (docs/web.md) and the check that keeps Node out of them: the server in a
// Web Worker, the extension's `browser` entry, and the graph's layout Worker. Used by
// scripts/build.mjs; scripts/web-bundles.test.ts checks the check.
import { gzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';

/** Node modules that must never reach a web bundle, with or without `node:`. */
export const nodeOnlyModules = ['fs', 'path', 'child_process', 'worker_threads'];

/**
 * Every Node built-in is left external in a web build, so that an import of one does not stop
 * the build in esbuild's resolver with a message about resolving, but reaches `nodeOnlyImports`,
 * which names the file that imports it.
 */
const nodeBuiltins = [
  ...['assert', 'buffer', 'child_process', 'crypto', 'events', 'fs', 'fs/promises', 'http', 'https', 'net', 'os', 'path', 'perf_hooks', 'process', 'stream', 'url', 'util', 'v8', 'vm', 'worker_threads', 'zlib'],
  'node:*',
];

const common = { bundle: true, platform: 'browser', target: 'es2022', sourcemap: true, minifyWhitespace: true, minifySyntax: true, metafile: true, logLevel: 'warning' };

/** The web bundles, as esbuild options. */
export const webBuilds = [
  // The language server in a Web Worker (server/src/browser.ts).
  { ...common, entryPoints: ['server/src/browser.ts'], outfile: 'server/out/browser.js', format: 'iife', external: nodeBuiltins },
  // The extension's web entry: loaded by the web worker extension host, which provides `vscode`.
  { ...common, entryPoints: ['client/src/browser.ts'], outfile: 'client/out/browser.js', format: 'cjs', external: ['vscode', ...nodeBuiltins] },
  // The graph view's layout Worker in the browser: Graphviz compiled to WebAssembly, inlined.
  { ...common, entryPoints: ['client/src/graph-worker-web.ts'], outfile: 'client/out/graph-worker-web.js', format: 'iife', external: nodeBuiltins },
];

/**
 * The imports of Node-only modules (`nodeOnlyModules`, any Node built-in left external) in a
 * bundle's esbuild metafile, as `importer → module` lines; empty when there is none.
 */
export function nodeOnlyImports(metafile) {
  const found = [];
  for (const [importer, input] of Object.entries(metafile.inputs)) {
    for (const imported of input.imports) {
      const name = (imported.original ?? imported.path).replace(/^node:/, '').replace(/^\(disabled\):/, '');
      const base = name.split('/')[0];
      if (nodeOnlyModules.includes(base) || imported.path.startsWith('node:') || (imported.external && nodeBuiltins.includes(name))) {
        found.push(`${importer} → ${imported.original ?? imported.path}`);
      }
    }
  }
  return found;
}

/** One line per bundle: its file, its size and its size gzipped. */
export function sizeLines(files) {
  return files.map((file) => {
    const bytes = readFileSync(file);
    return `  ${file}  ${kilobytes(bytes.length)} (${kilobytes(gzipSync(bytes).length)} gzipped)`;
  });
}

function kilobytes(bytes) {
  return `${(bytes / 1024).toFixed(0)} KB`;
}
