// The types of ./web-bundles.mjs, for the tests that build and check the web bundles as the build does.
import type { BuildOptions, Metafile } from 'esbuild';

export declare const nodeOnlyModules: readonly string[];
export declare const webBuilds: readonly (BuildOptions & { readonly outfile: string; readonly entryPoints: readonly string[] })[];
export declare function nodeOnlyImports(metafile: Metafile): string[];
export declare function sizeLines(files: readonly string[]): string[];
