/**
 * Diagnostics: THE registry of codes (registry.ts), the diagnostic shape and its ordering.
 * Must not know: any check. Checks import from here, never the reverse.
 */
export * from './types';
export * from './registry';
export * from './policy';
export * from './move';
export { codeHeading, diagnosticFamilies } from './render';
