/**
 * The DarkPrint engine.
 *
 * Architecture invariant: pure and editor-agnostic. Inputs arrive as `{ path, text }` values,
 * outputs are plain data in UTF-16 offsets. Nothing here imports `fs`, `vscode` or an LSP
 * package; only `cli.ts` touches the file system and argv.
 */
export * from './text';
export * from './diagnostics';
export * from './syntax';
export * from './vocabulary';
export * from './bundle';
export * from './analyze';
export * from './hash';
export * from './compile';
export * from './ide';
export * from './picture';
export * from './protocol';
export { readCard } from './check/card';
