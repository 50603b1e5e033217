/**
 * The Attractor lint (E§9, SPEC §2.2): what in a readable topology Attractor would read
 * differently or refuse. Every `attractor/*` finding is a warning (except the [beyond]
 * `attractor/ignored-attribute`, an info); each code is listed at most 20 times, then once more
 * as a summary with no range.
 *
 * Two sources: the parsed graph (ids, effective attributes, edges) for what the parser settled,
 * and the token stream for what it threw away (quotes, separators, `#`, `+`, HTML-like values).
 * `attractor/undirected-graph` is never emitted: an undirected graph stops resolution earlier.
 */
import type { Diagnostic, DiagnosticCode, DiagnosticLocation } from '../diagnostics';
import { diagnosticInfo, sortDiagnostics } from '../diagnostics';
import type { Span } from '../text';
import {
  isAttractorDuration,
  isAttractorIdentifier,
  isAttractorKeyword,
  isBoundaryNodeId,
  isReservedAttribute,
  suggestNodeId,
} from '../compile/attractor-table';
import { DotTokenCode as Code, type DotAttribute, type DotGraph, type DotParseResult, type DotTokenTable } from '../syntax/dot-model';
import { tokenFlag, tokenSpan, tokenText, tokenValue } from '../syntax/dot-lexer';
import { checkCondition } from './condition';

/** How many times one code is listed before the rest are folded into one summary (E§9). */
export const maxFindingsPerCode = 20;

/**
 * Node attributes Attractor reserves that a topology may still set on purpose: `label` and
 * `shape` also draw the topology itself when it is rendered with Graphviz, so setting them
 * (`node [shape=box]` is in nearly every bundle) is not a mistake even though the exporter takes
 * both from the card. Every other reserved node attribute set in the topology only matters to
 * an Attractor runner, and the exporter never copies it, so it is reported as ignored.
 */
const drawingAttributes: ReadonlySet<string> = new Set(['label', 'shape']);

export function lintAttractor(parse: DotParseResult, text: string, file = 'topology.dot'): Diagnostic[] {
  const graph = parse.graph;
  if (graph === undefined) return [];
  const report = createReporter(file);

  checkHeader(graph, parse, report);
  checkNodeIds(graph, report);
  checkNodeAttributes(graph, report);
  checkEdges(graph, report);
  scanTokens(graph, parse.table, text, report);

  return sortDiagnostics(report.finish());
}

// ---------------------------------------------------------------------- reporting

interface Reporter {
  /** A finding; its message may be given as a function, called only for the findings that are listed. */
  add(code: DiagnosticCode, message: string | (() => string), span: Span, extra?: Omit<DiagnosticLocation, 'file' | 'span'>): void;
  finish(): Diagnostic[];
}

function createReporter(file: string): Reporter {
  const found: Diagnostic[] = [];
  const counts = new Map<DiagnosticCode, number>();
  return {
    add(code, message, span, extra) {
      const seen = (counts.get(code) ?? 0) + 1;
      counts.set(code, seen);
      if (seen > maxFindingsPerCode) return;
      found.push({ code, severity: diagnosticInfo(code).severity, message: typeof message === 'string' ? message : message(), location: { file, span, ...extra } });
    },
    finish() {
      for (const [code, seen] of counts) {
        if (seen <= maxFindingsPerCode) continue;
        found.push({
          code,
          severity: diagnosticInfo(code).severity,
          message: `This problem occurs ${seen} times; only the first ${maxFindingsPerCode} are listed. Fix those and the rest will show.`,
          location: { file },
        });
      }
      return found;
    },
  };
}

// ---------------------------------------------------------------------- graph-level checks

function checkHeader(graph: DotGraph, parse: DotParseResult, report: Reporter): void {
  if (graph.strict && graph.strictSpan !== undefined) {
    report.add('attractor/strict-graph', 'The graph is declared `strict`, which Attractor does not accept; remove `strict`.', graph.strictSpan);
  }
  if (parse.trailing !== undefined) {
    report.add(
      'attractor/multiple-graphs',
      'The file goes on after its graph closes, and Attractor reads exactly one graph per file; move anything after the closing `}` to its own file, or delete it.',
      parse.trailing,
    );
  }
}

function checkNodeIds(graph: DotGraph, report: Reporter): void {
  // (the ids are gathered only when a listed finding suggests a new name)
  let ids: ReadonlySet<string> | undefined;
  const taken = (candidate: string): boolean => (ids ??= new Set(graph.nodes.map((n) => n.id))).has(candidate);
  for (const node of graph.nodes) {
    // A hyphenated or keyword id already has a dot/parse-error that names it and says how to rename it.
    if (node.idError !== undefined) continue;
    const id = node.id;
    if (isBoundaryNodeId(id)) {
      const role = id === 'start' || id === 'Start' ? 'entry' : 'exit';
      report.add(
        'attractor/boundary-node-id',
        () => `Attractor treats a node named \`${id}\` as the pipeline's ${role}, so the exporter renames this node to \`n_${id}\` and the compiled file no longer matches the topology; rename it, e.g. to \`${suggestNodeId(id, taken)}\`.`,
        node.span,
        { nodeId: id },
      );
      continue;
    }
    if (isAttractorKeyword(id)) {
      report.add(
        'attractor/bad-node-id',
        () => `Node id \`${id}\` is a DOT keyword, so Attractor reads a statement starting with it as something other than a node; rename it, e.g. to \`${suggestNodeId(id, taken)}\`.`,
        node.span,
        { nodeId: id },
      );
      continue;
    }
    if (!isAttractorIdentifier(id)) {
      report.add(
        'attractor/bad-node-id',
        () => `Node id \`${id}\` is not an Attractor identifier (letters, digits and \`_\`, not starting with a digit); rename it, e.g. to \`${suggestNodeId(id, taken)}\`, and keep the readable name in the card.`,
        node.span,
        { nodeId: id },
      );
    }
  }
}

function checkNodeAttributes(graph: DotGraph, report: Reporter): void {
  const reportedKeys = new Set<number>();
  let node = graph.nodes[0];
  // (one callback for every node, and `forEach`, which walks an attribute view without copying it)
  const check = (attr: DotAttribute): void => {
    if (attr.key === 'type' || drawingAttributes.has(attr.key) || !isReservedAttribute('node', attr.key)) return;
    // A default (`node [timeout=…]`) reaches many nodes but is written once: report it once.
    if (reportedKeys.has(attr.keySpan.start)) return;
    reportedKeys.add(attr.keySpan.start);
    const id = node.id;
    report.add(
      'attractor/ignored-attribute',
      () => `\`${attr.key}\` on ${attr.fromDefault ? 'the node defaults' : `node \`${id}\``} does nothing: the exporter writes Attractor attributes from the card, never from the topology; set it on the card, or by hand in the compiled file.`,
      attr.keySpan,
      { nodeId: id },
    );
  };
  for (let n = 0; n < graph.nodes.length; n++) {
    node = graph.nodes[n];
    const type = node.attrs.get('type');
    if (type !== undefined) {
      const id = node.id;
      report.add(
        'attractor/reserved-attribute',
        () => `Node \`${id}\` sets \`type\`, which Attractor reads as a handler override, while a node's type belongs in its card; remove \`type\` from the topology.`,
        type.keySpan,
        { nodeId: id },
      );
    }
    node.attrs.forEach(check);
  }
}

function checkEdges(graph: DotGraph, report: Reporter): void {
  // Per source id: how many edges leave it, and how many of those carry neither guard (their
  // targets are gathered only once a fork is listed).
  const arms = new Map<string, { total: number; open: number }>();
  const edges = graph.edges;
  let openTargets: Map<string, Set<string>> | undefined;
  const targetsOf = (id: string): readonly string[] => {
    if (openTargets === undefined) {
      openTargets = new Map();
      for (const edge of edges) {
        if (isSet(edge.attrs.get('condition')) || isSet(edge.attrs.get('weight'))) continue;
        let targets = openTargets.get(edge.source);
        if (targets === undefined) openTargets.set(edge.source, (targets = new Set()));
        targets.add(edge.target);
      }
    }
    return [...(openTargets.get(id) ?? [])];
  };
  // A pipeline repeats a few conditions (`outcome=success`) on many edges: each is parsed once.
  const problemsOf = new Map<string, ReturnType<typeof checkCondition>>();
  for (let e = 0; e < edges.length; e++) {
    const edge = edges[e];
    const condition = edge.attrs.get('condition');
    if (condition !== undefined) {
      let problems = problemsOf.get(condition.value);
      if (problems === undefined) problemsOf.set(condition.value, (problems = checkCondition(condition.value)));
      for (const problem of problems) {
        report.add(
          'attractor/condition-syntax',
          () => `The condition on edge \`${edge.source} -> ${edge.target}\` does not parse: ${problem.message}`,
          condition.valueSpan,
          { edge: { source: edge.source, target: edge.target } },
        );
      }
    }
    let counts = arms.get(edge.source);
    if (counts === undefined) arms.set(edge.source, (counts = { total: 0, open: 0 }));
    counts.total++;
    if (!isSet(condition) && !isSet(edge.attrs.get('weight'))) counts.open++;
  }
  for (const node of graph.nodes) {
    const id = node.id;
    const counts = arms.get(id);
    if (counts === undefined || counts.total < 2 || counts.open === 0) continue;
    const total = counts.total;
    const unguarded = counts.open;
    const message = (): string => {
      const names = targetsOf(id).map((target) => `\`${target}\``).join(', ');
      return `Node \`${id}\` has ${total} outgoing edges and the one${unguarded > 1 ? 's' : ''} to ${names} carr${unguarded > 1 ? 'y' : 'ies'} neither \`condition\` nor \`weight\`, so an Attractor runner may choose between arms by how the target ids sort; give every arm a \`condition\` (or a \`weight\`).`;
    };
    report.add('attractor/unguarded-fork', message, node.span, { nodeId: id });
  }
}

/** A `condition`/`weight` that is present and not blank; a runner reads a blank one as absent. */
function isSet(attr: DotAttribute | undefined): boolean {
  return attr !== undefined && attr.value.trim().length > 0;
}

// ---------------------------------------------------------------------- token checks

function scanTokens(graph: DotGraph, table: DotTokenTable, text: string, report: Reporter): void {
  const count = table.count;
  // `#` comments and HTML-like values first, in source order (they are counted before the rest).
  let comment = 0;
  const hashComment = (before: number): void => {
    for (; comment < table.comments.length && table.comments[comment].span.start < before; comment++) {
      const t = table.comments[comment];
      if (t.kind === 'hash-comment') report.add('attractor/hash-comment', 'Attractor does not read `#` comments; write `//` instead of `#`.', t.span);
    }
  };
  for (let i = 0; i < count; i++) {
    if (table.kinds[i] !== Code.Html) continue;
    hashComment(table.starts[i]);
    if (tokenFlag(table, i) !== 'unterminated') {
      report.add('attractor/unsupported-value', 'Attractor has no HTML-like `<…>` values; write the value as a quoted string.', tokenSpan(table, i));
    }
  }
  hashComment(Number.POSITIVE_INFINITY);

  let ids: ReadonlySet<string> | undefined;
  const isNodeId = (value: string): boolean => (ids ??= new Set(graph.nodes.map((n) => n.id))).has(value);
  for (let i = 0; i < count; i++) {
    switch (table.kinds[i]) {
      case Code.LBracket:
        i = scanAttributeList(table, i, text, report) - 1;
        break;
      case Code.Plus:
        report.add('attractor/unsupported-value', 'Attractor cannot join strings with `+`; write the value as one quoted string.', tokenSpan(table, i));
        break;
      case Code.Number:
        if (kindOf(table, i - 1) === Code.Equals) checkNumberValue(table, i, report);
        break;
      case Code.String: {
        // (most strings are attribute values, which the position rules out before the value is read)
        if (!isNodePosition(table, i)) break;
        const value = tokenValue(table, i);
        if (isNodeId(value)) {
          const written = tokenText(table, i);
          const bare = isAttractorIdentifier(value) && !isAttractorKeyword(value);
          report.add(
            'attractor/quoted-node-id',
            () => bare
              ? `Node id \`${written}\` is quoted, and Attractor only reads bare node ids; write \`${value}\` without the quotes.`
              : `Node id \`${written}\` is quoted, and Attractor only reads bare node ids; rename the node to an identifier such as \`${suggestNodeId(value, isNodeId)}\` and write it without quotes.`,
            tokenSpan(table, i),
            { nodeId: value },
          );
        }
        break;
      }
      default:
        break;
    }
  }
}

/**
 * E§9's node position for a quoted token: not beside `=`, not the name after
 * `digraph`/`graph`/`subgraph`, and either next to an edge operator, or opening a statement
 * (after nothing, `{`, `}`, `;` or `]`) and followed by `[`, `;` or `}`.
 */
function isNodePosition(table: DotTokenTable, i: number): boolean {
  const previous = kindOf(table, i - 1);
  const next = kindOf(table, i + 1);
  if (previous === Code.Equals || next === Code.Equals) return false;
  if (previous === Code.Keyword) {
    const word = tokenText(table, i - 1).toLowerCase();
    if (word === 'digraph' || word === 'graph' || word === 'subgraph') return false;
  }
  if (previous === Code.Arrow || previous === Code.Line || next === Code.Arrow || next === Code.Line) return true;
  const opensStatement = previous === undefined || previous === Code.LBrace || previous === Code.RBrace || previous === Code.Semicolon || previous === Code.RBracket;
  return opensStatement && (next === Code.LBracket || next === Code.Semicolon || next === Code.RBrace);
}

/** Walks one `[ … ]` list from its `[` (E§9 attr-separator and value forms); returns the index after it. */
function scanAttributeList(table: DotTokenTable, open: number, text: string, report: Reporter): number {
  const { starts, ends, count } = table;
  let i = open + 1;
  for (;;) {
    if (i >= count) return i;
    const keyKind = table.kinds[i];
    if (keyKind === Code.RBracket) return i + 1;
    if (!isIdLike(keyKind) || kindOf(table, i + 1) !== Code.Equals) return skipToClose(table, i);
    i += 2;
    if (i >= count || !isIdLike(table.kinds[i])) return skipToClose(table, i);
    const value = i;
    const valueKind = table.kinds[value];
    i++;
    if (valueKind === Code.String) {
      while (kindOf(table, i) === Code.Plus) {
        report.add('attractor/unsupported-value', 'Attractor cannot join strings with `+`; write the value as one quoted string.', tokenSpan(table, i));
        i++;
        if (kindOf(table, i) === Code.String) i++;
      }
    } else if (valueKind === Code.Number) {
      checkNumberValue(table, value, report);
    }
    // `1.0.0` unquoted: the parser reads the glued tokens as one value (and reports it).
    if (isGlued(valueKind)) {
      while (i < count && starts[i] === ends[i - 1] && isGlued(table.kinds[i])) i++;
    }
    if (i >= count) return i;
    const separator = table.kinds[i];
    if (separator === Code.Comma) {
      i++;
      continue;
    }
    if (separator === Code.RBracket) return i + 1;
    if (separator === Code.Semicolon) {
      report.add('attractor/attr-separator', 'Attractor needs commas between attributes, and this is a `;`; write `,` instead.', tokenSpan(table, i));
      i++;
      continue;
    }
    // A bare next key: the range is the gap where the comma belongs (the key itself when there is no gap).
    const gap = { start: ends[i - 1], end: starts[i] };
    const spaced = gap.end > gap.start && text.slice(gap.start, gap.end).trim().length === 0;
    report.add(
      'attractor/attr-separator',
      spaced
        ? 'Attractor needs commas between attributes, and these two are separated by a space; add `,` after the first.'
        : 'Attractor needs commas between attributes; add `,` before the next one.',
      spaced ? gap : tokenSpan(table, i),
    );
  }
}

function skipToClose(table: DotTokenTable, from: number): number {
  let i = from;
  while (i < table.count) {
    const kind = table.kinds[i];
    i++;
    if (kind === Code.RBracket) return i;
    if (kind === Code.RBrace || kind === Code.LBrace) return i - 1;
  }
  return i;
}

/** `900s` is a duration; `5min`, `30x`, `1.5h` are not values Attractor reads (SPEC §2.1). */
function checkNumberValue(table: DotTokenTable, index: number, report: Reporter): void {
  const text = tokenText(table, index);
  let letters = -1;
  for (let k = 0; k < text.length; k++) {
    const c = text.charCodeAt(k);
    if (c !== 45 && c !== 46 && (c < 48 || c > 57)) {
      letters = k;
      break;
    }
  }
  if (letters < 0 || isAttractorDuration(text)) return;
  report.add(
    'attractor/unsupported-value',
    `\`${text}\` is not a value Attractor reads: a duration is a whole number followed by \`ms\`, \`s\`, \`m\`, \`h\` or \`d\` (e.g. \`900s\`); write it that way, or quote it if it is text.`,
    tokenSpan(table, index),
  );
}

/** The kind code of token `i`, undefined outside the table. */
function kindOf(table: DotTokenTable, i: number): Code | undefined {
  return i >= 0 && i < table.count ? table.kinds[i] : undefined;
}

function isIdLike(kind: Code): boolean {
  return kind === Code.Id || kind === Code.Number || kind === Code.String || kind === Code.Html || kind === Code.Keyword;
}

function isGlued(kind: Code): boolean {
  return kind === Code.Id || kind === Code.Number || kind === Code.Keyword || kind === Code.Unknown;
}

