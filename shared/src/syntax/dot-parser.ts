/**
 * The resilient DOT parser for DarkPrint's dialect (docs/compatibility.md#dot-dialect,
 * docs/compatibility.md#parse-errors-and-recovery).
 *
 * `parseDot` never throws and always returns what it could read: the graph is recovered
 * statement by statement, so a typo on one line leaves every other node and edge in place.
 * A broken statement is skipped to the next `;`, to the next line that starts a statement, or
 * to the `}` that closes its block; a broken attribute is skipped to the next `,`/`;`/`]` of its
 * list. Parse errors stay `dot/parse-error` errors (DarkPrint refuses such a file), at most 20
 * of them plus one "too many" line.
 *
 * Semantics (docs/compatibility.md#nodes-edges-and-defaults): keywords are case-insensitive;
 * `node`/`edge`/`graph [..]` set scoped defaults (a root `graph [..]` also sets graph attributes);
 * subgraphs are flattened and copy the defaults in force; edge chains expand to consecutive pairs,
 * a subgraph endpoint to all of its members; nodes keep first-appearance order and position; a bare
 * mention never changes an existing node; a re-declaration overwrites explicit keys
 * (`dot/duplicate-node` when a value changes) and fills missing keys from the defaults in scope;
 * `strict` merges parallel edges.
 */
import type { Diagnostic, DiagnosticCode } from '../diagnostics';
import { diagnosticInfo, movedDiagnostic } from '../diagnostics';
import { commonPrefixLength, commonSuffixLength, partitionPoint, type Span } from '../text';
import { suggestNodeId } from './attractor-table';
import { lexDot, maxParseErrors, tokenFlag, tokenSpan, tokenText, tokenValue, type DotLexResult } from './dot-lexer';
import { mentionEnd, mentionNode as mentionedNode, mentionStart, mentionWriter } from './dot-mentions';
import { DotTokenCode as Code, type DotAttribute, type DotEdge, type DotGraph, type DotMentions, type DotNode, type DotParseResult, type DotTokenTable } from './dot-model';

/** Subgraphs nested deeper than this are a parse error (docs/compatibility.md#parse-errors-and-recovery). */
export const maxSubgraphDepth = 100;

/**
 * How many top-level statements in the end the two texts share a resumed parse tries to rejoin the
 * earlier parse at (see `rejoin` in `parseDot`): each try reads the nodes named so far, and a
 * state that does not match at the first statements seldom matches later.
 */
const maxRejoinTries = 4;

/** Distinct default attributes one scope keeps (see `withDefaults`). */
export const maxDefaultKeys = 100;

/**
 * Parses `text`. Given `previous`, an earlier parse of the same file, it starts after the
 * top-level statements the two texts share instead of at the beginning (see `resumeAt`): those
 * statements' nodes, edges, tokens and findings are taken from `previous`, the nodes that no
 * later statement declares again as the same objects (a mention alone changes no node: the
 * mentions are the graph's, see `DotMentions`). The result is the same as without
 * `previous` (a property test in dot-parser-resume.test.ts holds the two together).
 */
export function parseDot(text: string, file = 'topology.dot', previous?: DotParseResult): DotParseResult {
  // the same text again from the same earlier parse: the parse made then (see `latestFrom`)
  const known = previous === undefined ? undefined : latestFrom.get(previous);
  if (known !== undefined && known.text === text && known.file === file) return known.result;
  const start = previous === undefined ? undefined : resumeAt(previous, text, file);
  const resumedAt = start?.statements.length;
  const lexed = lexDot(text, file, start === undefined ? undefined : { table: start.table, token: start.token, ...suffixOf(start, text) });
  const table = lexed.table;
  const codes = table.kinds;
  const starts = table.starts;
  const ends = table.ends;
  const count = table.count;
  const spanAt = (index: number): Span => tokenSpan(table, index);
  const textAt = (index: number): string => tokenText(table, index);
  /** The source spelling of an ID as read (quotes included). */
  const writtenOf = (read: ReadValue): string => text.slice(read.span.start, read.span.end);

  let pos = 0;
  const parseErrors: Diagnostic[] = [];
  let parseErrorCount = 0;
  const other: Diagnostic[] = [];

  let strict = false;
  let directed = true;
  let notDirectedReported = false;
  let portsReported = false;
  let unclosedReported = false;
  let defaultsCapReported = false;
  const graphAttrs = new Map<string, DotAttribute>();
  const nodes = new Map<string, NodeBuilder>();
  /** Each node's index in `nodes` (its place in the graph's list), for its mentions. */
  const nodeIndexes = new Map<string, number>();
  /** Nodes whose attribute map is their own (after a re-declaration); the others share views. */
  const ownedAttrs = new Map<NodeBuilder, Map<string, DotAttribute>>();
  /** A resumed parse extends the earlier edges before where it resumes (`ResumeStart.edges`, a new array). */
  const edges: DotEdge[] = start === undefined ? [] : start.edges;
  /** In `strict` graphs: source -> target -> the attributes of the edge that parallel edges merge into. */
  const strictIndex = new Map<string, Map<string, Map<string, DotAttribute>>>();
  const selfLoops = new Set<string>();
  /**
   * Every node mention made inside an open subgraph, in order. A subgraph's members are the
   * distinct ids of its slice of this log, computed only when the subgraph is an edge endpoint,
   * so deep nesting costs nothing per level.
   */
  const mentionLog: string[] = [];
  let openSubgraphs = 0;
  /**
   * Every node mention, in source order (`DotGraph.mentions`). A resumed parse starts with the
   * earlier parse's mentions before where it resumes, sharing their full chunks.
   */
  const mentions = start === undefined ? mentionWriter() : mentionWriter(start.mentions, start.mentionsBefore);
  /** Per top-level statement: its first token, and the root defaults in force there (what a later parse resumes from). */
  const topStatements: number[] = start === undefined ? [] : start.statements;
  const topNodeDefaults: ReadonlyMap<string, DotAttribute>[] = start === undefined ? [] : start.nodeDefaults;
  const topEdgeDefaults: ReadonlyMap<string, DotAttribute>[] = start === undefined ? [] : start.edgeDefaults;
  /** Nodes taken from `previous` and not yet declared again: copied before they change (see `own`). */
  const shared: Set<NodeBuilder> = start === undefined ? new Set() : start.shared;

  // ------------------------------------------------------------------ diagnostics

  function fail(at: Span, message: string): void {
    parseErrorCount++;
    if (parseErrorCount > maxParseErrors + 1) return;
    parseErrors.push(make('dot/parse-error', message, at));
  }
  /** Non-error dot/* findings: at most `maxParseErrors` per code are built; the rest are only counted. */
  const reportCounts = new Map<DiagnosticCode, number>([['dot/unsupported', lexed.htmlCount]]);
  if (start !== undefined) {
    for (const d of start.diagnostics) {
      other.push(d);
      reportCounts.set(d.code, (reportCounts.get(d.code) ?? 0) + 1);
    }
  }
  function report(code: DiagnosticCode, build: () => Diagnostic): void {
    const seen = (reportCounts.get(code) ?? 0) + 1;
    reportCounts.set(code, seen);
    if (seen <= maxParseErrors + 1) other.push(build());
  }
  function make(code: DiagnosticCode, message: string, at: Span, extra?: Partial<Diagnostic['location']>): Diagnostic {
    return { code, severity: diagnosticInfo(code).severity, message, location: { file, span: at, ...extra } };
  }

  // ------------------------------------------------------------------ token helpers

  /** True when a line break separates token `index` from the significant token before it. */
  function startsLine(index: number): boolean {
    if (index <= 0 || index >= count) return index <= 0;
    const from = ends[index - 1];
    const to = starts[index];
    for (let k = from; k < to; k++) {
      const c = text.charCodeAt(k);
      if (c === 10 || c === 13) return true;
    }
    return false;
  }
  function keywordAt(index: number): string | undefined {
    return index < count && codes[index] === Code.Keyword ? textAt(index).toLowerCase() : undefined;
  }
  function describe(index: number): string {
    if (index >= count) return 'the end of the file';
    const written = textAt(index);
    const shown = written.length > 30 ? `${written.slice(0, 30)}…` : written;
    return `\`${shown.replace(/[\r\n]+/g, ' ')}\``;
  }
  /** A token that may begin a statement when it opens a line. */
  function canStartStatement(kind: number | undefined): boolean {
    return kind === Code.Id || kind === Code.Number || kind === Code.String || kind === Code.Html || kind === Code.Keyword || kind === Code.LBrace;
  }
  /** A value after `=` that sits on the next line and is really the start of something else. */
  function valueLooksMissing(index: number): boolean {
    const after = codes[index + 1];
    return (after === Code.Equals || after === Code.Arrow || after === Code.Line || after === Code.LBracket) && startsLine(index);
  }

  // ------------------------------------------------------------------ recovery

  /**
   * Skips the rest of a broken statement that began at `statementStart`: stops after a `;`,
   * before the `}` closing the current block, or before a token that opens a line and can start
   * a statement. Balanced `{}` and `[]` met on the way are skipped whole.
   */
  function recover(statementStart: number): void {
    let braces = 0;
    let brackets = 0;
    while (pos < count) {
      const kind = codes[pos];
      if (pos > statementStart && braces === 0 && brackets === 0 && canStartStatement(kind) && startsLine(pos)) return;
      switch (kind) {
        case Code.RBrace:
          if (braces === 0) return;
          braces--;
          break;
        case Code.LBrace:
          braces++;
          break;
        case Code.LBracket:
          brackets++;
          break;
        case Code.RBracket:
          if (brackets > 0) brackets--;
          break;
        case Code.Semicolon:
          if (braces === 0 && brackets === 0) {
            pos++;
            return;
          }
          break;
        default:
          break;
      }
      pos++;
    }
  }

  /** Skips a broken attribute to the next `,`, `;` or `]` of its list (not consumed), or to what ends the list. */
  function skipAttribute(): void {
    while (pos < count) {
      const k = codes[pos];
      if (k === Code.Comma || k === Code.Semicolon || k === Code.RBracket || k === Code.RBrace || k === Code.LBrace || k === Code.Arrow || k === Code.Line) return;
      pos++;
    }
  }

  // ------------------------------------------------------------------ reading ids and values

  /** Reads one ID at `pos` (id, number, string, HTML-like literal or keyword), joining `"a" + "b"`. */
  function readValue(): ReadValue {
    const first = pos++;
    const kind = codes[first];
    let value = tokenValue(table, first);
    let end = ends[first];
    if (kind === Code.String) {
      let parts: string[] | undefined;
      while (codes[pos] === Code.Plus) {
        if (codes[pos + 1] !== Code.String) {
          fail(spanAt(pos), `A \`+\` joins two quoted strings, but ${describe(pos + 1)} follows it; quote that value too, or remove the \`+\`.`);
          pos++;
          break;
        }
        (parts ??= [value]).push(tokenValue(table, pos + 1));
        end = ends[pos + 1];
        pos += 2;
      }
      if (parts !== undefined) value = parts.join('');
    }
    return { kind, span: { start: starts[first], end }, value, hyphenated: end === ends[first] && tokenFlag(table, first) === 'hyphenated' };
  }

  /**
   * The value after `=`. An unquoted value that runs on without a space into more word tokens
   * (`1.0.0`, `spec-planner@1.0.0`) is not one DOT word: it is read whole and reported once,
   * asking for quotes (by the lexer when an unreadable character such as `@` is part of it).
   */
  function readAttributeValue(): ReadValue {
    const value = readValue();
    if (value.kind !== Code.Id && value.kind !== Code.Number) {
      checkBareWord(value, 'value');
      return value;
    }
    let end = value.span.end;
    let glued = false;
    let unreadable = false;
    while (pos < count && starts[pos] === end) {
      const next = codes[pos];
      if (next === Code.Unknown) unreadable = true;
      else if (next !== Code.Number && next !== Code.Id && next !== Code.Keyword) break;
      end = ends[pos];
      glued = true;
      pos++;
    }
    if (!glued) {
      checkBareWord(value, 'value');
      return value;
    }
    const written = text.slice(value.span.start, end);
    if (!unreadable) fail({ start: value.span.start, end }, `The value \`${written}\` is not one DOT word; quote it: \`"${written}"\`.`);
    return { kind: value.kind, span: { start: value.span.start, end }, value: written, hyphenated: false };
  }

  function isIdLike(kind: number | undefined): boolean {
    return kind === Code.Id || kind === Code.Number || kind === Code.String || kind === Code.Html || kind === Code.Keyword;
  }

  /** Reports an id that stands where a node belongs but is not DOT: `code-builder`, or a keyword. */
  function checkNodeIdToken(t: ReadValue): NodeBuilder['idError'] {
    if (t.hyphenated) {
      const written = writtenOf(t);
      const suggestion = suggestNodeId(written, (candidate) => nodes.has(candidate));
      fail(t.span, `The node id \`${written}\` contains \`-\`, which DOT does not allow in a bare id; rename the node to \`${suggestion}\` everywhere it appears.`);
      return 'hyphenated';
    }
    if (t.kind === Code.Keyword) {
      const written = writtenOf(t);
      const suggestion = suggestNodeId(written, (candidate) => nodes.has(candidate));
      fail(t.span, `\`${written}\` is a DOT keyword, so it cannot name a node here; rename the node, e.g. to \`${suggestion}\`, everywhere it appears.`);
      return 'keyword';
    }
    return undefined;
  }

  function checkBareWord(t: ReadValue, role: 'attribute name' | 'value' | 'graph name' | 'subgraph name'): void {
    if (!t.hyphenated) return;
    const written = writtenOf(t);
    const underscored = written.replace(/-/g, '_');
    switch (role) {
      case 'attribute name':
        fail(t.span, `The attribute name \`${written}\` contains \`-\`, which DOT does not allow in a bare word; write \`${underscored}\`, or quote it as \`"${written}"\`.`);
        return;
      case 'value':
        fail(t.span, `The value \`${written}\` contains \`-\`, which DOT does not allow in a bare word; quote it: \`"${written}"\`.`);
        return;
      case 'graph name':
      case 'subgraph name':
        fail(t.span, `The ${role} \`${written}\` contains \`-\`, which DOT does not allow in a bare word; rename it to \`${underscored}\`, or quote it.`);
        return;
      default:
        return assertNever(role);
    }
  }

  // ------------------------------------------------------------------ attributes

  /**
   * One string per distinct attribute name, shared by every list that sets it: a file repeats a
   * handful of names thousands of times. The first few are matched against the source text
   * directly, without making a string to look up.
   */
  const keyNames = new Map<string, string>();
  const frequentKeys: string[] = [];
  /** The first code unit of each of `frequentKeys`, compared before the rest. */
  const frequentFirsts: number[] = [];
  /** Reads an attribute name at `pos`: `readValue`, with the name's string shared. */
  function readKey(): ReadValue {
    if (codes[pos] === Code.Id && tokenFlag(table, pos) === undefined) {
      const start = starts[pos];
      const end = ends[pos];
      const first = text.charCodeAt(start);
      for (let k = 0; k < frequentKeys.length; k++) {
        const known = frequentKeys[k];
        if (frequentFirsts[k] === first && known.length === end - start && text.startsWith(known, start)) {
          pos++;
          return { kind: Code.Id, span: { start, end }, value: known, hyphenated: false };
        }
      }
    }
    const key = readValue();
    checkBareWord(key, 'attribute name');
    const known = keyNames.get(key.value);
    if (known !== undefined) return { ...key, value: known };
    const wellKnown = wellKnownKeys.get(key.value);
    const name = wellKnown ?? key.value;
    keyNames.set(key.value, name);
    if (frequentKeys.length < 16 && name.length > 0) {
      frequentKeys.push(name);
      frequentFirsts.push(name.charCodeAt(0));
    }
    return wellKnown === undefined ? key : { ...key, value: wellKnown };
  }

  /** Where the last `parseAttributeLists` stopped: the end of its last `]` (or of what it read). */
  let listEnd = 0;

  /**
   * Defaults after a `node [..]`/`edge [..]` statement (a new map; the old one may be shared).
   * A scope keeps at most `maxDefaultKeys` distinct keys, so that copying the defaults keeps a
   * generated or hostile file linear; no real topology comes near it.
   */
  function withDefaults(base: ReadonlyMap<string, DotAttribute>, over: ReadonlyMap<string, DotAttribute>): ReadonlyMap<string, DotAttribute> {
    let out: Map<string, DotAttribute> | undefined;
    for (const [key, attr] of over) {
      const current = out ?? base;
      if (current.size >= maxDefaultKeys && !current.has(key)) {
        if (defaultsCapReported) continue;
        defaultsCapReported = true;
        report('dot/unsupported', () =>
          make('dot/unsupported', `This default sets more than ${maxDefaultKeys} different attributes in one scope, so \`${key}\` and the ones after it are ignored; set them on the nodes or edges themselves.`, attr.keySpan),
        );
        continue;
      }
      (out ??= new Map(base)).set(key, attr);
    }
    return out ?? base;
  }

  /**
   * One or more `[ k=v, ... ]` lists, merged left to right into a new map. Reports and recovers
   * inside the list; sets `listEnd`.
   */
  // The list being read is gathered here, then copied into an `AttributeList` of exactly its size.
  const listAttributes: DotAttribute[] = [];
  /** How many of `listAttributes` belong to the list being read (the rest are stale). */
  let listCount = 0;
  const listIndex = new Map<string, number>();
  function collectAttribute(attribute: DotAttribute): void {
    const name = attribute.key;
    let at = -1;
    if (listCount > AttributeList.indexFrom) at = listIndex.get(name) ?? -1;
    else for (let i = 0; i < listCount; i++) if (listAttributes[i].key === name) at = i;
    if (at >= 0) {
      listAttributes[at] = attribute;
      return;
    }
    listAttributes[listCount++] = attribute;
    if (listCount > AttributeList.indexFrom) {
      if (listIndex.size === 0) for (let i = 0; i < listCount; i++) listIndex.set(listAttributes[i].key, i);
      else listIndex.set(name, listCount - 1);
    }
  }
  function finishList(): AttributeList {
    return new AttributeList(listAttributes.slice(0, listCount));
  }

  function parseAttributeLists(fromDefault: boolean): AttributeList {
    listCount = 0;
    if (listIndex.size > 0) listIndex.clear(); // (clearing allocates a new table even when empty)
    let end = pos > 0 ? ends[pos - 1] : 0;
    while (codes[pos] === Code.LBracket) {
      const open = pos++;
      end = ends[open];
      let closed = false;
      while (!closed) {
        if (pos >= count) {
          fail(spanAt(open), 'This `[` is never closed; add `]` after the last attribute.');
          listEnd = end;
          return finishList();
        }
        const kind = codes[pos];
        switch (kind) {
          case Code.RBracket:
            end = ends[pos];
            pos++;
            closed = true;
            break;
          case Code.Comma:
          case Code.Semicolon:
            end = ends[pos];
            pos++;
            break;
          case Code.RBrace:
          case Code.LBrace:
          case Code.Arrow:
          case Code.Line:
          case Code.LBracket:
            fail(spanAt(open), `This \`[\` is never closed before ${describe(pos)}; add \`]\` after the last attribute.`);
            listEnd = end;
            return finishList();
          case Code.Unknown:
            pos++;
            skipAttribute();
            break;
          case Code.Id:
          case Code.Number:
          case Code.String:
          case Code.Html:
          case Code.Keyword: {
            if (looksLikeStatementAfter(pos) && startsLine(pos)) {
              fail(spanAt(open), `This \`[\` is never closed before the next statement; add \`]\` after the last attribute.`);
              listEnd = end;
              return finishList();
            }
            const key = readKey();
            const name = key.value;
            if (codes[pos] !== Code.Equals) {
              fail(pos < count ? spanAt(pos) : key.span, `Expected \`=\` after the attribute name \`${key.value}\`, found ${describe(pos)}; write \`${key.value}=<value>\`.`);
              end = key.span.end;
              skipAttribute();
              break;
            }
            const equals = pos++;
            end = ends[equals];
            if (!isIdLike(codes[pos]) || valueLooksMissing(pos)) {
              if (codes[pos] !== Code.Unknown) {
                fail(spanAt(equals), `The attribute \`${key.value}\` has no value after \`=\`; write one, e.g. \`${key.value}="…"\`.`);
              }
              skipAttribute();
              break;
            }
            const value = readAttributeValue();
            end = value.span.end;
            collectAttribute({
              key: name,
              value: value.value,
              keySpan: key.span,
              valueSpan: value.span,
              quoted: value.kind === Code.String,
              fromDefault,
            });
            break;
          }
          default:
            fail(spanAt(pos), `Expected an attribute name, found ${describe(pos)}; remove it.`);
            pos++;
            skipAttribute();
            break;
        }
      }
    }
    listEnd = end;
    return finishList();
  }

  /** At a line-opening id inside an unclosed list: does a statement (`a ->`, `a [`, `a;`, `a }`) start here? */
  function looksLikeStatementAfter(index: number): boolean {
    const after = codes[index + 1];
    return after === Code.Arrow || after === Code.Line || after === Code.LBracket || after === Code.Semicolon || after === Code.RBrace || after === undefined;
  }

  // ------------------------------------------------------------------ graph construction

  /** Records a mention of a node (see `DotMentions`), and logs it for the subgraphs open around it. */
  function collect(read: ReadValue): void {
    mentions.add(nodeIndexes.get(read.value)!, read.span.start, read.span.end);
    if (openSubgraphs > 0) mentionLog.push(read.value);
  }

  /**
   * Names a node; creates it (with the defaults in force and any explicit attributes) when it is
   * new. Its attributes are a view over the shared defaults, copied only if it is re-declared.
   */
  function mentionNode(
    read: ReadValue,
    idError: NodeBuilder['idError'],
    defaults: ReadonlyMap<string, DotAttribute>,
    explicit?: ReadonlyMap<string, DotAttribute>,
    statement?: Span,
  ): NodeBuilder {
    const found = nodes.get(read.value);
    if (found === undefined) return addNode(read, idError, defaults, explicit, statement);
    // (a mention alone leaves the node as it is: one taken from the earlier parse stays that object)
    const node = statement !== undefined && shared.size > 0 ? own(found) : found;
    if (statement !== undefined) node.statements.push(statement);
    collect(read);
    return node;
  }

  /** A node named for the first time (the caller knows it is new). */
  function addNode(
    read: ReadValue,
    idError: NodeBuilder['idError'],
    defaults: ReadonlyMap<string, DotAttribute>,
    explicit?: ReadonlyMap<string, DotAttribute>,
    statement?: Span,
  ): NodeBuilder {
    // Arrays start as literals sized to what they hold: most nodes have one statement.
    const node: NodeBuilder = {
      id: read.value,
      span: read.span,
      quoted: read.kind === Code.String,
      attrs: explicit === undefined || explicit.size === 0 ? defaults : defaults.size === 0 ? explicit : layered(defaults, explicit),
      statements: statement === undefined ? [] : [statement],
    };
    if (idError !== undefined) node.idError = idError;
    nodeIndexes.set(read.value, nodes.size);
    nodes.set(read.value, node);
    collect(read);
    return node;
  }


  /** A node taken from `previous`, copied (and the copy put in its place) before it changes. */
  function own(node: NodeBuilder): NodeBuilder {
    if (!shared.delete(node)) return node;
    const copy: NodeBuilder = { id: node.id, span: node.span, quoted: node.quoted, attrs: node.attrs, statements: node.statements.slice() };
    if (node.idError !== undefined) copy.idError = node.idError;
    nodes.set(node.id, copy);
    return copy;
  }

  /** A node statement with attributes for a node that already exists (a re-declaration: docs/compatibility.md#nodes-edges-and-defaults). */
  function redeclareNode(found: NodeBuilder, read: ReadValue, defaults: ReadonlyMap<string, DotAttribute>, explicit: ReadonlyMap<string, DotAttribute>, statement: Span): void {
    const existing = shared.size > 0 ? own(found) : found;
    existing.statements.push(statement);
    collect(read);
    let attrs = ownedAttrs.get(existing);
    if (attrs === undefined) {
      attrs = new Map(existing.attrs);
      ownedAttrs.set(existing, attrs);
      existing.attrs = attrs;
    }
    const changes: [string, string, string][] = [];
    for (const [key, attr] of explicit) {
      const previous = attrs.get(key);
      if (previous !== undefined && previous.value !== attr.value) changes.push([key, previous.value, attr.value]);
      attrs.set(key, attr);
    }
    for (const [key, attr] of defaults) if (!attrs.has(key)) attrs.set(key, attr);
    if (changes.length > 0) {
      report('dot/duplicate-node', () => ({
        ...make(
          'dot/duplicate-node',
          `Node \`${read.value}\` is declared again and changes ${changes.map(([key, from, to]) => `\`${key}\` from ${quoteShort(from)} to ${quoteShort(to)}`).join(', ')}; merge the declarations so each attribute is set once.`,
          read.span,
          { nodeId: read.value },
        ),
        related: [{ file, span: existing.span, message: `\`${read.value}\` first appears here.` }],
      }));
    }
  }

  function addEdge(sourceId: string, sourceSpan: Span, targetId: string, targetSpan: Span, attrs: ReadonlyMap<string, DotAttribute>, span: Span): void {
    let own: Map<string, DotAttribute> | undefined;
    if (strict) {
      let targets = strictIndex.get(sourceId);
      if (targets === undefined) strictIndex.set(sourceId, (targets = new Map()));
      const existing = targets.get(targetId);
      if (existing !== undefined) {
        for (const [k, a] of attrs) existing.set(k, a);
        return;
      }
      own = new Map(attrs);
      targets.set(targetId, own);
    }
    edges.push({ source: sourceId, target: targetId, sourceSpan, targetSpan, span, attrs: own ?? attrs });
    if (sourceId === targetId && !selfLoops.has(sourceId)) {
      selfLoops.add(sourceId);
      report('dot/self-loop', () =>
        make('dot/self-loop', `Node \`${sourceId}\` has an edge to itself, which is a cycle; make sure its card caps the iterations, or remove the edge.`, span, {
          nodeId: sourceId,
          edge: { source: sourceId, target: targetId },
        }),
      );
    }
  }

  // ------------------------------------------------------------------ rejoining

  /** The lexer took the earlier tokens from the one after this on (see `LexResume.suffix`); a statement there may rejoin. */
  const rejoinAfter = lexed.rejoined === undefined ? Number.POSITIVE_INFINITY : lexed.rejoined.token;
  let rejoinTries = 0;

  /**
   * At the top-level statement at `pos`, in the end both texts share: when it is one of the
   * earlier parse's top-level statements and what the statements before it left behind reads as
   * it did there, takes the rest of the earlier parse, moved by what the edit added or removed,
   * instead of reading it again, and leaves `pos` at the graph's closing `}`. The earlier parse was
   * clean (see `resumable`), and so must the statements read since the resumed one be; what a
   * later statement reads of the earlier ones must be the same in both:
   * - the root defaults in force (the same maps, or maps that read the same where the same
   *   statements set them, when the parse read their statement again), and no graph attribute
   *   set in between;
   * - a node the rest names again is named here too, and not declared again in the rest;
   * - a node the rest names first is not named here;
   * - the same nodes have self-loops;
   * - the findings stay under the cap of listed ones.
   * Anything else, and the parse reads on (at most `maxRejoinTries` times).
   */
  function rejoin(scope: Scope): boolean {
    rejoinTries++;
    const from = start!;
    const info = from.earlier;
    const previous = from.previous;
    const statements = info.statements;
    const oldToken = pos - lexed.rejoined!.shift;
    const j = partitionPoint(statements.length, (k) => statements[k] < oldToken);
    if (j >= statements.length || statements[j] !== oldToken) return false;
    if (!sameDefaults(scope.node, info.nodeDefaults[j]) || !sameDefaults(scope.edge, info.edgeDefaults[j]) || graphAttrs.size !== from.graphAttrs.length) return false;
    if (parseErrorCount > 0 || lexed.parseErrorCount > 0 || lexed.diagnostics.length > 0 || strict || !directed) return false;
    if (notDirectedReported || portsReported || unclosedReported || defaultsCapReported || codes[count - 1] !== Code.RBrace) return false;
    const old = previous.graph!;
    const oldNodes = old.nodes;
    const oldEdges = old.edges;
    /** Where the taken statements start in the earlier text. */
    const cut = previous.table.starts[oldToken];
    const delta = text.length - info.text.length;
    const places = info.nodePlaces;
    const named = partitionPoint(oldNodes.length, (n) => places[2 * n] < cut);
    const oldMentions = old.mentions;
    const oldCount = oldMentions.count;
    /** The earlier parse's first mention after the cut. */
    const tail = partitionPoint(oldCount, (m) => mentionStart(oldMentions, m) < cut);
    // Where the earlier parse's nodes read anew (named first between where this parse resumed
    // and the cut) are here; -1 for one gone. (A node named before the resumed statement is never
    // declared again after it: see `resumeAt`.)
    const readAgain = new Int32Array(Math.max(0, named - from.nodes.length));
    for (let k = from.nodes.length; k < named; k++) {
      // declared again after the cut: its attributes here may differ
      if (places[2 * k + 1] >= cut) return false;
      readAgain[k - from.nodes.length] = nodeIndexes.get(oldNodes[k].id) ?? -1;
    }
    // a node named again after the cut must exist here too
    for (let m = tail; m < oldCount; m++) {
      const k = mentionedNode(oldMentions, m);
      if (k >= from.nodes.length && k < named && readAgain[k - from.nodes.length] < 0) return false;
    }
    // a node named first after the cut must be new here too
    for (let k = named; k < oldNodes.length; k++) if (nodes.has(oldNodes[k].id)) return false;
    const edgeStarts = info.edgeStarts;
    const firstTakenEdge = partitionPoint(edgeStarts.length, (e) => edgeStarts[e] < cut);
    const loopsNow = new Set<string>();
    for (let e = from.keptEdges; e < edges.length; e++) if (edges[e].source === edges[e].target) loopsNow.add(edges[e].source);
    const loopsThen = new Set<string>();
    for (const e of info.selfLoops) if (e >= from.keptEdges && e < firstTakenEdge) loopsThen.add(oldEdges[e].source);
    if (loopsNow.size !== loopsThen.size || [...loopsNow].some((id) => !loopsThen.has(id))) return false;
    const later = previous.diagnostics.filter((d) => d.location.span !== undefined && d.location.span.start >= cut);
    const counts = new Map(reportCounts);
    for (const d of later) counts.set(d.code, (counts.get(d.code) ?? 0) + 1);
    for (const seen of counts.values()) if (seen > maxParseErrors) return false;

    // Take the rest, moved.
    const move = movedBy(cut, delta);
    for (const d of later) {
      reportCounts.set(d.code, (reportCounts.get(d.code) ?? 0) + 1);
      other.push(movedDiagnostic(d, file, move.span));
    }
    for (let k = j; k < statements.length; k++) {
      topStatements.push(pos + statements[k] - oldToken);
      topNodeDefaults.push(move.attributes(info.nodeDefaults[k]));
      topEdgeDefaults.push(move.attributes(info.edgeDefaults[k]));
    }
    // (the nodes named first after the cut follow those here, in the same order)
    const shift = nodes.size - named;
    for (let m = tail; m < oldCount; m++) {
      const k = mentionedNode(oldMentions, m);
      mentions.add(k < from.nodes.length ? k : k < named ? readAgain[k - from.nodes.length] : k + shift, mentionStart(oldMentions, m) + delta, mentionEnd(oldMentions, m) + delta);
    }
    taken = { from: serialOf(previous), nodes: nodes.size, earlierNodes: named, edges: edges.length, earlierEdges: firstTakenEdge, delta };
    // (kept out of the id maps: nothing is read after them, and the graph lists them after the rest)
    takenNodes = [];
    for (let k = named; k < oldNodes.length; k++) takenNodes.push(move.node(oldNodes[k] as NodeBuilder));
    for (let e = firstTakenEdge; e < oldEdges.length; e++) edges.push(move.edge(oldEdges[e]));
    pos = count - 1;
    rejoinedAt = j;
    return true;
  }

  // ------------------------------------------------------------------ statements

  function parseStatements(scope: Scope): void {
    while (pos < count) {
      const kind = codes[pos];
      if (kind === Code.RBrace) return;
      if (kind === Code.Semicolon) {
        pos++;
        continue;
      }
      const start = pos;
      if (scope.depth === 0) {
        if (pos > rejoinAfter && rejoinTries < maxRejoinTries && rejoin(scope)) return;
        topStatements.push(start);
        topNodeDefaults.push(scope.node);
        topEdgeDefaults.push(scope.edge);
      }
      if (parseStatement(scope)) {
        if (codes[pos] === Code.Semicolon) pos++;
      } else {
        recover(start);
      }
    }
  }

  /** One statement. False when it is broken (already reported) and the caller must recover. */
  function parseStatement(scope: Scope): boolean {
    const kind = codes[pos];
    switch (kind) {
      case Code.Keyword: {
        const keyword = textAt(pos).toLowerCase();
        const next = codes[pos + 1];
        if ((keyword === 'node' || keyword === 'edge' || keyword === 'graph') && next === Code.LBracket) {
          pos++;
          const attrs = parseAttributeLists(keyword !== 'graph');
          // Scope maps are replaced, never changed in place: edges and child scopes share them.
          if (keyword === 'node') scope.node = withDefaults(scope.node, attrs);
          else if (keyword === 'edge') scope.edge = withDefaults(scope.edge, attrs);
          else if (scope.depth === 0) for (const [key, attr] of attrs) graphAttrs.set(key, attr);
          // (a subgraph's own graph attributes stay in the subgraph, and the flat model drops them)
          return true;
        }
        if (next === Code.Equals) return parseGraphAttribute(scope);
        if ((keyword === 'digraph' || keyword === 'graph') && (next === Code.LBrace || (isIdLike(next) && codes[pos + 2] === Code.LBrace))) {
          // read on as a subgraph, so its nodes are kept
          fail(spanAt(pos), `A second graph header \`${textAt(pos)}\` appears inside the graph; close the first graph with \`}\` before it, or move it to its own file.`);
        }
        return parseEndpointStatement(scope);
      }
      case Code.Id:
      case Code.Number:
      case Code.String:
      case Code.Html:
        if (codes[pos + 1] === Code.Equals) return parseGraphAttribute(scope);
        return parseEndpointStatement(scope);
      case Code.LBrace:
        return parseEndpointStatement(scope);
      case Code.Unknown:
        pos++; // already reported by the lexer; the statement after it is still read
        return true;
      case Code.Arrow:
      case Code.Line:
        fail(spanAt(pos), `\`${textAt(pos)}\` needs a node on its left; write the source node before it.`);
        return false;
      default:
        fail(spanAt(pos), `Expected a node, an edge or an attribute, found ${describe(pos)}; remove it.`);
        return false;
    }
  }

  /** `key = value` at statement level (kept as a graph attribute only at the root: docs/compatibility.md#nodes-edges-and-defaults). */
  function parseGraphAttribute(scope: Scope, keyRead?: ReadValue): boolean {
    const key = keyRead ?? readValue();
    checkBareWord(key, 'attribute name');
    const equals = pos++; // the caller saw `=`
    if (!isIdLike(codes[pos]) || valueLooksMissing(pos)) {
      if (codes[pos] !== Code.Unknown) fail(spanAt(equals), `The attribute \`${key.value}\` has no value after \`=\`; write one, e.g. \`${key.value}="…"\`.`);
      return false;
    }
    const value = readAttributeValue();
    const attr: DotAttribute = {
      key: key.value,
      value: value.value,
      keySpan: key.span,
      valueSpan: value.span,
      quoted: value.kind === Code.String,
      fromDefault: false,
    };
    if (scope.depth === 0) graphAttrs.set(key.value, attr);
    return true;
  }

  /** A node statement, an edge chain, or a subgraph (used as a statement or as the first endpoint). */
  function parseEndpointStatement(scope: Scope): boolean {
    const first = parseEndpoint(scope);
    if (first === undefined) return false;
    if (first.read !== undefined && codes[pos] === Code.Equals) {
      // `"a" + "b" = value`: only now is it clear this was a graph attribute.
      return parseGraphAttribute(scope, first.read);
    }
    const idError = first.read !== undefined ? checkNodeIdToken(first.read) : undefined;
    const next = codes[pos];
    if (next === Code.Arrow || next === Code.Line) return parseEdgeChain(scope, first, idError);
    if (first.read === undefined) return true; // a subgraph statement: its members are in
    if (next !== Code.LBracket) {
      mentionNode(first.read, idError, scope.node, undefined, first.span);
      return true;
    }
    const attrs = parseAttributeLists(false);
    const statement = { start: first.span.start, end: listEnd };
    const known = nodes.get(first.read.value);
    if (known === undefined) addNode(first.read, idError, scope.node, attrs, statement);
    else redeclareNode(known, first.read, scope.node, attrs, statement);
    return true;
  }

  function parseEdgeChain(scope: Scope, first: Endpoint, firstError: NodeBuilder['idError']): boolean {
    const segments: Endpoint[] = [first];
    if (first.read !== undefined) mentionNode(first.read, firstError, scope.node);
    let broken = false;
    while (codes[pos] === Code.Arrow || codes[pos] === Code.Line) {
      const op = pos++;
      if (codes[op] === Code.Line && !notDirectedReported) {
        notDirectedReported = true;
        const opSpan = spanAt(op);
        report('dot/not-directed', () => make('dot/not-directed', '`--` is an undirected edge, and a topology is a directed graph; write `->`.', opSpan));
      }
      if (!isIdLike(codes[pos]) && codes[pos] !== Code.LBrace) {
        if (codes[pos] !== Code.Unknown) {
          const opText = textAt(op);
          fail(spanAt(op), `\`${opText}\` has no node on its right (found ${describe(pos)}); write the target node, or remove the \`${opText}\`.`);
        }
        broken = true;
        break;
      }
      const endpoint = parseEndpoint(scope);
      if (endpoint === undefined) {
        broken = true;
        break;
      }
      if (endpoint.read !== undefined) mentionNode(endpoint.read, checkNodeIdToken(endpoint.read), scope.node);
      segments.push(endpoint);
    }
    let explicit: AttributeList | undefined;
    let end = segments[segments.length - 1].span.end;
    if (!broken && codes[pos] === Code.LBracket) {
      explicit = parseAttributeLists(false);
      end = listEnd;
    }
    // One map per statement, shared by its edges (addEdge copies it when `strict` may merge into it).
    const attrs = explicit === undefined || explicit.size === 0 ? scope.edge : scope.edge.size === 0 ? explicit : layered(scope.edge, explicit);
    let sources: readonly EndpointId[] | undefined;
    for (let s = 0; s + 1 < segments.length; s++) {
      const from = segments[s];
      const to = segments[s + 1];
      const span = { start: from.span.start, end };
      if (from.read !== undefined && to.read !== undefined) {
        // the common case, `a -> b`: no member lists to build
        addEdge(from.read.value, from.read.span, to.read.value, to.read.span, attrs, span);
        sources = undefined;
        continue;
      }
      sources ??= endpointIds(from);
      const targets = endpointIds(to);
      for (const source of sources) {
        for (const target of targets) addEdge(source.id, source.span, target.id, target.span, attrs, span);
      }
      sources = targets;
    }
    return !broken;
  }

  function endpointIds(endpoint: Endpoint): EndpointId[] {
    if (endpoint.read !== undefined) return [{ id: endpoint.read.value, span: endpoint.read.span }];
    const members = new Set<string>();
    for (let k = endpoint.logStart; k < endpoint.logEnd; k++) members.add(mentionLog[k]);
    return [...members].map((id) => ({ id, span: endpoint.span }));
  }

  /** A node id (with any port specifier skipped) or a subgraph. Undefined when broken (reported). */
  function parseEndpoint(scope: Scope): Endpoint | undefined {
    const kind = codes[pos];
    const keyword = keywordAt(pos);
    if (kind === Code.LBrace || keyword === 'subgraph' || ((keyword === 'digraph' || keyword === 'graph') && (codes[pos + 1] === Code.LBrace || (isIdLike(codes[pos + 1]) && codes[pos + 2] === Code.LBrace)))) {
      return parseSubgraph(scope);
    }
    if (!isIdLike(kind)) {
      if (kind !== Code.Unknown) fail(spanAt(pos), `Expected a node id, found ${describe(pos)}; write a node id here.`);
      return undefined;
    }
    const read = readValue();
    const end = skipPorts();
    if (end === undefined) return undefined;
    return { read, logStart: 0, logEnd: 0, span: end === read.span.end ? read.span : { start: read.span.start, end } };
  }

  /**
   * `a:port:compass` — ports live on cards, so the specifier is skipped with one warning per
   * file. Returns where the endpoint ends, or undefined when a port name is missing (reported).
   */
  function skipPorts(): number | undefined {
    let end = ends[pos - 1];
    while (codes[pos] === Code.Colon) {
      const colon = pos++;
      if (!isIdLike(codes[pos])) {
        fail(spanAt(colon), `Expected a port name after \`:\`, found ${describe(pos)}; remove the \`:\`.`);
        return undefined;
      }
      const port = pos++;
      end = ends[port];
      if (!portsReported) {
        portsReported = true;
        report('dot/unsupported', () =>
          make('dot/unsupported', 'Port specifiers (`node:port`) are ignored; remove them and name the card ports with `out=`/`in=` on the edge instead.', {
            start: starts[colon],
            end: ends[port],
          }),
        );
      }
    }
    return end;
  }

  /** `[subgraph [ID]] { ... }`, flattened; it starts with the enclosing defaults, and its own stay inside it. */
  function parseSubgraph(scope: Scope): Endpoint | undefined {
    const start = pos;
    const startSpan = spanAt(start);
    if (codes[start] === Code.Keyword) {
      pos++;
      if (isIdLike(codes[pos]) && codes[pos] !== Code.Keyword) checkBareWord(readValue(), 'subgraph name');
      else if (codes[pos] === Code.Keyword && codes[pos + 1] === Code.LBrace) pos++;
    }
    if (codes[pos] !== Code.LBrace) {
      fail(startSpan, `Expected \`{\` to open the subgraph, found ${describe(pos)}; add \`{ … }\` after \`${textAt(start)}\`.`);
      return undefined;
    }
    const open = pos;
    if (scope.depth >= maxSubgraphDepth) {
      fail(spanAt(open), `Subgraphs are nested more than ${maxSubgraphDepth} deep here; flatten them, or close the \`{\` that is missing its \`}\`.`);
      pos = skipBalanced(pos);
      return { logStart: 0, logEnd: 0, span: { start: startSpan.start, end: ends[pos - 1] } };
    }
    pos++;
    const child: Scope = { node: scope.node, edge: scope.edge, depth: scope.depth + 1 };
    const logStart = mentionLog.length;
    openSubgraphs++;
    parseStatements(child);
    openSubgraphs--;
    const logEnd = mentionLog.length;
    let end: number;
    if (codes[pos] === Code.RBrace) {
      end = ends[pos];
      pos++;
    } else {
      end = pos > 0 ? ends[pos - 1] : ends[open];
      if (!unclosedReported) {
        unclosedReported = true;
        fail(spanAt(open), 'This `{` is never closed; add the matching `}`.');
      }
    }
    return { logStart, logEnd, span: { start: startSpan.start, end } };
  }

  /** From a `{` at `from`, the index just past its matching `}` (or the end). Iterative. */
  function skipBalanced(from: number): number {
    let depth = 0;
    let k = from;
    while (k < count) {
      const kind = codes[k];
      k++;
      if (kind === Code.LBrace) depth++;
      else if (kind === Code.RBrace) {
        depth--;
        if (depth === 0) return k;
      }
    }
    return k;
  }

  // ------------------------------------------------------------------ the graph

  function parseGraph(): DotGraph | undefined {
    if (start !== undefined) return resumeGraph(start);
    // Find the header: `[strict] (graph|digraph)`. Anything before it is reported once.
    let header = 0;
    while (header < count && codes[header] !== Code.LBrace && !(keywordAt(header) === 'strict' || keywordAt(header) === 'digraph' || keywordAt(header) === 'graph')) header++;
    if (header < count && codes[header] === Code.LBrace) header = count;
    let strictSpan: Span | undefined;
    let keywordSpan: Span;
    if (header < count) {
      if (header > 0) {
        fail({ start: starts[0], end: ends[header - 1] }, `${describe(0)} comes before the graph header; remove it, so the file starts with \`digraph <name> {\`.`);
      }
      pos = header;
      if (keywordAt(pos) === 'strict') {
        strict = true;
        strictSpan = spanAt(pos);
        pos++;
      }
      const keyword = keywordAt(pos);
      if (keyword === 'digraph' || keyword === 'graph') {
        keywordSpan = spanAt(pos);
        if (keyword === 'graph') {
          directed = false;
          notDirectedReported = true;
          const at = keywordSpan;
          report('dot/not-directed', () => make('dot/not-directed', 'The graph is declared with `graph`, so its edges have no direction; write `digraph`.', at));
        }
        pos++;
      } else {
        const at = strictSpan ?? spanAt(0);
        fail(at, `\`strict\` must be followed by \`digraph\`, found ${describe(pos)}; write \`digraph <name> {\`.`);
        keywordSpan = { start: at.end, end: at.end };
      }
    } else {
      // No header keyword at all: read the first `{ … }` as the graph if there is one.
      const brace = codes.indexOf(Code.LBrace);
      if (brace < 0) {
        fail(count > 0 ? spanAt(0) : { start: 0, end: 0 }, count > 0
          ? `Expected \`digraph\`, found ${describe(0)}; a topology is one \`digraph <name> { … }\`.`
          : 'The file holds no graph; write `digraph <name> { … }` with one node per card.');
        return undefined;
      }
      const named = brace > 0 && isIdLike(codes[brace - 1]) ? brace - 1 : brace;
      fail(spanAt(0), `Expected \`digraph\`, found ${describe(0)}; a topology starts with \`digraph <name> {\`.`);
      keywordSpan = { start: starts[named], end: starts[named] };
      pos = named;
    }

    let name: string | undefined;
    let nameSpan: Span | undefined;
    if (isIdLike(codes[pos]) && (codes[pos] !== Code.Keyword || codes[pos + 1] === Code.LBrace)) {
      const read = readValue();
      checkBareWord(read, 'graph name');
      name = read.value;
      nameSpan = read.span;
    }
    let open: Span;
    if (codes[pos] === Code.LBrace) {
      open = spanAt(pos);
      pos++;
    } else {
      open = nameSpan ?? keywordSpan;
      fail(pos < count ? spanAt(pos) : open, `Expected \`{\` after the graph header, found ${describe(pos)}; open the graph body with \`{\`.`);
    }

    return parseBody({ node: new Map(), edge: new Map(), depth: 0 }, open, keywordSpan, strictSpan, name, nameSpan);
  }

  /** The graph of `start`'s parse from its first statement on, its earlier statements read from `previous`. */
  function resumeGraph(from: ResumeStart): DotGraph {
    for (const node of from.nodes) {
      nodeIndexes.set(node.id, nodes.size);
      nodes.set(node.id, node);
    }
    for (const e of from.selfLoops) selfLoops.add(edges[e].source);
    for (const [key, attr] of from.graphAttrs) graphAttrs.set(key, attr);
    pos = from.token;
    const graph = from.graph;
    return parseBody({ node: from.rootNode, edge: from.rootEdge, depth: 0 }, from.open, graph.keywordSpan, undefined, graph.name, graph.nameSpan);
  }

  /** The statements of the graph body from `pos` on, its closing `}`, and the graph. */
  function parseBody(root: Scope, open: Span, keywordSpan: Span, strictSpan: Span | undefined, name: string | undefined, nameSpan: Span | undefined): DotGraph {
    openSpan = open;
    parseStatements(root);
    if (pos < count) {
      pos++; // parseStatements stops only at the end or at a `}`: this one closes the graph
    } else if (!unclosedReported) {
      fail(open, 'The graph\'s `{` is never closed; add `}` at the end of the graph.');
    }

    const graph: DotGraph = {
      strict,
      directed,
      keywordSpan,
      graphAttrs,
      nodes: takenNodes === undefined ? [...nodes.values()] : [...nodes.values(), ...takenNodes],
      edges: edges.slice(),
      mentions: mentions.done(),
      ...(name !== undefined ? { name, nameSpan } : {}),
      ...(strictSpan !== undefined ? { strictSpan } : {}),
    };
    return graph;
  }

  /** The `{` that opens the graph body, once read. */
  let openSpan: Span | undefined;
  /** The earlier top-level statement the parse took the rest from (see `rejoin`), if it did. */
  let rejoinedAt: number | undefined;
  /** The nodes and edges it took then (see `DotTaken`), and the nodes themselves, moved. */
  let taken: DotTaken | undefined;
  let takenNodes: NodeBuilder[] | undefined;
  const graph = parseGraph();
  // What a later parse needs to resume from this one: kept only for a file that reads cleanly
  // (no parse error, no finding but duplicate nodes and self-loops, no `strict`, directed), so
  // that the state after any top-level statement is plain to rebuild from the result.
  const resumable =
    graph !== undefined && openSpan !== undefined && lexed.diagnostics.length === 0 && lexed.parseErrorCount === 0 && parseErrorCount === 0 &&
    !strict && directed && !notDirectedReported && !portsReported && !unclosedReported && !defaultsCapReported && pos >= count &&
    [...reportCounts].every(([code, seen]) => seen === 0 || ((code === 'dot/duplicate-node' || code === 'dot/self-loop') && seen <= maxParseErrors));
  const resume: Resumable | undefined = resumable && openSpan !== undefined && graph !== undefined
    ? { text, file, open: openSpan, statements: topStatements, nodeDefaults: topNodeDefaults, edgeDefaults: topEdgeDefaults, ...placesOf(graph, start) }
    : undefined;
  shared.clear();
  // Drop the working containers' references: any of them the garbage collector has already
  // moved to the old generation would otherwise keep this parse's newer objects alive through
  // later young collections, long after the result itself is gone.
  nodes.clear();
  nodeIndexes.clear();
  edges.length = 0;
  mentionLog.length = 0;
  keyNames.clear();
  listAttributes.length = 0;
  listIndex.clear();
  ownedAttrs.clear();
  strictIndex.clear();
  let trailing: Span | undefined;
  if (graph !== undefined && pos < count) {
    trailing = spanAt(pos);
    const at = trailing;
    report('dot/unsupported', () =>
      make('dot/unsupported', 'Only the first graph in the file is read, so everything from here on is ignored; move a second graph to its own file, or remove the stray `}` that closed the graph early.', at),
    );
  }

  // Lexer and parser errors, in source order, capped at 20 plus one "too many" line.
  const lexErrors = lexed.diagnostics.filter((d) => d.code === 'dot/parse-error');
  parseErrors.sort((a, b) => (a.location.span?.start ?? 0) - (b.location.span?.start ?? 0));
  const errors = mergeBySpan(lexErrors, parseErrors);
  const totalErrors = lexed.parseErrorCount + parseErrorCount;
  const kept = errors.slice(0, maxParseErrors);
  if (totalErrors > maxParseErrors) {
    // A file this broken is reported by its parse errors alone: warnings about it are noise.
    const at = errors[maxParseErrors]?.location.span ?? kept[kept.length - 1]?.location.span ?? { start: 0, end: 0 };
    kept.push(make('dot/parse-error', `The file has more than ${maxParseErrors} parse errors and the rest are not listed; fix the ones above first.`, at));
    return parseResult(lexed, graph, kept, trailing);
  }
  // Other dot/* findings: at most 20 per code in source order, then one summary without a range.
  const findings = [...lexed.diagnostics.filter((d) => d.code !== 'dot/parse-error'), ...other];
  findings.sort((a, b) => (a.location.span?.start ?? 0) - (b.location.span?.start ?? 0));
  const listed = new Map<DiagnosticCode, number>();
  const diagnostics: Diagnostic[] = [...kept];
  for (const d of findings) {
    const n = (listed.get(d.code) ?? 0) + 1;
    listed.set(d.code, n);
    if (n <= maxParseErrors) diagnostics.push(d);
  }
  for (const [code, seen] of reportCounts) {
    if (seen <= maxParseErrors) continue;
    diagnostics.push({
      code,
      severity: diagnosticInfo(code).severity,
      message: `This finding occurs ${seen} times in the file and only the first ${maxParseErrors} are listed; deal with those and the rest will show.`,
      location: { file },
    });
  }
  diagnostics.sort((a, b) => (a.location.span?.start ?? -1) - (b.location.span?.start ?? -1));
  const result = parseResult(lexed, graph, diagnostics, trailing);
  if (resume !== undefined) resumables.set(result, resume);
  if (resumedAt !== undefined) reuses.set(result, { resumedAt, ...(rejoinedAt !== undefined ? { rejoinedAt } : {}), ...(taken !== undefined ? { taken } : {}) });
  if (previous !== undefined) latestFrom.set(previous, { text, file, result });
  return result;
}

/**
 * Per earlier parse, the last parse made from it, with its text and file. The server reads a
 * topology just typed into for a completion (from the last load's parse, see
 * ../ide/context.ts) before it loads the bundle, which parses the same text from the same parse:
 * the load then takes the parse made for the completion. A parse is never changed once made.
 */
const latestFrom = new WeakMap<DotParseResult, { readonly text: string; readonly file: string; readonly result: DotParseResult }>();

/** What a parse took from the earlier one it was given (see `dotParseReuse`). */
export interface DotParseReuse {
  /** The parse read from this top-level statement on (by index), taking those before it. */
  readonly resumedAt: number;
  /** It took the earlier parse's top-level statements from this one (by the earlier index) to the end, moved. */
  readonly rejoinedAt?: number;
  /** The nodes and edges it took from the earlier parse then. */
  readonly taken?: DotTaken;
}

/**
 * The nodes and edges a parse took from an earlier one after the text it read anew (see
 * `rejoin`): the earlier parse's nodes from index `earlierNodes` on are this graph's from `nodes`
 * on, in the same order, and its edges from `earlierEdges` on are this one's from `edges` on,
 * each read the same, what lies after the text read anew `delta` code units further on (its
 * spans and its own attributes; a default set before that text stays where it was). For the
 * engine's memos, which may then skip reading them again.
 */
export interface DotTaken {
  /** The earlier parse, as `dotParseSerial` numbers it. */
  readonly from: number;
  readonly nodes: number;
  readonly earlierNodes: number;
  readonly edges: number;
  readonly earlierEdges: number;
  readonly delta: number;
}

const serials = new WeakMap<DotParseResult, number>();
let nextSerial = 1;

/** A number for a parse result, the same each time it is asked, never given to another (for `DotTaken.from`: no reference that would keep the earlier parse alive). */
export function dotParseSerial(result: DotParseResult): number {
  return serialOf(result);
}

function serialOf(result: DotParseResult): number {
  let serial = serials.get(result);
  if (serial === undefined) serials.set(result, (serial = nextSerial++));
  return serial;
}

const reuses = new WeakMap<DotParseResult, DotParseReuse>();

/** For tests and benchmarks: what `parseDot` took from the earlier parse, undefined when it read the whole text. */
export function dotParseReuse(result: DotParseResult): DotParseReuse | undefined {
  return reuses.get(result);
}

/**
 * The result, built outside `parseDot` so that no closure of the parse holds the graph: a parse
 * long enough to see a young-generation collection has its closure context promoted, and an
 * old context pointing at the new graph would keep the whole graph alive through later young
 * collections after the result is dropped.
 */
function parseResult(lexed: DotLexResult, graph: DotGraph | undefined, diagnostics: readonly Diagnostic[], trailing: Span | undefined): DotParseResult {
  return {
    ...(graph !== undefined ? { graph } : {}),
    table: lexed.table,
    diagnostics,
    ...(trailing !== undefined ? { trailing } : {}),
    get tokens() {
      return lexed.tokens;
    },
    get significant() {
      return lexed.significant;
    },
  };
}

/**
 * The attribute names the engine reads, each as the one string a literal in the source is: a
 * key read from the text is replaced by it, so that the engine's lookups (`attrs.get('card')`)
 * compare two identical strings at once instead of reading both (the same text, so nothing
 * else changes): DarkPrint's own names, the Attractor ones (./attractor-table.ts) and
 * three Graphviz names common in topologies (`rankdir`, `style`, `color`).
 */
const wellKnownKeys: ReadonlyMap<string, string> = new Map(
  [
    'card', 'version', 'digest', 'out', 'in', 'label', 'condition', 'weight', 'shape', 'type', 'prompt', 'goal', 'goal_gate',
    'retry_target', 'fallback_retry_target', 'max_retries', 'default_max_retry', 'default_max_retries', 'default_fidelity',
    'fidelity', 'thread_id', 'class', 'timeout', 'llm_model', 'llm_provider', 'reasoning_effort', 'auto_status',
    'allow_partial', 'tool_command', 'join_policy', 'max_parallel', 'loop_restart', 'model_stylesheet', 'rankdir', 'style', 'color',
  ].map((name) => [name, name] as const),
);

// ---------------------------------------------------------------------- resuming

/** What a later parse of the same file needs to start after the statements it shares with a parse. */
interface Resumable {
  readonly text: string;
  readonly file: string;
  /** The `{` that opens the graph body. */
  readonly open: Span;
  /** The first token of each top-level statement, in order. */
  readonly statements: readonly number[];
  /** The root defaults in force at each of those statements. */
  readonly nodeDefaults: readonly ReadonlyMap<string, DotAttribute>[];
  readonly edgeDefaults: readonly ReadonlyMap<string, DotAttribute>[];
  /** See `Places`. */
  readonly nodePlaces: Int32Array;
  readonly edgeStarts: Int32Array;
  readonly selfLoops: readonly number[];
}

/**
 * Where the graph's nodes and edges are, in flat arrays, so that `resumeAt` finds what lies
 * before a point without reading thousands of objects scattered over the heap.
 */
interface Places {
  /** Per node, two offsets: where its id is first named, where its last statement starts (-1: none). */
  readonly nodePlaces: Int32Array;
  /** Per edge, where it starts. */
  readonly edgeStarts: Int32Array;
  /** The indexes of the self-loops among the edges. */
  readonly selfLoops: readonly number[];
}

/**
 * The places of `graph`'s nodes and edges. A parse that resumed copies those of the nodes it
 * took unchanged from the earlier parse (the same objects at the same index) and of the edges
 * it took (its first ones), and reads only the others.
 */
function placesOf(graph: DotGraph, start: ResumeStart | undefined): Places {
  const nodes = graph.nodes;
  const nodePlaces = new Int32Array(2 * nodes.length);
  const before = start?.previous;
  const earlier = before?.graph?.nodes;
  const earlierPlaces = before === undefined ? undefined : resumables.get(before)?.nodePlaces;
  for (let n = 0; n < nodes.length; n++) {
    if (earlier !== undefined && earlierPlaces !== undefined && n < earlier.length && nodes[n] === earlier[n]) {
      nodePlaces[2 * n] = earlierPlaces[2 * n];
      nodePlaces[2 * n + 1] = earlierPlaces[2 * n + 1];
      continue;
    }
    const node = nodes[n];
    const statements = node.statements;
    nodePlaces[2 * n] = node.span.start;
    nodePlaces[2 * n + 1] = statements.length > 0 ? statements[statements.length - 1].start : -1;
  }
  const edges = graph.edges;
  const edgeStarts = new Int32Array(edges.length);
  const earlierStarts = before === undefined ? undefined : resumables.get(before)?.edgeStarts;
  // a resumed parse's first edges are the earlier parse's
  const kept = start !== undefined && earlierStarts !== undefined ? start.keptEdges : 0;
  if (kept > 0) edgeStarts.set(earlierStarts!.subarray(0, kept));
  const selfLoops: number[] = kept > 0 ? start!.selfLoops.slice() : [];
  for (let e = kept; e < edges.length; e++) {
    const edge = edges[e];
    edgeStarts[e] = edge.span.start;
    if (edge.source === edge.target) selfLoops.push(e);
  }
  return { nodePlaces, edgeStarts, selfLoops };
}

/** Kept beside each parse that can be resumed from, so the model itself carries nothing extra. */
const resumables = new WeakMap<DotParseResult, Resumable>();

/** A parse's state before one of its top-level statements, rebuilt from its result. */
interface ResumeStart {
  readonly graph: DotGraph;
  readonly table: DotTokenTable;
  readonly open: Span;
  /** The statement's first token. */
  readonly token: number;
  readonly rootNode: ReadonlyMap<string, DotAttribute>;
  readonly rootEdge: ReadonlyMap<string, DotAttribute>;
  /** The records of the statements before it (new arrays, for the new parse to extend). */
  readonly statements: number[];
  readonly nodeDefaults: ReadonlyMap<string, DotAttribute>[];
  readonly edgeDefaults: ReadonlyMap<string, DotAttribute>[];
  /** The nodes named before it, in order: the earlier objects (no later statement declares them again). */
  readonly nodes: readonly NodeBuilder[];
  /** Those of `nodes` that are the earlier objects (all of them, until the new parse copies one to change it). */
  readonly shared: Set<NodeBuilder>;
  /** The earlier parse's mentions (the first `mentionsBefore` of them come before it). */
  readonly mentions: DotMentions;
  /** How many of `mentions` come before it. */
  readonly mentionsBefore: number;
  /** The edges before it: a new array, which the new parse extends (so never read after that parse starts: see `keptEdges`). */
  readonly edges: DotEdge[];
  /** How many edges come before it. */
  readonly keptEdges: number;
  /** The indexes of the self-loops among the edges before it. */
  readonly selfLoops: readonly number[];
  /** The parse it resumes. */
  readonly previous: DotParseResult;
  readonly graphAttrs: readonly (readonly [string, DotAttribute])[];
  /** The findings before it (duplicate nodes and self-loops only: see `resumable`). */
  readonly diagnostics: readonly Diagnostic[];
  /** What was kept of `previous` to resume from. */
  readonly earlier: Resumable;
  /** How many code units the two texts share at their start. */
  readonly same: number;
}

/**
 * The end the two texts share, for the lexer to take the earlier tokens there (see
 * `LexResume.suffix`) and the parser the earlier statements (see `rejoin` in `parseDot`).
 */
function suffixOf(start: ResumeStart, text: string): { suffix: { from: number; delta: number } } | undefined {
  const earlier = start.earlier.text;
  const tail = commonSuffixLength(earlier, text, Math.min(earlier.length, text.length) - start.same);
  return tail > 0 ? { suffix: { from: text.length - tail, delta: text.length - earlier.length } } : undefined;
}

/**
 * How many tokens after a statement's first one must also read the same before a parse resumes
 * there: the statement before it decided where it ends by looking at the tokens that follow it
 * (an edge operator, another `[`, a `;`), never more than two.
 */
const resumeMargin = 3;

/**
 * Where a parse of `text` can start, given `previous`: the last top-level statement whose first
 * `resumeMargin + 1` tokens end before the first character where the texts differ (the first
 * statement too: nothing before it is taken, but the statements after the edit may be, see
 * `rejoin`). Undefined when `previous` cannot be resumed from (not clean, another file), when the
 * edit reaches into the header or the first statement's first tokens, or when a later statement
 * changed what a node or the graph read before it (a re-declaration, a graph attribute after
 * it): then the parse starts at the beginning.
 */
function resumeAt(previous: DotParseResult, text: string, file: string): ResumeStart | undefined {
  const info = resumables.get(previous);
  const graph = previous.graph;
  if (info === undefined || graph === undefined || info.file !== file) return undefined;
  const same = commonPrefixLength(info.text, text);
  const table = previous.table;
  const statements = info.statements;
  // the number of statements whose guarded tokens all end before `same` (their ends grow with the statement)
  const guarded = (k: number): boolean => statements[k] + resumeMargin < table.count && table.ends[statements[k] + resumeMargin] < same;
  const at = partitionPoint(statements.length, guarded) - 1;
  if (at < 0) return undefined;
  const token = statements[at];
  const offset = table.starts[token];
  const graphAttrs: (readonly [string, DotAttribute])[] = [];
  for (const entry of graph.graphAttrs) {
    if (entry[1].keySpan.start >= offset) return undefined;
    graphAttrs.push(entry);
  }
  const nodes: NodeBuilder[] = [];
  const shared = new Set<NodeBuilder>();
  const places = info.nodePlaces;
  const earlierNodes = graph.nodes;
  for (let n = 0; n < earlierNodes.length; n++) {
    if (places[2 * n] >= offset) break;
    if (places[2 * n + 1] >= offset) return undefined;
    // the model's node is the builder it was made from (see `nodeShape`); this one is never changed in place
    const node = earlierNodes[n] as NodeBuilder;
    nodes.push(node);
    shared.add(node);
  }
  const mentioned = graph.mentions;
  const before = partitionPoint(mentioned.count, (m) => mentionStart(mentioned, m) < offset);
  const edgeStarts = info.edgeStarts;
  let kept = 0;
  while (kept < edgeStarts.length && edgeStarts[kept] < offset) kept++;
  const edges = graph.edges.slice(0, kept);
  const selfLoops: number[] = [];
  for (const e of info.selfLoops) if (e < kept) selfLoops.push(e);
  const diagnostics = previous.diagnostics.filter((d) => d.location.span !== undefined && d.location.span.start < offset);
  return {
    graph,
    table,
    open: info.open,
    token,
    rootNode: info.nodeDefaults[at],
    rootEdge: info.edgeDefaults[at],
    statements: statements.slice(0, at),
    nodeDefaults: info.nodeDefaults.slice(0, at),
    edgeDefaults: info.edgeDefaults.slice(0, at),
    nodes,
    shared,
    mentions: mentioned,
    mentionsBefore: before,
    edges,
    keptEdges: kept,
    selfLoops,
    previous,
    graphAttrs,
    diagnostics,
    earlier: info,
    same,
  };
}

/** Every field of `DotAttribute`, as `sameDefaults` compares them (the compiler checks none is missing). */
const attributeFields = ['key', 'value', 'keySpan', 'valueSpan', 'quoted', 'fromDefault'] as const;
const everyAttributeField: Exclude<keyof DotAttribute, (typeof attributeFields)[number]> extends never ? true : never = true;
void everyAttributeField;

/** True when two defaults maps hold the same attributes, set by the same tokens, in the same order. */
function sameDefaults(a: ReadonlyMap<string, DotAttribute>, b: ReadonlyMap<string, DotAttribute>): boolean {
  if (a === b) return true;
  if (a.size !== b.size) return false;
  const others = [...b.values()];
  let k = 0;
  for (const x of a.values()) {
    const y = others[k++];
    if (x === y) continue;
    if (x.key !== y.key || x.value !== y.value || x.quoted !== y.quoted || x.fromDefault !== y.fromDefault) return false;
    if (x.keySpan.start !== y.keySpan.start || x.keySpan.end !== y.keySpan.end || x.valueSpan.start !== y.valueSpan.start || x.valueSpan.end !== y.valueSpan.end) return false;
  }
  return true;
}

/** The earlier parse's objects after `cut`, moved by `delta` (the same objects when nothing moves). */
interface Mover {
  span(span: Span): Span;
  attributes(map: ReadonlyMap<string, DotAttribute>): ReadonlyMap<string, DotAttribute>;
  node(node: NodeBuilder): NodeBuilder;
  edge(edge: DotEdge): DotEdge;
}

/**
 * Moves what starts at or after `cut` by `delta`. Only whole statements after `cut` are moved, so
 * a span lies either wholly before it or wholly after. A defaults map is moved once however many
 * nodes share it, and an attribute map stays the same object when none of its attributes move.
 */
function movedBy(cut: number, delta: number): Mover {
  const span = (s: Span): Span => (delta === 0 || s.start < cut ? s : { start: s.start + delta, end: s.end + delta });
  const attribute = (a: DotAttribute): DotAttribute =>
    delta === 0 || (a.keySpan.start < cut && a.valueSpan.start < cut)
      ? a
      : { key: a.key, value: a.value, keySpan: span(a.keySpan), valueSpan: span(a.valueSpan), quoted: a.quoted, fromDefault: a.fromDefault };
  /** Moved plain maps: the defaults, which many nodes and edges share (a list or a view belongs to one statement). */
  const maps = new Map<ReadonlyMap<string, DotAttribute>, ReadonlyMap<string, DotAttribute>>();
  const attributes = (map: ReadonlyMap<string, DotAttribute>): ReadonlyMap<string, DotAttribute> => {
    if (delta === 0 || map.size === 0) return map;
    // (a statement's own list lies wholly after the cut or wholly before it: shown moved, or kept)
    if (map instanceof AttributeList) return map.allFrom(cut) ? map.moved(delta) : map.mapped(attribute);
    if (map instanceof LayeredMap) return (map as LayeredMap<string, DotAttribute>).remapped(attributes);
    const known = maps.get(map);
    if (known !== undefined) return known;
    let changed = false;
    const out = new Map<string, DotAttribute>();
    for (const [key, a] of map) {
      const b = attribute(a);
      if (b !== a) changed = true;
      out.set(key, b);
    }
    const moved = changed ? out : map;
    maps.set(map, moved);
    return moved;
  };
  return {
    span,
    attributes,
    node(node) {
      if (delta === 0) return node;
      const moved: NodeBuilder = { id: node.id, span: span(node.span), quoted: node.quoted, attrs: attributes(node.attrs), statements: node.statements.map(span) };
      if (node.idError !== undefined) moved.idError = node.idError;
      return moved;
    },
    edge(edge) {
      if (delta === 0) return edge;
      return { source: edge.source, target: edge.target, sourceSpan: span(edge.sourceSpan), targetSpan: span(edge.targetSpan), span: span(edge.span), attrs: attributes(edge.attrs) };
    },
  };
}

// ---------------------------------------------------------------------- internals

/** Defaults in force. The maps are never changed in place (see `withDefaults`), so scopes and edges share them. */
interface Scope {
  node: ReadonlyMap<string, DotAttribute>;
  edge: ReadonlyMap<string, DotAttribute>;
  readonly depth: number;
}

/**
 * `base` with `own` laid over it, read-only and without copying `base`: DarkPrint's
 * `{ ...defaults, ...explicit }` (base keys in their order, own values winning, then own-only
 * keys). Neither map may change afterwards; the parser never changes either.
 */
function layered<K, V>(base: ReadonlyMap<K, V>, own: ReadonlyMap<K, V>): ReadonlyMap<K, V> {
  return new LayeredMap(base, own);
}

/**
 * The attributes one statement writes, in first-set order (a later `k=v` for the same key
 * replaced the value in place, as in a `Map`); read-only. A class, against the house style, on
 * purpose: nearly every node and edge statement has one, and one exact-size array searched in
 * order costs far less to build and to collect than a `Map` each. Past `indexFrom` keys it keeps
 * a `Map` index, so a hostile list of thousands of attributes stays linear.
 */
class AttributeList implements ReadonlyMap<string, DotAttribute> {
  static readonly indexFrom = 8;
  private readonly index: Map<string, number> | undefined;

  /**
   * `attributes`: the attributes as read, in order, their keys distinct. `shift`: how far on the
   * list shows them. A list taken from an earlier parse after text typed before its statement
   * (see `movedBy`) is the same array shown moved, not a copy: a thousand statements move on an
   * edit in the middle of a topology, most of whose attributes nothing reads before the next
   * edit, and a copy of each would live that long (the collector's old generation filling up on
   * every edit). Each read of a moved list gives a new moved attribute (equal, not the same).
   */
  constructor(
    private readonly attributes: readonly DotAttribute[],
    private readonly shift = 0,
    index?: Map<string, number>,
  ) {
    this.index = index ?? (attributes.length > AttributeList.indexFrom ? new Map(attributes.map((a, i) => [a.key, i] as const)) : undefined);
  }

  get size(): number {
    return this.attributes.length;
  }

  /** The list with `change` applied to each attribute; itself when nothing changed. */
  mapped(change: (attribute: DotAttribute) => DotAttribute): AttributeList {
    let changed = this.shift !== 0;
    const out = this.attributes.map((a) => {
      const shown = this.shown(a);
      const b = change(shown);
      if (b !== shown) changed = true;
      return b;
    });
    return changed ? new AttributeList(out) : this;
  }

  /** True when every attribute (key and value) starts at or after `offset`, as shown. */
  allFrom(offset: number): boolean {
    const at = offset - this.shift;
    for (const a of this.attributes) if (a.keySpan.start < at || a.valueSpan.start < at) return false;
    return true;
  }

  /** The same attributes shown `delta` further on. */
  moved(delta: number): AttributeList {
    return delta === 0 ? this : new AttributeList(this.attributes, this.shift + delta, this.index);
  }

  private shown(a: DotAttribute): DotAttribute {
    const shift = this.shift;
    if (shift === 0) return a;
    return {
      key: a.key,
      value: a.value,
      keySpan: { start: a.keySpan.start + shift, end: a.keySpan.end + shift },
      valueSpan: { start: a.valueSpan.start + shift, end: a.valueSpan.end + shift },
      quoted: a.quoted,
      fromDefault: a.fromDefault,
    };
  }

  private find(key: string): number {
    if (this.index !== undefined) return this.index.get(key) ?? -1;
    const attributes = this.attributes;
    for (let i = 0; i < attributes.length; i++) if (attributes[i].key === key) return i;
    return -1;
  }

  get(key: string): DotAttribute | undefined {
    const at = this.find(key);
    return at >= 0 ? this.shown(this.attributes[at]) : undefined;
  }

  has(key: string): boolean {
    return this.find(key) >= 0;
  }

  forEach(callback: (value: DotAttribute, key: string, map: ReadonlyMap<string, DotAttribute>) => void, thisArg?: unknown): void {
    for (const a of this.attributes) callback.call(thisArg, this.shown(a), a.key, this);
  }

  // (array iterators, not generators: the engine walks these maps for every node and edge, and
  // V8 runs a `for…of` over an array iterator far faster than over a generator)
  entries(): MapIterator<[string, DotAttribute]> {
    return this.attributes.map((a): [string, DotAttribute] => [a.key, this.shown(a)]).values();
  }

  keys(): MapIterator<string> {
    return this.attributes.map((a) => a.key).values();
  }

  values(): MapIterator<DotAttribute> {
    return this.shift === 0 ? this.attributes.values() : this.attributes.map((a) => this.shown(a)).values();
  }

  [Symbol.iterator](): MapIterator<[string, DotAttribute]> {
    return this.entries();
  }
}

/**
 * The view `layered` returns. A class, against the house style, on purpose: every node with
 * explicit attributes under `node [...]` defaults gets one, and methods on a shared prototype
 * keep that to one small object per node instead of a closure per method.
 */
class LayeredMap<K, V> implements ReadonlyMap<K, V> {
  /** Counted when first asked for. */
  private counted = -1;

  /** The view over `change` of each layer; itself when neither changed. */
  remapped(change: (layer: ReadonlyMap<K, V>) => ReadonlyMap<K, V>): LayeredMap<K, V> {
    const base = change(this.base);
    const own = change(this.own);
    return base === this.base && own === this.own ? this : new LayeredMap(base, own);
  }

  constructor(
    private readonly base: ReadonlyMap<K, V>,
    private readonly own: ReadonlyMap<K, V>,
  ) {}

  get size(): number {
    if (this.counted < 0) {
      let size = this.base.size;
      for (const key of this.own.keys()) if (!this.base.has(key)) size++;
      this.counted = size;
    }
    return this.counted;
  }

  get(key: K): V | undefined {
    return this.own.has(key) ? this.own.get(key) : this.base.get(key);
  }

  has(key: K): boolean {
    return this.own.has(key) || this.base.has(key);
  }

  /** Walks the view without copying it (the lint calls this for every node). */
  forEach(callback: (value: V, key: K, map: ReadonlyMap<K, V>) => void, thisArg?: unknown): void {
    const own = this.own;
    const base = this.base;
    base.forEach((value, key) => callback.call(thisArg, own.has(key) ? (own.get(key) as V) : value, key, this));
    own.forEach((value, key) => {
      if (!base.has(key)) callback.call(thisArg, value, key, this);
    });
  }

  // (array iterators over a snapshot, not generators; see `AttributeList`)
  entries(): MapIterator<[K, V]> {
    const out: [K, V][] = [];
    for (const [key, value] of this.base) out.push([key, this.own.has(key) ? (this.own.get(key) as V) : value]);
    for (const [key, value] of this.own) if (!this.base.has(key)) out.push([key, value]);
    return out.values();
  }

  keys(): MapIterator<K> {
    const out: K[] = [];
    for (const key of this.base.keys()) out.push(key);
    for (const key of this.own.keys()) if (!this.base.has(key)) out.push(key);
    return out.values();
  }

  values(): MapIterator<V> {
    const out: V[] = [];
    for (const [key, value] of this.base) out.push(this.own.has(key) ? (this.own.get(key) as V) : value);
    for (const [key, value] of this.own) if (!this.base.has(key)) out.push(value);
    return out.values();
  }

  [Symbol.iterator](): MapIterator<[K, V]> {
    return this.entries();
  }
}

/**
 * One ID as read: one token, or, for `"a" + "b"` and a glued `1.0.0`, the whole run (its
 * `value` joined, its `span` covering every piece, its kind the first token's, or `string`).
 */
interface ReadValue {
  /** Its first token's kind code (`DotTokenCode`). */
  readonly kind: Code;
  readonly span: Span;
  readonly value: string;
  /** An unquoted id across hyphens (`code-builder`), read whole. */
  readonly hyphenated: boolean;
}

interface Endpoint {
  /** Set for a node endpoint; undefined for a subgraph. */
  readonly read?: ReadValue;
  /** For a subgraph: its slice of the mention log (its members are the distinct ids there). */
  readonly logStart: number;
  readonly logEnd: number;
  readonly span: Span;
}

interface EndpointId {
  readonly id: string;
  readonly span: Span;
}

interface NodeBuilder {
  id: string;
  span: Span;
  quoted: boolean;
  /** The defaults in force, a view of defaults + explicit attributes, or (once re-declared) its own map. */
  attrs: ReadonlyMap<string, DotAttribute>;
  statements: Span[];
  idError?: 'hyphenated' | 'keyword';
}

// Compile-time checks that the builders are the model's shapes.
const nodeShape: (n: NodeBuilder) => DotNode = (n) => n;
void nodeShape;

function quoteShort(value: string): string {
  const oneLine = value.replace(/\s+/g, ' ');
  return JSON.stringify(oneLine.length > 40 ? `${oneLine.slice(0, 40)}…` : oneLine);
}

function mergeBySpan(a: readonly Diagnostic[], b: readonly Diagnostic[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (j >= b.length || (i < a.length && (a[i].location.span?.start ?? 0) <= (b[j].location.span?.start ?? 0))) out.push(a[i++]);
    else out.push(b[j++]);
  }
  return out;
}

function assertNever(value: never): never {
  throw new Error(`unexpected value ${String(value)}`);
}
