/**
 * What the server takes from a client: the shape of every request's and document notification's
 * parameters, checked before anything reads them. A request with malformed parameters gets
 * InvalidParams with a sentence naming the field (handlers.ts `guarded`); a document notification
 * with malformed parameters is dropped whole and logged as a warning (documents.ts), so the document
 * keeps its last good text and version and the next well-formed change applies to it.
 *
 * Only the shape is checked (and the command a `workspace/executeCommand` names), never a value
 * against a document: a position past the end of a line or of the document is well formed (it is
 * clamped where it is converted, convert.ts `toOffset`), and so is a URI no bundle holds (the
 * request answers empty). A line or character is a whole number from 0 of any size, even beyond
 * the protocol's 2^31 - 1: clamped like any other position past the end, it reads as the end,
 * which is what a client that sends a large number for "the end of the line" means. An optional
 * field sent as `null` counts as left out.
 *
 * The protocol library's `is` guards are not used here: several read a property of `null`
 * (`TextDocumentIdentifier.is(null)` throws), and `Position.is` takes 1.5 for a line.
 */
import type { Range } from 'vscode-languageserver';
import { assertNever } from '../../shared/src';
import { applyEditCommand, showLocationCommand } from './convert';

/** A part of a request's parameters that its handler reads. */
export type ParamPart =
  | 'document'
  | 'position'
  | 'range'
  | 'referenceContext'
  | 'completionContext'
  | 'codeActionContext'
  | 'newName'
  | 'query'
  | 'previousResultId'
  | 'uri'
  | 'text'
  | 'author'
  | 'command'
  | 'formattingOptions';

/**
 * The first problem with `params` for the given parts, as a clause naming the field, such as
 * "`position.line` is -1; it must be a whole number from 0"; undefined when they are well formed.
 * No parts: anything goes.
 */
export function paramProblem(params: unknown, parts: readonly ParamPart[]): string | undefined {
  if (parts.length === 0) return undefined;
  if (!isRecord(params)) return `the parameters are ${shown(params)}; they must be an object`;
  for (const part of parts) {
    const problem = partProblem(params, part);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

/** A document as `textDocument/didOpen` gives it. */
export interface OpenedDocument {
  readonly uri: string;
  readonly version: number;
  readonly text: string;
}

/** One entry of a `textDocument/didChange`: a range replaced, or (without a range) the whole text. */
export type ContentChange = { readonly range: Range; readonly text: string } | { readonly text: string };

/** A `textDocument/didChange`: the document's new version and its changes, in order. */
export interface DocumentChange {
  readonly uri: string;
  readonly version: number;
  readonly changes: readonly ContentChange[];
}

/** A notification's parameters read, or the problem that stops them being read. */
export type Checked<T> = { readonly value: T } | { readonly problem: string };

export function openedDocument(params: unknown): Checked<OpenedDocument> {
  if (!isRecord(params)) return { problem: `the parameters are ${shown(params)}; they must be an object` };
  const document = params.textDocument;
  if (!isRecord(document)) return { problem: `${field('textDocument')} is ${shown(document)}; it must be an object with a \`uri\`, a \`version\` and a \`text\`` };
  const problem =
    stringProblem(document.uri, 'textDocument.uri') ?? integerProblem(document.version, 'textDocument.version') ?? stringProblem(document.text, 'textDocument.text');
  if (problem !== undefined) return { problem };
  return { value: { uri: document.uri as string, version: document.version as number, text: document.text as string } };
}

export function documentChange(params: unknown): Checked<DocumentChange> {
  if (!isRecord(params)) return { problem: `the parameters are ${shown(params)}; they must be an object` };
  const document = params.textDocument;
  if (!isRecord(document)) return { problem: `${field('textDocument')} is ${shown(document)}; it must be an object with a \`uri\` and a \`version\`` };
  const problem = stringProblem(document.uri, 'textDocument.uri') ?? integerProblem(document.version, 'textDocument.version');
  if (problem !== undefined) return { problem };
  const changes = params.contentChanges;
  if (!Array.isArray(changes)) return { problem: `${field('contentChanges')} is ${shown(changes)}; it must be a list` };
  for (let i = 0; i < changes.length; i++) {
    const change: unknown = changes[i];
    const name = `contentChanges[${i}]`;
    if (!isRecord(change)) return { problem: `${field(name)} is ${shown(change)}; it must be an object with a \`text\`` };
    const wrong = stringProblem(change.text, `${name}.text`) ?? (change.range === undefined ? undefined : rangeProblem(change.range, `${name}.range`));
    if (wrong !== undefined) return { problem: wrong };
  }
  return { value: { uri: document.uri as string, version: document.version as number, changes: changes as ContentChange[] } };
}

/** The URI of a `textDocument/didClose`. */
export function closedDocument(params: unknown): Checked<string> {
  if (!isRecord(params)) return { problem: `the parameters are ${shown(params)}; they must be an object` };
  const problem = documentProblem(params.textDocument);
  if (problem !== undefined) return { problem };
  return { value: (params.textDocument as { uri: string }).uri };
}

/** The document URI a notification names, when it names one as a string (for a message about it). */
export function documentUriOf(params: unknown): string | undefined {
  const document = isRecord(params) ? params.textDocument : undefined;
  return isRecord(document) && typeof document.uri === 'string' ? document.uri : undefined;
}

/**
 * The problem with a `workspace/executeCommand`'s command and arguments (its parameters' shape is
 * checked as the part `command`): the commands the server offers are `showLocationCommand`
 * (`[uri, range]`) and `applyEditCommand` (`[edit]` or `[edit, then]`, `then` a show-location
 * command), see convert.ts. An edit is checked only as far as its outline (`changes` an object, or
 * `documentChanges` a list of objects): the client checks the rest as it applies it.
 */
export function commandProblem(command: string, args: readonly unknown[]): string | undefined {
  switch (command) {
    case showLocationCommand:
      return locationProblem(args, 'arguments');
    case applyEditCommand: {
      const [edit, then] = args;
      return workspaceEditProblem(edit, 'arguments[0]') ?? optional(then, (value) => thenProblem(value, 'arguments[1]'));
    }
    default:
      return `${field('command')} is ${shown(command)}, which the server does not offer; it must be ${field(showLocationCommand)} or ${field(applyEditCommand)}`;
  }
}

function locationProblem(args: readonly unknown[], name: string): string | undefined {
  return stringProblem(args[0], `${name}[0]`) ?? rangeProblem(args[1], `${name}[1]`);
}

function workspaceEditProblem(edit: unknown, name: string): string | undefined {
  if (!isRecord(edit)) return `${field(name)} is ${shown(edit)}; it must be a workspace edit`;
  const { changes, documentChanges } = edit;
  if (documentChanges !== undefined && documentChanges !== null) {
    if (!Array.isArray(documentChanges)) return `${field(`${name}.documentChanges`)} is ${shown(documentChanges)}; it must be a list`;
    const at = documentChanges.findIndex((change) => !isRecord(change));
    return at < 0 ? undefined : `${field(`${name}.documentChanges[${at}]`)} is ${shown(documentChanges[at])}; it must be an object`;
  }
  if (changes !== undefined && changes !== null) return isRecord(changes) ? undefined : `${field(`${name}.changes`)} is ${shown(changes)}; it must be an object`;
  return `${field(`${name}.changes`)} is missing, and so is \`documentChanges\`; a workspace edit holds one of them`;
}

function thenProblem(then: unknown, name: string): string | undefined {
  if (!isRecord(then)) return `${field(name)} is ${shown(then)}; it must be a command`;
  if (then.command !== showLocationCommand) return `${field(`${name}.command`)} is ${shown(then.command)}; it must be ${field(showLocationCommand)}`;
  const args = then.arguments;
  return Array.isArray(args) ? locationProblem(args, `${name}.arguments`) : `${field(`${name}.arguments`)} is ${shown(args)}; it must be a list`;
}

// ---- the parts ------------------------------------------------------------------------------

function partProblem(params: Record<string, unknown>, part: ParamPart): string | undefined {
  switch (part) {
    case 'document':
      return documentProblem(params.textDocument);
    case 'position':
      return positionProblem(params.position, 'position');
    case 'range':
      return rangeProblem(params.range, 'range');
    case 'referenceContext': {
      const context = params.context;
      if (!isRecord(context)) return `${field('context')} is ${shown(context)}; it must be an object with \`includeDeclaration\``;
      return typeof context.includeDeclaration === 'boolean' ? undefined : `${field('context.includeDeclaration')} is ${shown(context.includeDeclaration)}; it must be true or false`;
    }
    case 'completionContext': {
      const context = params.context;
      if (context === undefined || context === null) return undefined;
      if (!isRecord(context)) return `${field('context')} is ${shown(context)}; it must be an object with a \`triggerKind\`, or be left out`;
      if (context.triggerKind !== 1 && context.triggerKind !== 2 && context.triggerKind !== 3) return `${field('context.triggerKind')} is ${shown(context.triggerKind)}; it must be 1, 2 or 3`;
      return optional(context.triggerCharacter, (c) => stringProblem(c, 'context.triggerCharacter'));
    }
    case 'codeActionContext': {
      const context = params.context;
      if (!isRecord(context)) return `${field('context')} is ${shown(context)}; it must be an object with \`diagnostics\``;
      if (!Array.isArray(context.diagnostics)) return `${field('context.diagnostics')} is ${shown(context.diagnostics)}; it must be a list`;
      const only = context.only;
      if (only !== undefined && only !== null) {
        if (!Array.isArray(only)) return `${field('context.only')} is ${shown(only)}; it must be a list of code action kinds, or be left out`;
        const at = only.findIndex((kind) => typeof kind !== 'string');
        if (at >= 0) return `${field(`context.only[${at}]`)} is ${shown(only[at])}; it must be a string`;
      }
      return optional(context.triggerKind, (kind) => (kind === 1 || kind === 2 ? undefined : `${field('context.triggerKind')} is ${shown(kind)}; it must be 1 or 2`));
    }
    case 'newName':
      return stringProblem(params.newName, 'newName');
    case 'query':
      return stringProblem(params.query, 'query');
    case 'previousResultId':
      return stringProblem(params.previousResultId, 'previousResultId');
    case 'uri':
      return stringProblem(params.uri, 'uri');
    case 'text':
      return stringProblem(params.text, 'text');
    case 'author':
      return stringProblem(params.author, 'author');
    case 'command':
      return stringProblem(params.command, 'command') ?? optional(params.arguments, (list) => (Array.isArray(list) ? undefined : `${field('arguments')} is ${shown(list)}; it must be a list, or be left out`));
    case 'formattingOptions': {
      const options = params.options;
      if (!isRecord(options)) return `${field('options')} is ${shown(options)}; it must be an object with \`tabSize\` and \`insertSpaces\``;
      if (typeof options.insertSpaces !== 'boolean') return `${field('options.insertSpaces')} is ${shown(options.insertSpaces)}; it must be true or false`;
      return wholeNumberProblem(options.tabSize, 'options.tabSize');
    }
    default:
      return assertNever(part);
  }
}

function documentProblem(document: unknown): string | undefined {
  if (!isRecord(document)) return `${field('textDocument')} is ${shown(document)}; it must be an object with a \`uri\``;
  return stringProblem(document.uri, 'textDocument.uri');
}

/** A position's problem; `name` is where it sits in the parameters. */
function positionProblem(position: unknown, name: string): string | undefined {
  if (!isRecord(position)) return `${field(name)} is ${shown(position)}; it must be an object with a \`line\` and a \`character\``;
  return wholeNumberProblem(position.line, `${name}.line`) ?? wholeNumberProblem(position.character, `${name}.character`);
}

/** A range's problem (an end before its start is well formed: readers take the two in order). */
function rangeProblem(range: unknown, name: string): string | undefined {
  if (!isRecord(range)) return `${field(name)} is ${shown(range)}; it must be an object with a \`start\` and an \`end\``;
  return positionProblem(range.start, `${name}.start`) ?? positionProblem(range.end, `${name}.end`);
}

function wholeNumberProblem(value: unknown, name: string): string | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? undefined : `${field(name)} is ${shown(value)}; it must be a whole number from 0`;
}

function integerProblem(value: unknown, name: string): string | undefined {
  return typeof value === 'number' && Number.isInteger(value) ? undefined : `${field(name)} is ${shown(value)}; it must be a whole number`;
}

function stringProblem(value: unknown, name: string): string | undefined {
  return typeof value === 'string' ? undefined : `${field(name)} is ${shown(value)}; it must be a string`;
}

/** The problem of an optional field: none when it is left out (or `null`). */
function optional(value: unknown, problem: (value: unknown) => string | undefined): string | undefined {
  return value === undefined || value === null ? undefined : problem(value);
}

function field(name: string): string {
  return `\`${name}\``;
}

/** A value as a message names it. */
function shown(value: unknown): string {
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  switch (typeof value) {
    case 'string':
      return value.length > 40 ? `the string ${JSON.stringify(value.slice(0, 40))}…` : `the string ${JSON.stringify(value)}`;
    case 'number':
    case 'boolean':
      return String(value);
    case 'object':
      return 'an object';
    default:
      return `a ${typeof value}`;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
