/**
 * Syntax: the readers that turn a file's text into a tree with exact spans and diagnostics.
 * The DOT lexer and the resilient DOT parser (DarkPrint's dialect,
 * docs/compatibility.md#dot-dialect) live here, the parser's grammar (dot-parser.ts) apart from
 * what a parse of an edited text takes from the earlier parse (dot-resume.ts); the YAML reader
 * joins them.
 *
 * Architecture invariant: parsers never throw and never give up on a file; user mistakes are
 * diagnostics. This folder knows no bundle, card, vocabulary or check: it reads one text at a
 * time and returns plain data in UTF-16 offsets.
 */
export * from './dot-model';
export * from './dot-lexer';
export * from './dot-parser';
export { mentionAt, mentionCount, mentionEnd, mentionNode, mentionStart, mentionStartingAt, nodeOccurrences, occurrencesById } from './dot-mentions';
