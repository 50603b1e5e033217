/**
 * Compile: export a blueprint to an Attractor pipeline and import a pipeline back as a draft
 * bundle (docs/compatibility.md#attractor-export, docs/compatibility.md#attractor-import). THE
 * Attractor table (../syntax/attractor-table.ts: reserved attributes, identifier rule, the type ->
 * shape/handler mapping) is read by both directions, by the lint and by the docs; the gate
 * (gate.ts) says which findings stop an export.
 *
 * Must NOT know: the file system (text in, text out; the command writes the files), editors or
 * LSP types. It reads a resolved Blueprint and never re-resolves or re-analyses one.
 */
export * from '../syntax/attractor-table';
export * from './gate';
export * from './strings';
export * from './emit';
export * from './import';
