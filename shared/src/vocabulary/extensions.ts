/**
 * Local terms: reading `ontology/extensions.yaml` (docs/compatibility.md#local-terms) and the
 * vocabulary's own diagnostics (`ontology/*` and `bundle/ontology-mismatch`), located on that file.
 *
 * The reader never throws. YAML syntax errors and ill-shaped entries are `card/parse-error`
 * on the exact node at fault; an entry with a problem is left out and the others are kept.
 */
import { isAlias, isMap, isScalar, isSeq, parseDocument, type Document, type Node, type YAMLMap } from 'yaml';
import { configuredWeight, defaultAnalysisConfig, type AnalysisConfig } from './analysis-config';
import { sortDiagnostics, type Diagnostic, type DiagnosticCode, type DiagnosticLocation } from '../diagnostics';
import type { Span } from '../text';
import { yamlDepthProblem, yamlSource } from '../syntax/yaml';
import { coreTermIds, phaseOrder } from './core';
import { termKinds, type LocalOrigin, type Term, type TermKind, type Vocabulary } from './types';

/** Where a bundle keeps its local vocabulary. */
export const extensionsPath = 'ontology/extensions.yaml';

export interface ExtensionsRead {
  readonly terms: Term[];
  readonly diagnostics: Diagnostic[];
}

/**
 * Reads the `terms:` list of an extensions file. An empty document, or no `terms`, adds nothing.
 * When the YAML does not parse, no term is read (as DarkPrint).
 */
export function readExtensions(file: { readonly path: string; readonly text: string }): ExtensionsRead {
  const diagnostics: Diagnostic[] = [];
  const report = (severity: 'error' | 'warning', span: Span, message: string): void => {
    diagnostics.push({ code: 'card/parse-error', severity, message, location: { file: file.path, span } });
  };
  // Refused unread when it nests absurdly deep (the `yaml` package would exhaust the heap or the stack).
  const tooDeep = yamlDepthProblem(file.text);
  if (tooDeep) {
    report('error', tooDeep.span, tooDeep.message);
    return { terms: [], diagnostics };
  }
  let document: Document;
  try {
    document = parseDocument(yamlSource(file.text), { prettyErrors: false });
  } catch {
    report('error', problemSpan([0, 0], file.text), `${file.path} cannot be read: it nests too deeply. Simplify its structure.`);
    return { terms: [], diagnostics };
  }
  for (const problem of document.errors) report('error', problemSpan(problem.pos, file.text), syntaxMessage(file.path, problem.code, problem.message));
  for (const problem of document.warnings) report('warning', problemSpan(problem.pos, file.text), warningMessage(file.path, problem.message));
  if (document.errors.length > 0) return { terms: [], diagnostics };

  const root = deref(document, document.contents);
  if (root === undefined || isNull(root)) return { terms: [], diagnostics };
  if (!isMap(root)) {
    report('error', nodeSpan(root, file.text), `${file.path} holds ${describe(root, file.text)} at the top level, not a mapping; write \`terms:\` followed by a list of terms.`);
    return { terms: [], diagnostics };
  }
  const list = deref(document, field(root, 'terms')?.value);
  if (list === undefined || isNull(list)) return { terms: [], diagnostics };
  if (!isSeq(list)) {
    report('error', nodeSpan(list, file.text), `\`terms\` in ${file.path} is ${describe(list, file.text)}, not a list; write each term as a \`- id: …\` item under it.`);
    return { terms: [], diagnostics };
  }

  const terms: Term[] = [];
  list.items.forEach((item, index) => {
    const entry = deref(document, item);
    const where = `item ${index + 1} of \`terms\``;
    if (entry === undefined || !isMap(entry)) {
      const written = isAlias(item) || isScalar(item) || isMap(item) || isSeq(item) ? item : list;
      const what = entry ? describe(entry, file.text) : isAlias(item) ? `an alias to the unknown anchor ${quote(item.source)}` : 'empty';
      report('error', itemSpan(written, file.text), `${capitalise(where)} is ${what}, not a mapping; give it the keys ${listWords(requiredKeys.map(quote))}.`);
      return;
    }
    const term = readEntry(document, entry, { file, where, report });
    if (term) terms.push(term);
  });
  return { terms, diagnostics };
}

/**
 * The vocabulary's own problems (docs/compatibility.md#vocabulary-checks): dangling and cyclic
 * pointers, a local phase, an unrooted local term, an unweighted or badly weighted local marker, a
 * local term reusing a core id. Each is located on the local term's declaration when there is one
 * (id, `kind`, `broader` or `defaultWeight` value). Sorted as findings are
 * (docs/compatibility.md#order-of-findings). A local marker's weight is the configured one
 * (`config.securityWeights`), else its `defaultWeight`.
 */
export function validateVocabulary(
  vocabulary: Vocabulary,
  shadowed: readonly Term[],
  locals: readonly Term[],
  config: Pick<AnalysisConfig, 'securityWeights' | 'unknownMarkerWeight'> = defaultAnalysisConfig,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  const push = (code: DiagnosticCode, severity: 'error' | 'warning', location: DiagnosticLocation, message: string): void => {
    out.push({ code, severity, message, location });
  };
  const all = vocabulary.terms();

  for (const term of all) {
    if (term.broader !== undefined && !vocabulary.get(term.broader)) {
      push('ontology/dangling-pointer', 'error', locate(term, 'broader'),
        `Term ${quote(term.id)} names ${quote(term.broader)} as \`broader\`, but no term has that id; declare ${quote(term.broader)} or point \`broader\` at an existing term.`);
    }
    const replacement = term.deprecated?.replacedBy;
    if (replacement !== undefined && !vocabulary.get(replacement)) {
      push('ontology/dangling-pointer', 'error', locate(term, 'id'),
        `Term ${quote(term.id)} is deprecated in favour of ${quote(replacement)}, but no term has that id; declare ${quote(replacement)} or drop the replacement.`);
    }
  }

  const settled = new Set<string>();
  for (const start of all) {
    if (settled.has(start.id)) continue;
    const path: Term[] = [];
    const position = new Map<string, number>();
    let cursor: Term | undefined = start;
    while (cursor && !settled.has(cursor.id)) {
      const seenAt = position.get(cursor.id);
      if (seenAt !== undefined) {
        const cycle = rotateToSmallest(path.slice(seenAt));
        const anchor = cycle.find((t) => t.local !== undefined) ?? cycle[0];
        const ids = cycle.map((t) => t.id);
        push('ontology/cyclic-broader', 'error', locate(anchor, 'broader'),
          `The \`broader\` pointers of ${listWords(ids.map(quote))} form a loop (${[...ids, ids[0]].map(quote).join(' → ')}), so none of them reaches a root; point one of them at a term outside the loop.`);
        break;
      }
      position.set(cursor.id, path.length);
      path.push(cursor);
      cursor = cursor.broader === undefined ? undefined : vocabulary.get(cursor.broader);
    }
    for (const term of path) settled.add(term.id);
  }

  const rooted = rootedness(vocabulary);
  const judged = new Set<string>();
  for (const written of locals) {
    if (judged.has(written.id)) continue;
    judged.add(written.id);
    const term = vocabulary.get(written.id) ?? written;
    if (term.kind === 'phase') {
      push('ontology/phase-not-extensible', 'error', locate(term, 'kind'),
        `Local term ${quote(term.id)} has kind \`phase\`, but the five phases are closed; use one of ${listWords(phaseOrder.map(quote), 'or')}, or declare a \`node-type\` or \`risk-marker\` instead.`);
      continue;
    }
    if (!rooted(term.id)) {
      const chain = broaderChain(term, vocabulary);
      push('ontology/local-term-unrooted', 'error', locate(term, 'id'),
        term.broader === undefined
          ? `Local term ${quote(term.id)} has no \`broader\`, so no core term covers it and every analysis treats it as unrelated; set \`broader\` to the core term it narrows.`
          : `Local term ${quote(term.id)} never reaches a core term (its \`broader\` chain runs ${chain.map(quote).join(' → ')}), so every analysis treats it as unrelated; point the chain at the core term it narrows.`);
    }
    if (term.kind === 'risk-marker') {
      const fromConfig = configuredWeight(config, term.id);
      const weight = fromConfig ?? term.defaultWeight;
      if (weight === undefined) {
        push('ontology/local-marker-unweighted', 'warning', locate(term, 'id'),
          `Local risk marker ${quote(term.id)} has no weight, so it costs ${config.unknownMarkerWeight} and never moves the security score; set its \`defaultWeight\` (for example 0.5).`);
      } else if (!Number.isFinite(weight) || weight < 0) {
        push('ontology/local-marker-bad-weight', 'warning', fromConfig === undefined ? locate(term, 'defaultWeight') : locate(term, 'id'),
          `Local risk marker ${quote(term.id)} weighs ${weight}, which is not a cost, so it counts ${config.unknownMarkerWeight}; give it a finite weight of 0 or more.`);
      }
    }
  }

  for (const term of shadowed) {
    push('bundle/ontology-mismatch', 'warning', locate(term, 'id'),
      `Local term ${quote(term.id)} reuses the id of a core term and replaces it in this bundle; give it a namespaced id such as ${quote(`my-namespace/${term.id}`)}.`);
  }
  return sortDiagnostics(out);
}

// ---- reading one entry ------------------------------------------------------------------

const requiredKeys = ['id', 'kind', 'label', 'description', 'since'] as const;

interface EntryContext {
  readonly file: { readonly path: string; readonly text: string };
  /** `item 3 of \`terms\``: how to name the entry before its id is known. */
  readonly where: string;
  readonly report: (severity: 'error' | 'warning', span: Span, message: string) => void;
}

function readEntry(document: Document, entry: YAMLMap, context: EntryContext): Term | undefined {
  const { file, report } = context;
  let ok = true;
  const value = (key: string): Node | undefined => {
    const node = deref(document, field(entry, key)?.value);
    return node === undefined || isNull(node) ? undefined : node;
  };
  const missing = requiredKeys.filter((key) => value(key) === undefined);

  // The id first, so every later message can name the term.
  const idNode = value('id');
  const id = idNode ? textOf(idNode) : undefined;
  const name = id !== undefined && id.trim() !== '' ? `term ${quote(id)}` : context.where;
  const text = (key: string): string | undefined => {
    const node = value(key);
    if (node === undefined) return undefined;
    const read = textOf(node);
    if (read === undefined) {
      report('error', nodeSpan(node, file.text), `\`${key}\` of ${name} is ${describe(node, file.text)}, not text; write it as a string.`);
      ok = false;
      return undefined;
    }
    if (read.trim() === '') {
      report('error', nodeSpan(node, file.text), `\`${key}\` of ${name} is blank; write ${key === 'id' ? 'an id such as `my-namespace/my-term`' : 'some text'}.`);
      ok = false;
      return undefined;
    }
    return read;
  };

  const termId = text('id');
  const kindText = text('kind');
  let kind: TermKind | undefined;
  if (kindText !== undefined) {
    kind = termKinds.find((k) => k === kindText);
    if (kind === undefined) {
      report('error', nodeSpan(value('kind') ?? entry, file.text),
        `\`kind\` of ${name} is ${quote(kindText)}, which is not a kind of term; use one of ${listWords(termKinds.map(quote), 'or')}.`);
      ok = false;
    }
  }
  const label = text('label');
  const description = text('description');
  const since = text('since');
  const broader = text('broader');

  let defaultWeight: number | undefined;
  const weightNode = value('defaultWeight');
  if (weightNode) {
    const raw = isScalar(weightNode) ? weightNode.value : undefined;
    if (typeof raw === 'number' && Number.isFinite(raw)) {
      defaultWeight = raw;
    } else {
      report('error', nodeSpan(weightNode, file.text), `\`defaultWeight\` of ${name} is ${describe(weightNode, file.text)}, not a finite number; write a number such as 0.5.`);
      ok = false;
    }
  }
  let impliesHuman: boolean | undefined;
  const humanNode = value('impliesHuman');
  if (humanNode) {
    const raw = isScalar(humanNode) ? humanNode.value : undefined;
    if (typeof raw === 'boolean') {
      impliesHuman = raw;
    } else {
      report('error', nodeSpan(humanNode, file.text), `\`impliesHuman\` of ${name} is ${describe(humanNode, file.text)}, not true or false; write \`true\` or \`false\`.`);
      ok = false;
    }
  }

  if (missing.length > 0) {
    report('error', nodeSpan(entry, file.text),
      `${capitalise(name)} has no ${listWords(missing.map(quote), 'or')}; add ${missing.length === 1 ? 'it' : 'them'} (a local term needs ${listWords(requiredKeys.map(quote))}).`);
    ok = false;
  }
  if (!ok || termId === undefined || kind === undefined || label === undefined || description === undefined || since === undefined || !idNode) {
    return undefined;
  }
  const local: LocalOrigin = {
    file: file.path,
    span: nodeSpan(idNode, file.text),
    since,
    entrySpan: nodeSpan(entry, file.text),
    kindSpan: nodeSpan(value('kind') ?? idNode, file.text),
    ...(broader !== undefined ? { broaderSpan: nodeSpan(value('broader') ?? idNode, file.text) } : {}),
    ...(weightNode ? { defaultWeightSpan: nodeSpan(weightNode, file.text) } : {}),
  };
  return {
    id: termId,
    kind,
    label,
    meaning: description,
    ...(broader !== undefined ? { broader } : {}),
    ...(defaultWeight !== undefined ? { defaultWeight } : {}),
    ...(impliesHuman !== undefined ? { impliesHuman } : {}),
    local,
  };
}

// ---- YAML helpers -------------------------------------------------------------------------

/** The pair of `map` whose key reads as `key` (first match; YAML already reports duplicates). */
function field(map: YAMLMap, key: string): { value: unknown } | undefined {
  for (const pair of map.items) {
    const k: unknown = pair.key;
    if (isScalar(k) && String(k.value) === key) return { value: pair.value };
  }
  return undefined;
}

/** Follows an alias to the node it names; undefined for anything that is not a node. */
function deref(document: Document, value: unknown): Node | undefined {
  if (isAlias(value)) {
    const target: unknown = value.resolve(document);
    return isScalar(target) || isMap(target) || isSeq(target) ? target : undefined;
  }
  return isScalar(value) || isMap(value) || isSeq(value) ? value : undefined;
}

function isNull(node: Node): boolean {
  return isScalar(node) && (node.value === null || node.value === undefined);
}

/** A scalar read as text: strings as written, numbers through `String` (docs/compatibility.md#local-terms); anything else undefined. */
function textOf(node: Node): string | undefined {
  if (!isScalar(node)) return undefined;
  if (typeof node.value === 'string') return node.value;
  if (typeof node.value === 'number') return String(node.value);
  return undefined;
}

/** What a node is, in words, quoting a scalar as it is written in the file. */
function describe(node: Node, text: string): string {
  if (isMap(node)) return 'a mapping';
  if (isSeq(node)) return 'a list';
  if (isScalar(node)) {
    const v = node.value;
    const span = nodeSpan(node, text);
    const written = shorten(text.slice(span.start, span.end)) || String(v);
    if (v === null || v === undefined) return 'empty';
    if (typeof v === 'string') return v.trim() === '' ? 'blank text' : `the text ${quote(shorten(v))}`;
    if (typeof v === 'number' || typeof v === 'bigint') return `the number ${quote(written)}`;
    if (typeof v === 'boolean') return quote(written);
    return quote(written);
  }
  return 'a value of another kind';
}

/** The node's own text, without the line break and indentation a block collection ends with. */
function nodeSpan(node: Node, text: string): Span {
  const range = node.range;
  if (!range) return { start: 0, end: 0 };
  const span = clamp(range[0], range[1], text);
  let end = span.end;
  while (end > span.start && /\s/.test(text.charAt(end - 1))) end--;
  return { start: span.start, end };
}

/**
 * A list item's span; an empty item (`- ` with nothing after it) has a zero-width node, so its
 * `-` indicator stands for it.
 */
function itemSpan(node: Node, text: string): Span {
  const span = nodeSpan(node, text);
  if (span.end > span.start) return span;
  let i = span.start - 1;
  while (i >= 0 && (text[i] === ' ' || text[i] === '\t')) i--;
  if (i >= 0 && text[i] === '-') return { start: i, end: i + 1 };
  return problemSpan([span.start, span.end], text);
}

function problemSpan(pos: readonly [number, number], text: string): Span {
  const start = pos[0];
  // a zero-width problem inside the text is shown on the character it points at
  const end = pos[1] > start ? pos[1] : start < text.length ? start + 1 : start;
  return clamp(start, end, text);
}

function clamp(start: number, end: number, text: string): Span {
  const s = Math.max(0, Math.min(start, text.length));
  return { start: s, end: Math.max(s, Math.min(end, text.length)) };
}

function syntaxMessage(path: string, problem: string, detail: string): string {
  if (problem === 'MULTIPLE_DOCS') {
    return `${path} holds more than one YAML document; keep a single document with one \`terms\` list.`;
  }
  return `${path} is not valid YAML here (${readerSaid(detail)}), so none of its terms is read; correct the syntax.`;
}

function warningMessage(path: string, detail: string): string {
  return `${path} uses YAML here that the reader only half understands (${readerSaid(detail)}); write it as plain YAML.`;
}

/** The YAML reader's own explanation, on one line and without its closing punctuation. */
function readerSaid(detail: string): string {
  return detail.replace(/\s+/g, ' ').trim().replace(/[.:]$/, '');
}

// ---- validation helpers --------------------------------------------------------------------

function locate(term: Term, part: 'id' | 'kind' | 'broader' | 'defaultWeight'): DiagnosticLocation {
  const origin = term.local;
  if (!origin) return {};
  const span =
    part === 'kind' ? origin.kindSpan
      : part === 'broader' ? origin.broaderSpan
        : part === 'defaultWeight' ? origin.defaultWeightSpan
          : origin.span;
  return { file: origin.file, span: span ?? origin.span };
}

/** `rooted(id)`: walking `broader` from the term itself meets a core id (memoised per walk). */
function rootedness(vocabulary: Vocabulary): (id: string) => boolean {
  const memo = new Map<string, boolean>();
  return (id) => {
    const walked: string[] = [];
    const onPath = new Set<string>();
    let answer = false;
    let cursor = vocabulary.get(id);
    while (cursor && !onPath.has(cursor.id)) {
      const known = memo.get(cursor.id);
      if (known !== undefined) {
        answer = known;
        break;
      }
      if (coreTermIds.has(cursor.id)) {
        answer = true;
        break;
      }
      onPath.add(cursor.id);
      walked.push(cursor.id);
      cursor = cursor.broader === undefined ? undefined : vocabulary.get(cursor.broader);
    }
    for (const w of walked) memo.set(w, answer);
    return answer;
  };
}

/** The ids a `broader` walk visits, plus where it stops: an id no term has, or the id that closes a loop. */
function broaderChain(term: Term, vocabulary: Vocabulary): string[] {
  const chain = vocabulary.ancestors(term.id).map((t) => t.id);
  const last = vocabulary.ancestors(term.id).at(-1);
  if (chain.length === 0) return [term.id];
  return last?.broader !== undefined ? [...chain, last.broader] : chain;
}

function rotateToSmallest(cycle: readonly Term[]): Term[] {
  let pivot = 0;
  for (let i = 1; i < cycle.length; i++) if (cycle[i].id < cycle[pivot].id) pivot = i;
  return [...cycle.slice(pivot), ...cycle.slice(0, pivot)];
}

// ---- words -----------------------------------------------------------------------------------

function quote(value: string): string {
  return `\`${value}\``;
}

function shorten(value: string): string {
  const flat = value.replace(/\s+/g, ' ');
  return flat.length > 40 ? `${flat.slice(0, 40)}…` : flat;
}

function capitalise(value: string): string {
  return value.charAt(0).toUpperCase() + value.slice(1);
}

function listWords(items: readonly string[], conjunction: 'and' | 'or' = 'and'): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} ${conjunction} ${items[items.length - 1]}`;
}
