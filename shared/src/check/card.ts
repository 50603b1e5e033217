/**
 * The card reader (docs/compatibility.md#cards): `{ path, text }` in, the card model out, with
 * every `card/*` finding DarkPrint reports at the exact range of what it is about.
 *
 * Ranges (ours, docs/compatibility.md#card-ranges; DarkPrint gives only a path, which we keep in
 * `location.path`):
 * - a missing field: the key when it is written with no value (`name:`); when the key is
 *   absent, the first line of the mapping that should hold it (the card's first line for a
 *   top-level field, the port's first line for a port field);
 * - an unknown, retired or alias-clashing key, and `required` on an output: the key;
 * - a bad value (wrong type, blank, bad id/version, unknown term, thin spec, params not
 *   JSON): the value; a bad list entry: the entry; a duplicate port: its `name` value;
 * - a value reached through a YAML alias is reported where the alias is written, and what is
 *   inside it where the anchored text is;
 * - `params.tool_command` missing: the `params` key, or the `type` value when there is no
 *   `params` at all (the type is what asks for a command);
 * - a document that is not a mapping: the whole value; an empty document: offset 0;
 * - `card/filename-mismatch` [beyond]: the `id` value.
 * `location.cardRef` is set on every finding once the card's `id` and `version` are both valid.
 *
 * The card is returned only when no finding is an error (docs/compatibility.md#field-rules).
 * `draft` holds what could be read even from a broken card, including a card with syntax errors
 * (then only the syntax errors are reported, as DarkPrint does).
 *
 * [decision] `params` keys are kept as data whatever their spelling: `__proto__` and
 * `constructor` are ordinary own keys of the params object (never a prototype), so they are
 * hashed and exported like any other key. DarkPrint's reader loses a `__proto__` key; no real
 * card has one.
 */
import type { Card, CardLocator, CardReadResult, JsonValue, Port } from '../card/card-model';
import { cardFields } from '../card/card-fields';
import { cardIdPattern } from '../card/card-ref';
import type { Diagnostic, DiagnosticCode, RelatedInformation, Severity } from '../diagnostics';
import { editDistance, span, type Span } from '../text';
import { deref, firstLineSpan, formatOf, locatePath, parseData, type DataDocument, type DataFormat, type YamlEntry, type YamlMapping, type YamlNode, type YamlValue } from '../syntax/yaml';
import type { TermKind, Vocabulary } from '../vocabulary/types';
import { isStrictSemver } from './semver';

export interface ReadCardOptions {
  /** DarkPrint's YAML alias limit (default 100; -1 turns it off). */
  readonly maxAliasCount?: number;
  /**
   * Whether the result's `locate` keeps the card's located tree (the default). A one-shot run
   * that asks for few locations after the read (the CLI) passes false: `locate` then reads the
   * text again on its first call, and the trees of thousands of cards are not held through the
   * load.
   */
  readonly keepTree?: boolean;
}

/** Every top-level key the card schema reads, aliases included (docs/compatibility.md#card-fields), in the order of `cardFields`. */
export const cardKnownKeys: ReadonlySet<string> = new Set(cardFields.flatMap((f) => (f.alias !== undefined ? [f.key, f.alias] : [f.key])));

/** Keys the schema withdrew (docs/compatibility.md#card-fields): reported as `card/retired-field` and ignored. */
export const retiredCardKeys: ReadonlyMap<string, string> = new Map([
  ['requires_human', 'whether a person acts at the node now follows from its `type`'],
  ['requiresHuman', 'whether a person acts at the node now follows from its `type`'],
  ['ontology_version', 'a card is always read against the current vocabulary'],
  ['ontologyVersion', 'a card is always read against the current vocabulary'],
]);

/** Below this many characters (after trimming) a spec is too thin (docs/compatibility.md#field-rules). */
export const minimumSpecLength = 40;
/** How deep a params value may nest (docs/compatibility.md#params; a top-level param is level 1). */
export const maximumParamsDepth = 100;

/** Reads and checks one card file. Never throws. */
export function readCard(file: { readonly path: string; readonly text: string }, vocabulary: Vocabulary, options: ReadCardOptions = {}): CardReadResult {
  const { path, text } = file;
  const whole = span(0, text.length);
  const diagnostics: Diagnostic[] = [];
  if (!/\S/.test(text)) {
    diagnostics.push({
      code: 'card/parse-error',
      severity: 'error',
      message: 'The card file is empty; write the card fields, at least `id`, `name`, `type`, `action`, `spec`, `version`, `inputs` and `outputs`.',
      location: { file: path, span: span(0, 0) },
    });
    return { file: path, text, draft: {}, diagnostics, locate: () => whole };
  }

  const document = parseData(text, formatOf(path), { maxAliasCount: options.maxAliasCount });
  const root = document.root;
  const locate = (target: string, part: 'key' | 'value' = 'value'): Span => locatePath(root, target, part)?.span ?? whole;
  let syntaxError = false;
  for (const problem of document.problems) {
    if (problem.severity === 'error') syntaxError = true;
    diagnostics.push({ code: 'card/parse-error', severity: problem.severity, message: problem.message, location: { file: path, span: problem.span } });
  }

  // With a syntax error DarkPrint reports nothing else; the draft is still read, silently.
  const reader = createReader(path, text, vocabulary, syntaxError ? [] : diagnostics);
  const read = readModel(reader, root);
  if (!syntaxError && read.id !== undefined && read.version !== undefined) {
    const ref = `${read.id}@${read.version}`;
    for (const d of diagnostics) d.location.cardRef = ref;
    const expected = expectedCardPath(path, read.id, read.version);
    if (expected !== undefined) {
      diagnostics.push({
        code: 'card/filename-mismatch',
        severity: 'info',
        message: `The file ${path} holds \`${ref}\`, so its name does not say which card it is; rename it to ${expected}.`,
        location: { file: path, span: locate('id', 'value'), path: 'id', cardRef: ref },
      });
    }
  }
  const hasError = diagnostics.some((d) => d.severity === 'error');
  const kept = options.keepTree === false ? rereadingLocator(text, formatOf(path), options.maxAliasCount, whole) : locate;
  return hasError || !read.card
    ? { file: path, text, draft: read.draft, diagnostics, locate: kept }
    : { file: path, text, card: read.card, draft: read.draft, diagnostics, locate: kept };
}

/**
 * A card's `locate` that holds only its text: the first call reads the text again (the same
 * read, so the same spans) and keeps that tree for the calls after it. A function of its own, so
 * that the closure shares no scope with the first read's tree.
 */
function rereadingLocator(text: string, format: DataFormat, maxAliasCount: number | undefined, whole: Span): CardLocator {
  let document: DataDocument | undefined;
  return (target, part = 'value') => {
    document ??= parseData(text, format, { maxAliasCount });
    return locatePath(document.root, target, part)?.span ?? whole;
  };
}

/**
 * The path a card file should have: `cards/<id>@<version>.<ext>` for a file under `cards/`
 * (a namespaced id `ns/name` lives at `cards/ns/name@<version>.<ext>`), otherwise
 * `<name>@<version>.<ext>` in the file's own folder. Undefined when the file already has it.
 */
export function expectedCardPath(path: string, id: string, version: string): string | undefined {
  const slash = path.lastIndexOf('/');
  const folder = slash >= 0 ? path.slice(0, slash + 1) : '';
  const base = path.slice(slash + 1);
  const dot = base.lastIndexOf('.');
  const extension = dot > 0 ? base.slice(dot) : '.yaml';
  const expected = path.startsWith('cards/')
    ? `cards/${id}@${version}${extension}`
    : `${folder}${id.slice(id.lastIndexOf('/') + 1)}@${version}${extension}`;
  return expected === path ? undefined : expected;
}

/**
 * The `id@version` a card file's path names, as `expectedCardPath` writes it: under `cards/`,
 * the path below it without the extension (`cards/ns/a@1.0.0.yaml` names `ns/a@1.0.0`),
 * elsewhere the file name without it.
 */
export function cardRefNamedBy(path: string): string {
  const named = path.startsWith('cards/') ? path.slice('cards/'.length) : path.slice(path.lastIndexOf('/') + 1);
  return named.replace(/\.(ya?ml|json)$/i, '');
}

/**
 * The known, non-abstract, non-deprecated term of `kind` nearest to `id` by edit distance,
 * when it is close enough to be a likely typo (a third of the length, at least one edit).
 */
export function suggestTerm(vocabulary: Vocabulary, id: string, kind: TermKind): string | undefined {
  const candidates = vocabulary
    .terms(kind)
    .filter((t) => !t.abstract && !t.deprecated)
    .map((t) => t.id);
  return nearest(id, candidates);
}

// ---- the reader ------------------------------------------------------------------------------

interface Reader {
  readonly file: string;
  readonly text: string;
  readonly vocabulary: Vocabulary;
  readonly report: (
    severity: Severity,
    code: DiagnosticCode,
    message: string,
    path: string | undefined,
    at: Span,
    extra?: { hint?: string; related?: RelatedInformation[] },
  ) => void;
}

function createReader(file: string, text: string, vocabulary: Vocabulary, sink: Diagnostic[]): Reader {
  return {
    file,
    text,
    vocabulary,
    report(severity, code, message, path, at, extra) {
      const d: Diagnostic = { code, severity, message, location: path === undefined ? { file, span: at } : { file, span: at, path } };
      if (extra?.hint !== undefined) d.hint = extra.hint;
      if (extra?.related !== undefined && extra.related.length > 0) d.related = extra.related;
      sink.push(d);
    },
  };
}

/** One field as written: the spelling used, its entry, and its value (undefined when absent or null). */
interface Field {
  readonly key: string;
  readonly path: string;
  readonly entry?: YamlEntry;
  readonly value?: YamlValue;
  /** Where a finding about a missing field goes. */
  readonly missingSpan: Span;
}

type Draft = { -readonly [K in keyof Card]?: Card[K] };

interface ModelRead {
  readonly draft: Partial<Card>;
  readonly card?: Card;
  /** Set when valid (id regex, strict semver). */
  readonly id?: string;
  readonly version?: string;
}

function readModel(reader: Reader, rootNode: YamlNode | undefined): ModelRead {
  const root = deref(rootNode);
  if (!root || root.kind !== 'mapping') {
    const at = root ? root.span : firstNonBlankLine(reader.text);
    const what = root ? `The card is ${describe(root)}, but a card must be a mapping of fields` : 'The card holds no fields, only comments';
    reader.report('error', 'card/bad-type', `${what}; write the fields as \`key: value\` lines, starting with \`id:\`.`, undefined, at);
    return { draft: {} };
  }
  const card = root;
  const topMissing = firstLineSpan(reader.text, card.span);
  const field = (wire: string, alias?: string): Field => readField(reader, card, topMissing, '', wire, alias);
  const draft: Draft = {};
  let valid = true;
  const fail = (): undefined => {
    valid = false;
    return undefined;
  };

  // identity
  const idField = field('id');
  const rawId = requiredString(reader, idField);
  let id: string | undefined;
  if (rawId !== undefined) {
    draft.id = rawId;
    if (cardIdPattern.test(rawId)) id = rawId;
    else {
      const suggestion = suggestId(rawId);
      reader.report(
        'error',
        'card/bad-id',
        `\`${rawId}\` is not a valid card id; use lowercase letters and digits in words joined by single hyphens, with at most one \`namespace/\` prefix${suggestion ? `, such as \`${suggestion}\`` : ''}.`,
        idField.path,
        valueSpan(idField),
      );
    }
  } else fail();
  const name = requiredString(reader, field('name'));
  if (name !== undefined) draft.name = name;
  else fail();
  const typeField = field('type');
  const type = requiredString(reader, typeField);
  if (type !== undefined) {
    draft.type = type;
    checkTerm(reader, type, 'node-type', typeField.path, valueSpan(typeField));
  } else fail();
  draft.phases = readPhases(reader, field('phase', 'phases'));

  // behaviour
  const action = requiredString(reader, field('action'));
  if (action !== undefined) draft.action = action;
  else fail();
  const specField = field('spec');
  const spec = requiredString(reader, specField);
  if (spec !== undefined) {
    draft.spec = spec;
    const length = spec.trim().length;
    if (length < minimumSpecLength) {
      reader.report(
        'warning',
        'card/spec-too-thin',
        `\`${specField.key}\` is ${length} character${length === 1 ? '' : 's'} long, too thin to instruct an agent that sees nothing else of the graph; say what to do, what to produce and what to leave alone (at least ${minimumSpecLength} characters).`,
        specField.path,
        valueSpan(specField),
      );
    }
  } else fail();
  const model = optionalString(reader, field('model'));
  if (model !== undefined) draft.model = model;
  const agent = optionalString(reader, field('agent'));
  if (agent !== undefined) draft.agent = agent;
  draft.tools = stringList(reader, field('tools'), 'tool');
  draft.mcp = stringList(reader, field('mcp'));
  const skill = optionalString(reader, field('skill'));
  if (skill !== undefined) draft.skill = skill;
  const paramsField = field('params');
  const params = readParams(reader, paramsField);
  draft.params = params;
  if (type !== undefined) checkToolCommand(reader, type, params, paramsField, typeField);

  // interfaces
  const inputs = readPorts(reader, field('inputs'), 'input');
  if (inputs !== undefined) draft.inputs = inputs;
  const outputs = readPorts(reader, field('outputs'), 'output');
  if (outputs !== undefined) draft.outputs = outputs;
  draft.dependencies = stringList(reader, field('dependencies'));
  draft.cannot = stringList(reader, field('cannot'), 'data-type');
  const willNotField = field('will_not', 'willNot');
  draft.willNot = stringList(reader, willNotField);
  checkMisfiled(reader, willNotField);

  // evaluation metadata
  draft.riskMarkers = stringList(reader, field('risk_markers', 'riskMarkers'), 'risk-marker');
  const notes = optionalString(reader, field('notes'));
  if (notes !== undefined) draft.notes = notes;

  // service fields
  const versionField = field('version');
  const rawVersion = requiredString(reader, versionField);
  let version: string | undefined;
  if (rawVersion !== undefined) {
    draft.version = rawVersion;
    if (isStrictSemver(rawVersion)) version = rawVersion;
    else {
      const suggestion = suggestVersion(rawVersion);
      reader.report(
        'error',
        'card/bad-version',
        `\`${rawVersion}\` is not a strict semantic version; write MAJOR.MINOR.PATCH with no \`v\` and no leading zeros, such as \`${suggestion ?? '1.0.0'}\`.`,
        versionField.path,
        valueSpan(versionField),
      );
    }
  } else fail();
  const author = optionalString(reader, field('author'));
  if (author !== undefined) draft.author = author;
  const provenance = optionalString(reader, field('provenance'));
  if (provenance !== undefined) draft.provenance = provenance;

  for (const [key, entry] of card.entries) {
    if (cardKnownKeys.has(key)) continue;
    const retired = retiredCardKeys.get(key);
    if (retired !== undefined) {
      reader.report('warning', 'card/retired-field', `\`${key}\` is no longer a card field and is ignored (${retired}); remove it.`, key, entry.keySpan);
      continue;
    }
    const near = nearest(key, [...cardKnownKeys]);
    reader.report(
      'info',
      'card/bad-type',
      `\`${key}\` is not a card field and is ignored; ${near ? `did you mean \`${near}\`? Rename it, or remove it` : 'check its spelling or remove it'}.`,
      key,
      entry.keySpan,
    );
  }

  const result: { draft: Partial<Card>; id?: string; version?: string } = { draft };
  if (id !== undefined) result.id = id;
  if (version !== undefined) result.version = version;
  if (!valid || id === undefined || name === undefined || type === undefined || action === undefined || spec === undefined || version === undefined || inputs === undefined || outputs === undefined) {
    return result;
  }
  const complete: Card = {
    id,
    name,
    type,
    phases: draft.phases,
    action,
    spec,
    ...(model !== undefined ? { model } : {}),
    ...(agent !== undefined ? { agent } : {}),
    tools: draft.tools,
    mcp: draft.mcp,
    ...(skill !== undefined ? { skill } : {}),
    params,
    inputs,
    outputs,
    dependencies: draft.dependencies,
    cannot: draft.cannot,
    willNot: draft.willNot,
    riskMarkers: draft.riskMarkers,
    ...(notes !== undefined ? { notes } : {}),
    version,
    ...(author !== undefined ? { author } : {}),
    ...(provenance !== undefined ? { provenance } : {}),
  };
  return { draft, card: complete, id, version };
}

/** Reads `wire` (or its `alias` spelling) from a mapping; both present: the wire key wins, INFO at the alias. */
function readField(reader: Reader, mapping: YamlMapping, missingSpan: Span, prefix: string, wire: string, alias?: string): Field {
  const wireEntry = mapping.entries.get(wire);
  const aliasEntry = alias !== undefined ? mapping.entries.get(alias) : undefined;
  if (wireEntry && aliasEntry && alias !== undefined) {
    reader.report(
      'info',
      'card/bad-type',
      `Both \`${wire}\` and \`${alias}\` are written; \`${wire}\` is read and \`${alias}\` is ignored, so remove \`${alias}\`.`,
      prefix + alias,
      aliasEntry.keySpan,
      { related: [{ file: reader.file, span: wireEntry.keySpan, message: `\`${wire}\`, the spelling that is read` }] },
    );
  }
  const entry = wireEntry ?? aliasEntry;
  const key = wireEntry ? wire : aliasEntry && alias !== undefined ? alias : wire;
  const value = deref(entry?.value);
  const present = value !== undefined && !(value.kind === 'scalar' && value.value === null);
  // one object shape for every field (no conditional spreads: this runs ~30 times per card)
  return {
    key,
    path: prefix + key,
    entry,
    value: present ? value : undefined,
    missingSpan: entry ? entry.keySpan : missingSpan,
  };
}

/** The value's span, or the key's when the value is not written. */
function valueSpan(f: Field): Span {
  const written = f.entry?.value.span;
  return written && written.end > written.start ? written : f.missingSpan;
}

/**
 * Where a value is written; for one written as nothing, the `-` of its list entry (`  -` on a
 * line of its own, as typed before the entry's text), or else `fallback`.
 */
function nodeValueSpan(text: string, node: YamlNode, fallback: Span): Span {
  if (node.span.end > node.span.start) return node.span;
  let at = node.span.start;
  while (at > 0 && (text.charCodeAt(at - 1) === 32 || text.charCodeAt(at - 1) === 9)) at--;
  return at > 0 && text.charCodeAt(at - 1) === 45 /* - */ ? span(at - 1, at) : fallback;
}

const missingFixes: ReadonlyMap<string, string> = new Map([
  ['id', 'add `id:` with lowercase words joined by hyphens, such as `id: outline-writer`'],
  ['name', 'add `name:` with a short human-readable title'],
  ['type', 'add `type:` with a node type such as `agent` or `tool`'],
  ['action', 'add `action:` with one line saying what the node does'],
  ['spec', 'add `spec:` with the instructions the agent reads'],
  ['version', 'add `version: 1.0.0`'],
  ['inputs', 'add `inputs: []` if the node takes no input'],
  ['outputs', 'add `outputs: []` if the node produces nothing'],
  ['name@port', 'give the port a `name`'],
  ['type@port', 'give the port a data `type` such as `text` or `json`'],
]);

function reportMissing(reader: Reader, f: Field, fixKey: string, owner: string): void {
  const fix = missingFixes.get(fixKey) ?? `add \`${f.key}\``;
  const message = f.entry
    ? `\`${f.path}\` has no value; ${fix.replace(/^add /, 'write ')}.`
    : `${owner} has no \`${f.key}\`; ${fix}.`;
  reader.report('error', 'card/missing-field', message, f.path, f.missingSpan);
}

function requiredString(reader: Reader, f: Field, fixKey = f.key, owner = 'The card'): string | undefined {
  const value = f.value;
  if (!value) {
    reportMissing(reader, f, fixKey, owner);
    return undefined;
  }
  if (value.kind !== 'scalar' || typeof value.value !== 'string') {
    reportNotString(reader, f, value);
    return undefined;
  }
  if (value.value.trim() === '') {
    const fix = (missingFixes.get(fixKey) ?? `write a value for \`${f.key}\``).replace(/^add /, 'write ');
    reader.report('error', 'card/missing-field', `\`${f.path}\` is blank; ${fix}.`, f.path, valueSpan(f));
    return undefined;
  }
  return value.value;
}

function optionalString(reader: Reader, f: Field): string | undefined {
  const value = f.value;
  if (!value) return undefined;
  if (value.kind !== 'scalar' || typeof value.value !== 'string') {
    reportNotString(reader, f, value);
    return undefined;
  }
  return value.value;
}

function reportNotString(reader: Reader, f: Field, value: YamlValue): void {
  const at = valueSpan(f);
  const fix =
    value.kind === 'scalar'
      ? `quote it, as in \`${f.key}: "${reader.text.slice(at.start, at.end).replace(/["\\]/g, '')}"\``
      : 'write it as text';
  reader.report('error', 'card/bad-type', `\`${f.path}\` is ${describe(value)}, but it must be a string; ${fix}.`, f.path, at);
}

/** A list of strings, `[]` when absent; a non-string entry is reported at `key[i]` and dropped. */
function stringList(reader: Reader, f: Field, kind?: TermKind): string[] {
  const value = f.value;
  if (!value) return [];
  if (value.kind !== 'sequence') {
    const example = value.kind === 'scalar' && typeof value.value === 'string' ? `\`${f.key}: [${value.value}]\`` : `\`${f.key}: []\``;
    reader.report('error', 'card/bad-type', `\`${f.path}\` is ${describe(value)}, but it must be a list of strings; write it as a list, such as ${example}.`, f.path, valueSpan(f));
    return [];
  }
  const out: string[] = [];
  value.items.forEach((node, i) => {
    const path = `${f.path}[${i}]`;
    const entry = deref(node);
    const at = nodeValueSpan(reader.text, node, value.span);
    if (!entry || entry.kind !== 'scalar' || typeof entry.value !== 'string') {
      reader.report('error', 'card/bad-type', `\`${path}\` is ${describe(entry)}, but each entry of \`${f.key}\` must be a string; write it as text or remove it.`, path, at);
      return;
    }
    if (kind !== undefined) checkTerm(reader, entry.value, kind, path, at);
    out.push(entry.value);
  });
  return out;
}

function readPhases(reader: Reader, f: Field): string[] {
  const value = f.value;
  if (!value) return [];
  const phases = phaseIds(reader.vocabulary);
  const choices = phaseChoices(phases);
  let entries: { node: YamlNode; path: string }[];
  if (value.kind === 'scalar' && typeof value.value === 'string') entries = [{ node: f.entry?.value ?? value, path: f.path }];
  else if (value.kind === 'sequence') entries = value.items.map((node, i) => ({ node, path: `${f.path}[${i}]` }));
  else {
    reader.report('error', 'card/bad-type', `\`${f.path}\` is ${describe(value)}, but it must be a phase or a list of phases; write one of ${choices}.`, f.path, valueSpan(f));
    return [];
  }
  const out: string[] = [];
  const first = new Map<string, Span>();
  for (const { node, path } of entries) {
    const entry = deref(node);
    const at = nodeValueSpan(reader.text, node, f.missingSpan);
    if (!entry || entry.kind !== 'scalar' || typeof entry.value !== 'string') {
      reader.report('error', 'card/bad-type', `\`${path}\` is ${describe(entry)}, but a phase must be a string; write one of ${choices}.`, path, at);
      continue;
    }
    const phase = entry.value;
    if (phase.trim() === '') {
      reader.report('error', 'card/unknown-phase', `\`${path}\` is blank; write one of ${choices}, or remove the entry (phases are optional).`, path, at);
      continue;
    }
    if (phase.includes('/')) {
      reader.report('error', 'card/namespaced-phase', `\`${phase}\` is a namespaced phase, but the five phases are closed and cannot be extended; use one of ${choices}.`, path, at);
      continue;
    }
    if (!phases.includes(phase)) {
      const near = nearest(phase, phases);
      reader.report(
        'error',
        'card/unknown-phase',
        `\`${phase}\` is not a phase; ${near ? `replace it with \`${near}\`` : `use one of ${choices}`}, or remove it (phases are optional).`,
        path,
        at,
      );
      continue;
    }
    const earlier = first.get(phase);
    if (earlier) {
      reader.report('warning', 'card/duplicate-phase', `\`${phase}\` is listed more than once in \`${f.key}\`; remove the repeat.`, path, at, {
        related: [{ file: reader.file, span: earlier, message: `the first \`${phase}\`` }],
      });
      continue;
    }
    first.set(phase, at);
    out.push(phase);
  }
  return out;
}

/** The phase ids of a vocabulary, listed once per vocabulary (every card asks). */
const phaseIdCache = new WeakMap<Vocabulary, readonly string[]>();
function phaseIds(vocabulary: Vocabulary): readonly string[] {
  let ids = phaseIdCache.get(vocabulary);
  if (ids === undefined) {
    ids = vocabulary.terms('phase').map((t) => t.id);
    phaseIdCache.set(vocabulary, ids);
  }
  return ids;
}

/** The phases as a message lists them: `` `planning`, `implementation`, … ``. */
const phaseChoiceCache = new WeakMap<readonly string[], string>();
function phaseChoices(phases: readonly string[]): string {
  let text = phaseChoiceCache.get(phases);
  if (text === undefined) {
    text = phases.map((p) => `\`${p}\``).join(', ');
    phaseChoiceCache.set(phases, text);
  }
  return text;
}

/** Inputs or outputs; undefined when the required list is missing or not a list. */
function readPorts(reader: Reader, f: Field, side: 'input' | 'output'): Port[] | undefined {
  const value = f.value;
  if (!value) {
    requiredString(reader, f); // reports the missing field
    return undefined;
  }
  if (value.kind !== 'sequence') {
    reader.report(
      'error',
      'card/bad-type',
      `\`${f.path}\` is ${describe(value)}, but it must be a list of ports; write each port as \`- name: …\` with a \`type:\` line, or \`${f.key}: []\` for none.`,
      f.path,
      valueSpan(f),
    );
    return undefined;
  }
  const ports: Port[] = [];
  const seen = new Map<string, Span>();
  value.items.forEach((node, i) => {
    const path = `${f.path}[${i}]`;
    const port = deref(node);
    if (!port || port.kind !== 'mapping') {
      reader.report(
        'error',
        'card/bad-type',
        `\`${path}\` is ${describe(port)}, but a port must be a mapping with \`name\` and \`type\`; write it as \`{ name: …, type: … }\`.`,
        path,
        nodeValueSpan(reader.text, node, value.span),
      );
      return;
    }
    const missing = firstLineSpan(reader.text, port.span);
    const owner = `The ${side} port \`${path}\``;
    const nameField = readField(reader, port, missing, `${path}.`, 'name');
    const typeField = readField(reader, port, missing, `${path}.`, 'type');
    const name = requiredString(reader, nameField, 'name@port', owner);
    const type = requiredString(reader, typeField, 'type@port', owner);
    if (type !== undefined) checkTerm(reader, type, 'data-type', typeField.path, valueSpan(typeField));
    if (name !== undefined) {
      const earlier = seen.get(name);
      if (earlier) {
        reader.report('error', 'card/duplicate-port', `Port \`${name}\` is declared more than once in \`${f.key}\`; rename or remove one of them, since edges address ports by name.`, nameField.path, valueSpan(nameField), {
          related: [{ file: reader.file, span: earlier, message: `the first port named \`${name}\`` }],
        });
      } else seen.set(name, valueSpan(nameField));
    }
    const description = optionalString(reader, readField(reader, port, missing, `${path}.`, 'description'));
    const requiredField = readField(reader, port, missing, `${path}.`, 'required');
    let required: boolean | undefined;
    const flag = requiredField.value;
    if (flag) {
      if (flag.kind !== 'scalar' || typeof flag.value !== 'boolean') {
        reader.report('error', 'card/bad-type', `\`${requiredField.path}\` is ${describe(flag)}, but it must be \`true\` or \`false\`; write one of them.`, requiredField.path, valueSpan(requiredField));
      } else if (side === 'output') {
        reader.report(
          'info',
          'card/bad-type',
          `\`${requiredField.path}\` has no meaning on an output (only an input can be optional) and is ignored; remove it.`,
          requiredField.path,
          requiredField.entry?.keySpan ?? valueSpan(requiredField),
        );
      } else required = flag.value;
    }
    ports.push({
      name: name ?? '',
      type: type ?? '',
      ...(description !== undefined ? { description } : {}),
      ...(required !== undefined ? { required } : {}),
    });
  });
  return ports;
}

/** Unknown term, wrong kind, deprecated (docs/compatibility.md#term-checks). */
function checkTerm(reader: Reader, id: string, kind: TermKind, path: string, at: Span): void {
  const vocabulary = reader.vocabulary;
  const exact = vocabulary.get(id);
  const resolved = vocabulary.resolve(id);
  const term = exact ?? resolved;
  const label = kindLabel(kind);
  if (!term) {
    const near = suggestTerm(vocabulary, id, kind);
    if (path.startsWith('cannot[') && /\s/.test(id.trim())) {
      // [decision] A sentence in `cannot` can never be a term id. DarkPrint's newest validator
      // makes it an error, but the public corpus's complete bundles carry such sentences and
      // the site's published security and autonomy figures for them only come out when those
      // cards load. So we keep the code and its fix but report a warning, and the card loads;
      // the resolver's prohibition check skips entries that are not data types, as DarkPrint's
      // does (docs/compatibility.md#term-checks).
      reader.report(
        'warning',
        'card/unknown-term',
        `\`${id}\` is a sentence, but \`cannot\` takes data types only (what no incoming edge may carry); move the sentence to \`will_not\`, or replace it with a data type.`,
        path,
        at,
        { hint: `Known data types: ${termList(vocabulary, kind)}.` },
      );
      return;
    }
    reader.report(
      'error',
      'card/unknown-term',
      near
        ? `\`${id}\` is not a term of the vocabulary; replace it with \`${near}\`, the nearest ${label}, or declare \`${id}\` as a local term in ontology/extensions.yaml.`
        : `\`${id}\` is not a term of the vocabulary; use a known ${label}, or declare it as a local term in ontology/extensions.yaml.`,
      path,
      at,
      { hint: `Known ${label}s: ${termList(vocabulary, kind)}.` },
    );
    return;
  }
  if (term.kind !== kind) {
    const near = suggestTerm(vocabulary, id, kind);
    reader.report(
      'error',
      'card/wrong-term-kind',
      `\`${id}\` is a ${kindLabel(term.kind)}, but \`${path}\` takes a ${label}; ${near ? `replace it with \`${near}\`` : `replace it with a ${label}`}.`,
      path,
      at,
      { hint: `Known ${label}s: ${termList(vocabulary, kind)}.` },
    );
    return;
  }
  const redirected = resolved !== undefined && resolved.id !== id ? resolved.id : undefined;
  if (!exact?.deprecated && redirected === undefined) return;
  const replacement = exact?.deprecated?.replacedBy ?? redirected;
  reader.report(
    'warning',
    'card/deprecated-term',
    replacement
      ? `\`${id}\` is deprecated; replace it with \`${replacement}\`.`
      : `\`${id}\` is deprecated and has no replacement; remove it or pick another ${label}.`,
    path,
    at,
    replacement ? { hint: `The replacement is \`${replacement}\`.` } : {},
  );
}

/** A `will_not` entry that resolves as a data type belongs in `cannot` (docs/compatibility.md#term-checks). */
function checkMisfiled(reader: Reader, f: Field): void {
  const list = f.value;
  if (!list || list.kind !== 'sequence') return;
  list.items.forEach((node, i) => {
    const entry = deref(node);
    if (!entry || entry.kind !== 'scalar' || typeof entry.value !== 'string') return;
    const term = reader.vocabulary.resolve(entry.value, 'data-type');
    if (!term) return;
    reader.report(
      'warning',
      'card/prohibition-misfiled',
      `\`${entry.value}\` in \`${f.key}\` is a data type, and nothing checks \`${f.key}\`; move it to \`cannot\` so that every edge carrying \`${term.id}\` into this node is refused.`,
      `${f.path}[${i}]`,
      nodeValueSpan(reader.text, node, list.span),
    );
  });
}

/** The shell-tool rule (docs/compatibility.md#shell-tools): a `shell-tool` (or a type under it) needs `params.tool_command`. */
function checkToolCommand(reader: Reader, type: string, params: { readonly [key: string]: JsonValue }, paramsField: Field, typeField: Field): void {
  if (!reader.vocabulary.isA(type, 'shell-tool')) return;
  const path = `${paramsField.path}.tool_command`;
  if (!Object.prototype.hasOwnProperty.call(params, 'tool_command')) {
    const written = deref(paramsField.value);
    const entry = written?.kind === 'mapping' ? written.entries.get('tool_command') : undefined;
    reader.report(
      'warning',
      'card/missing-field',
      `\`type: ${type}\` runs a command, but \`${path}\` is missing; add \`tool_command:\` under \`params\` with the command the node runs.`,
      path,
      entry ? entry.keySpan : paramsField.entry ? paramsField.entry.keySpan : valueSpan(typeField),
    );
    return;
  }
  const command = params['tool_command'];
  if (typeof command === 'string' && command.trim() !== '') return;
  const written = deref(paramsField.value);
  const entry = written?.kind === 'mapping' ? written.entries.get('tool_command') : undefined;
  const at = entry ? nodeValueSpan(reader.text, entry.value, entry.keySpan) : valueSpan(paramsField);
  reader.report(
    'warning',
    'card/bad-type',
    typeof command === 'string'
      ? `\`${path}\` is blank, but \`type: ${type}\` runs it as a shell command; write the command.`
      : `\`${path}\` is ${describeJson(command)}, but \`type: ${type}\` needs the command as text; write the command as a string.`,
    path,
    at,
  );
}

// ---- params ----------------------------------------------------------------------------------

interface ParamsWalk {
  readonly reader: Reader;
  /** Collections being converted (a revisit is a cycle). */
  readonly open: Set<YamlValue>;
  /** Collections already converted, shared through aliases: their value, height and size, or failure. */
  readonly done: Map<YamlValue, Converted | 'failed'>;
  /** Values added by reusing converted collections (what a JSON rendering would repeat). */
  expanded: number;
}

interface Converted {
  readonly value: JsonValue;
  /** Nesting levels, the value itself included. */
  readonly height: number;
  /** Values in the expanded tree, the value itself included. */
  readonly size: number;
}

/** How many values aliases may add to `params` once expanded (a guard against alias bombs). */
const maximumExpandedParams = 1_000_000;

function readParams(reader: Reader, f: Field): { [key: string]: JsonValue } {
  const out: { [key: string]: JsonValue } = {};
  const value = f.value;
  if (!value) return out;
  if (value.kind !== 'mapping') {
    reader.report('error', 'card/bad-type', `\`${f.path}\` is ${describe(value)}, but it must be a mapping of names to values; write \`name: value\` lines under it.`, f.path, valueSpan(f));
    return out;
  }
  const walk: ParamsWalk = { reader, open: new Set([value]), done: new Map(), expanded: 0 };
  for (const [key, entry] of value.entries) {
    const converted = toJson(walk, entry.value, `${f.path}.${key}`, 1, entry.keySpan);
    if (converted !== undefined) setOwn(out, key, converted.value);
  }
  return out;
}

/**
 * The JSON value of a params node, or undefined (reported) when it has none (the JSON round
 * trip of docs/compatibility.md#params). Every offending leaf is reported; a failing child fails
 * its parent silently. A collection reached again through an alias is reused (so aliases never
 * expand), and one that fails is reported once, where it is first met.
 */
function toJson(walk: ParamsWalk, node: YamlNode, path: string, depth: number, fallback: Span): Converted | undefined {
  const reader = walk.reader;
  const at = nodeValueSpan(reader.text, node, fallback);
  const fail = (why: string): undefined => {
    reader.report('error', 'card/bad-type', `\`${path}\` cannot be stored as JSON: ${why}.`, path, at, {
      hint: '`params` is stored and hashed as JSON, so every value must survive a JSON round trip.',
    });
    return undefined;
  };
  if (depth > maximumParamsDepth) return fail(`it nests more than ${maximumParamsDepth} levels deep; flatten it`);
  const value = deref(node);
  if (!value) return undefined; // an alias to nothing, already a syntax error
  if (value.kind === 'scalar') {
    const v = value.value;
    if (typeof v === 'number' && !Number.isFinite(v)) {
      return fail(`\`${reader.text.slice(value.span.start, value.span.end)}\` is not a finite number; write a finite number, or quote it to keep it as text`);
    }
    return { value: v, height: 1, size: 1 };
  }
  if (walk.open.has(value)) {
    return fail(`the alias \`${reader.text.slice(at.start, at.end)}\` makes the value contain itself; write the value out without the cycle`);
  }
  const known = walk.done.get(value);
  if (known === 'failed') return undefined;
  if (known) {
    if (depth + known.height - 1 > maximumParamsDepth) return fail(`through this alias it nests more than ${maximumParamsDepth} levels deep; flatten it`);
    walk.expanded += known.size;
    if (walk.expanded > maximumExpandedParams) {
      walk.done.set(value, 'failed');
      return fail(`its aliases expand to more than ${maximumExpandedParams} values; write the values out or use fewer aliases`);
    }
    return known;
  }
  walk.open.add(value);
  let ok = true;
  let height = 0;
  let size = 1;
  let result: JsonValue;
  if (value.kind === 'sequence') {
    const items: JsonValue[] = [];
    value.items.forEach((item, i) => {
      const converted = toJson(walk, item, `${path}[${i}]`, depth + 1, value.span);
      if (converted === undefined) ok = false;
      else {
        items.push(converted.value);
        height = Math.max(height, converted.height);
        size += converted.size;
      }
    });
    result = items;
  } else {
    const record: { [key: string]: JsonValue } = {};
    for (const [key, entry] of value.entries) {
      const converted = toJson(walk, entry.value, `${path}.${key}`, depth + 1, entry.keySpan);
      if (converted === undefined) ok = false;
      else {
        setOwn(record, key, converted.value);
        height = Math.max(height, converted.height);
        size += converted.size;
      }
    }
    result = record;
  }
  walk.open.delete(value);
  if (!ok) {
    walk.done.set(value, 'failed');
    return undefined;
  }
  const converted: Converted = { value: result, height: height + 1, size };
  walk.done.set(value, converted);
  return converted;
}

/** Sets an own data property, even for `__proto__` (inert: never a prototype). */
function setOwn(record: { [key: string]: JsonValue }, key: string, value: JsonValue): void {
  if (key === '__proto__') Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
  else record[key] = value;
}

// ---- words -----------------------------------------------------------------------------------

function describe(value: YamlValue | undefined): string {
  if (!value) return 'empty';
  switch (value.kind) {
    case 'mapping':
      return 'a mapping';
    case 'sequence':
      return 'a list';
    case 'scalar':
      return describeJson(value.value);
    default:
      return assertNever(value);
  }
}

function describeJson(value: JsonValue | undefined): string {
  if (value === undefined || value === null) return 'empty';
  if (Array.isArray(value)) return 'a list';
  switch (typeof value) {
    case 'string':
      return 'a string';
    case 'number':
      return `a number (${String(value)})`;
    case 'boolean':
      return `a boolean (${String(value)})`;
    default:
      return 'a mapping';
  }
}

function kindLabel(kind: TermKind): string {
  switch (kind) {
    case 'phase':
      return 'phase';
    case 'node-type':
      return 'node type';
    case 'risk-marker':
      return 'risk marker';
    case 'data-type':
      return 'data type';
    case 'tool':
      return 'tool';
    default:
      return assertNever(kind);
  }
}

function termList(vocabulary: Vocabulary, kind: TermKind): string {
  const ids = vocabulary
    .terms(kind)
    .filter((t) => !t.abstract && !t.deprecated)
    .map((t) => `\`${t.id}\``);
  return ids.length > 12 ? `${ids.slice(0, 12).join(', ')}, …` : ids.join(', ');
}

/** A valid id close to what was written (lowercased, other characters turned into hyphens). */
function suggestId(raw: string): string | undefined {
  const candidate = raw
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9/]+/g, '-')
    .replace(/-*\/-*/g, '/')
    .replace(/^-+|-+$/g, '');
  return cardIdPattern.test(candidate) ? candidate : undefined;
}

/** A strict version close to what was written (`v1.2` -> `1.2.0`, `01.0.0` -> `1.0.0`). */
function suggestVersion(raw: string): string | undefined {
  const match = /^\s*[vV]?(\d+)(?:\.(\d+))?(?:\.(\d+))?\s*$/.exec(raw);
  if (!match) return undefined;
  const candidate = [match[1], match[2] ?? '0', match[3] ?? '0'].map((part) => String(Number(part))).join('.');
  return isStrictSemver(candidate) ? candidate : undefined;
}

/** The candidate nearest to `word` by edit distance when within a third of its length (at least 1). */
function nearest(word: string, candidates: readonly string[]): string | undefined {
  const limit = Math.max(1, Math.floor(word.length / 3));
  const lower = word.toLowerCase();
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const candidate of candidates) {
    if (candidate === word) continue;
    if (candidate.toLowerCase() === lower) return candidate;
    if (Math.abs(candidate.length - word.length) > limit) continue;
    const distance = editDistance(lower, candidate.toLowerCase(), bestDistance);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

function firstNonBlankLine(text: string): Span {
  const start = text.search(/\S/);
  return start < 0 ? span(0, 0) : firstLineSpan(text, span(start, text.length));
}

function assertNever(value: never): never {
  throw new Error(`unexpected value ${JSON.stringify(value)}`);
}
