/**
 * The custom requests between the extension and the language server: their names, parameters
 * and the shapes their answers travel in (./requests.ts), and the requests a server without a file
 * system sends its client to read the workspace (./files.ts). Plain names and types, one
 * declaration for both sides; nothing here runs.
 */
export * from './requests';
export * from './files';
