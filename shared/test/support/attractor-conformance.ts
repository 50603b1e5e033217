/**
 * An Attractor conformance checker, written from the Attractor specification alone
 * (its §2.2 grammar, §2.3 constraints, §7.2 ERROR rules, §10.2 condition grammar; which revision:
 * docs/compatibility.md#the-attractor-specification). It shares nothing with the engine: its own
 * tokenizer and parser, its own constants, no import from `shared/src`. Tests run every export
 * through it, so a compiled file is checked by a second reading of the format, not by the reader
 * that shaped it.
 *
 * Reading is strict by default (exactly the §2.2 grammar). `lenient: true` also accepts a
 * quoted attribute key (`"stack.child_dotfile"="x"`), which hand-written pipelines use, so the
 * same reader can take those apart for round-trip comparisons.
 */

export type ConformanceRule =
  | 'grammar'
  | 'start_node'
  | 'terminal_node'
  | 'reachability'
  | 'edge_target_exists'
  | 'start_no_incoming'
  | 'exit_no_outgoing'
  | 'condition_syntax'
  /** A compiled file never sets a node's `type` (docs/compatibility.md#type-mapping). */
  | 'type_absent';

export interface ConformanceFinding {
  readonly rule: ConformanceRule;
  readonly message: string;
  readonly nodeId?: string;
  readonly edge?: readonly [string, string];
}

export type AttractorValueKind = 'string' | 'integer' | 'float' | 'boolean' | 'duration' | 'bare';

export interface AttractorValue {
  readonly kind: AttractorValueKind;
  /** The value as the runner sees it: strings unescaped, everything else as written. */
  readonly text: string;
}

export interface AttractorNode {
  readonly id: string;
  readonly attrs: Map<string, AttractorValue>;
}

export interface AttractorEdge {
  readonly from: string;
  readonly to: string;
  readonly attrs: Map<string, AttractorValue>;
}

export interface AttractorGraph {
  readonly name: string;
  readonly attrs: Map<string, AttractorValue>;
  /** Declared nodes (node statements), in declaration order. */
  readonly nodes: Map<string, AttractorNode>;
  readonly edges: AttractorEdge[];
  /** True when a `subgraph` statement occurs. */
  readonly hasSubgraph: boolean;
}

export interface ConformanceResult {
  /** Undefined when the text does not follow the grammar. */
  readonly graph?: AttractorGraph;
  readonly findings: readonly ConformanceFinding[];
}

export interface ConformanceOptions {
  readonly lenient?: boolean;
}

/** Reads `text` and applies the §7.2 ERROR rules (plus `type_absent`). No findings means conformant. */
export function checkAttractorConformance(text: string, options: ConformanceOptions = {}): ConformanceResult {
  const read = readAttractor(text, options);
  if (!read.graph) return { findings: [{ rule: 'grammar', message: read.error ?? 'unreadable' }] };
  return { graph: read.graph, findings: lintGraph(read.graph) };
}

// ---- tokens -------------------------------------------------------------------------------

type TokenKind = 'word' | 'string' | 'punct' | 'arrow' | 'end';

interface Token {
  readonly kind: TokenKind;
  /** Words and punctuation: as written; strings: the unescaped value. */
  readonly text: string;
  readonly offset: number;
}

const wordChar = /[A-Za-z0-9_.:\-]/;

function tokenize(text: string): { tokens: Token[]; error?: string } {
  const tokens: Token[] = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i];
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i++;
      continue;
    }
    if (c === '/' && text[i + 1] === '/') {
      while (i < n && text[i] !== '\n') i++;
      continue;
    }
    if (c === '/' && text[i + 1] === '*') {
      const close = text.indexOf('*/', i + 2);
      if (close < 0) return { tokens, error: `a block comment opened at offset ${i} never closes` };
      i = close + 2;
      continue;
    }
    if (c === '"') {
      const start = i;
      let value = '';
      i++;
      for (;;) {
        if (i >= n) return { tokens, error: `the string at offset ${start} never closes` };
        const d = text[i];
        if (d === '"') {
          i++;
          break;
        }
        if (d === '\\') {
          const e = text[i + 1];
          if (e === '"') value += '"';
          else if (e === 'n') value += '\n';
          else if (e === 't') value += '\t';
          else if (e === '\\') value += '\\';
          else return { tokens, error: `the string at offset ${start} holds \`\\${e ?? ''}\`, which is not one of the escapes \\" \\n \\t \\\\` };
          i += 2;
          continue;
        }
        value += d;
        i++;
      }
      tokens.push({ kind: 'string', text: value, offset: start });
      continue;
    }
    if (c === '-' && text[i + 1] === '>') {
      tokens.push({ kind: 'arrow', text: '->', offset: i });
      i += 2;
      continue;
    }
    if ('{}[]=;,'.includes(c)) {
      tokens.push({ kind: 'punct', text: c, offset: i });
      i++;
      continue;
    }
    if (wordChar.test(c)) {
      const start = i;
      while (i < n && wordChar.test(text[i]) && !(text[i] === '-' && text[i + 1] === '>')) i++;
      tokens.push({ kind: 'word', text: text.slice(start, i), offset: start });
      continue;
    }
    return { tokens, error: `character ${JSON.stringify(c)} at offset ${i} is not part of the grammar` };
  }
  tokens.push({ kind: 'end', text: '', offset: n });
  return { tokens };
}

// ---- grammar (§2.2) -------------------------------------------------------------------------

const identifier = /^[A-Za-z_][A-Za-z0-9_]*$/;
const qualifiedId = /^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+$/;
const integer = /^-?[0-9]+$/;
const float = /^-?[0-9]*\.[0-9]+$/;
const duration = /^-?[0-9]+(?:ms|s|m|h|d)$/;
const bareValue = /^[A-Za-z_][A-Za-z0-9_.:\-]*$/;
const keywords = new Set(['digraph', 'graph', 'node', 'edge', 'subgraph', 'strict']);

function isKeyword(word: string): boolean {
  return keywords.has(word.toLowerCase());
}

class GrammarError extends Error {}

interface Scope {
  nodeDefaults: Map<string, AttractorValue>;
  edgeDefaults: Map<string, AttractorValue>;
}

function readAttractor(text: string, options: ConformanceOptions): { graph?: AttractorGraph; error?: string } {
  const lexed = tokenize(text);
  if (lexed.error) return { error: lexed.error };
  const tokens = lexed.tokens;
  let pos = 0;
  const peek = (k = 0): Token => tokens[Math.min(pos + k, tokens.length - 1)];
  const fail = (what: string): never => {
    const t = peek();
    throw new GrammarError(`${what}, found ${t.kind === 'end' ? 'the end of the file' : JSON.stringify(t.text)} at offset ${t.offset}`);
  };
  const isPunct = (t: Token, p: string): boolean => t.kind === 'punct' && t.text === p;
  const expectPunct = (p: string): void => {
    if (!isPunct(peek(), p)) fail(`expected \`${p}\``);
    pos++;
  };
  const nodeId = (): string => {
    const t = peek();
    if (t.kind !== 'word' || !identifier.test(t.text) || isKeyword(t.text)) fail('expected a node identifier ([A-Za-z_][A-Za-z0-9_]*, not a keyword)');
    pos++;
    return t.text;
  };
  const value = (): AttractorValue => {
    const t = peek();
    pos++;
    if (t.kind === 'string') return { kind: 'string', text: t.text };
    if (t.kind === 'word') {
      if (t.text === 'true' || t.text === 'false') return { kind: 'boolean', text: t.text };
      if (integer.test(t.text)) return { kind: 'integer', text: t.text };
      if (float.test(t.text)) return { kind: 'float', text: t.text };
      if (duration.test(t.text)) return { kind: 'duration', text: t.text };
      if (bareValue.test(t.text)) return { kind: 'bare', text: t.text };
    }
    pos--;
    return fail('expected a value (String, Integer, Float, Boolean, Duration or BareValue)');
  };
  const key = (): string => {
    const t = peek();
    if (t.kind === 'word' && (identifier.test(t.text) || qualifiedId.test(t.text))) {
      pos++;
      return t.text;
    }
    if (options.lenient && t.kind === 'string' && (identifier.test(t.text) || qualifiedId.test(t.text))) {
      pos++;
      return t.text;
    }
    return fail('expected an attribute key (Identifier or QualifiedId)');
  };
  const attrBlock = (): Map<string, AttractorValue> => {
    expectPunct('[');
    const out = new Map<string, AttractorValue>();
    for (;;) {
      const k = key();
      expectPunct('=');
      out.set(k, value());
      if (isPunct(peek(), ',')) {
        pos++;
        continue;
      }
      if (isPunct(peek(), ']')) {
        pos++;
        return out;
      }
      fail('expected `,` or `]` after an attribute (attributes are separated by commas)');
    }
  };
  const optionalSemicolon = (): void => {
    if (isPunct(peek(), ';')) pos++;
  };

  const graphAttrs = new Map<string, AttractorValue>();
  const nodes = new Map<string, AttractorNode>();
  const edges: AttractorEdge[] = [];
  let hasSubgraph = false;

  const declareNode = (id: string, explicit: Map<string, AttractorValue>, scope: Scope): void => {
    const existing = nodes.get(id);
    if (existing) {
      for (const [k, v] of explicit) existing.attrs.set(k, v);
      return;
    }
    nodes.set(id, { id, attrs: new Map([...scope.nodeDefaults, ...explicit]) });
  };

  const statements = (scope: Scope, root: boolean): void => {
    while (!isPunct(peek(), '}')) {
      const t = peek();
      if (t.kind === 'end') fail('expected `}`');
      if (t.kind === 'word' && isKeyword(t.text)) {
        const word = t.text;
        if (word === 'graph' || word === 'node' || word === 'edge') {
          pos++;
          const attrs = attrBlock();
          optionalSemicolon();
          const target = word === 'graph' ? (root ? graphAttrs : undefined) : word === 'node' ? scope.nodeDefaults : scope.edgeDefaults;
          if (target) for (const [k, v] of attrs) target.set(k, v);
          continue;
        }
        if (word === 'subgraph') {
          pos++;
          hasSubgraph = true;
          if (peek().kind === 'word') nodeId();
          expectPunct('{');
          statements({ nodeDefaults: new Map(scope.nodeDefaults), edgeDefaults: new Map(scope.edgeDefaults) }, false);
          expectPunct('}');
          continue;
        }
        fail(`\`${word}\` cannot start a statement here`);
      }
      // GraphAttrDecl: Identifier '=' Value (a quoted key only when lenient)
      if ((t.kind === 'word' || (options.lenient && t.kind === 'string')) && isPunct(peek(1), '=')) {
        const k = t.kind === 'word' ? t.text : t.text;
        if (t.kind === 'word' && !identifier.test(k) && !(options.lenient && qualifiedId.test(k))) fail('expected an identifier before `=`');
        if (t.kind === 'string' && !identifier.test(k) && !qualifiedId.test(k)) fail('expected an attribute key before `=`');
        pos += 2;
        const v = value();
        optionalSemicolon();
        if (root) graphAttrs.set(k, v);
        continue;
      }
      const first = nodeId();
      if (peek().kind === 'arrow') {
        const chain = [first];
        while (peek().kind === 'arrow') {
          pos++;
          chain.push(nodeId());
        }
        const attrs = isPunct(peek(), '[') ? attrBlock() : new Map<string, AttractorValue>();
        optionalSemicolon();
        for (let i = 0; i + 1 < chain.length; i++) {
          edges.push({ from: chain[i], to: chain[i + 1], attrs: new Map([...scope.edgeDefaults, ...attrs]) });
        }
        continue;
      }
      const attrs = isPunct(peek(), '[') ? attrBlock() : new Map<string, AttractorValue>();
      optionalSemicolon();
      declareNode(first, attrs, scope);
    }
  };

  try {
    const head = peek();
    if (head.kind === 'word' && head.text.toLowerCase() === 'strict') fail('`strict` graphs are rejected');
    if (head.kind !== 'word' || head.text !== 'digraph') fail('expected `digraph` (only directed graphs are accepted)');
    pos++;
    const nameToken = peek();
    if (nameToken.kind !== 'word' || !identifier.test(nameToken.text)) fail('expected the graph identifier after `digraph`');
    pos++;
    expectPunct('{');
    statements({ nodeDefaults: new Map(), edgeDefaults: new Map() }, true);
    expectPunct('}');
    if (peek().kind !== 'end') fail('expected the end of the file (one digraph per file)');
    return { graph: { name: nameToken.text, attrs: graphAttrs, nodes, edges, hasSubgraph } };
  } catch (error) {
    if (error instanceof GrammarError) return { error: error.message };
    throw error;
  }
}

// ---- §7.2 rules ---------------------------------------------------------------------------

function attr(node: AttractorNode, name: string): string | undefined {
  return node.attrs.get(name)?.text;
}

function lintGraph(graph: AttractorGraph): ConformanceFinding[] {
  const findings: ConformanceFinding[] = [];
  const all = [...graph.nodes.values()];
  const starts = all.filter((n) => attr(n, 'shape') === 'Mdiamond' || n.id === 'start' || n.id === 'Start');
  const exits = all.filter((n) => attr(n, 'shape') === 'Msquare' || n.id === 'exit' || n.id === 'end');
  if (starts.length !== 1) findings.push({ rule: 'start_node', message: `expected exactly one start node, found ${starts.length} (${starts.map((n) => n.id).join(', ')})` });
  if (exits.length !== 1) findings.push({ rule: 'terminal_node', message: `expected exactly one terminal node, found ${exits.length} (${exits.map((n) => n.id).join(', ')})` });
  for (const e of graph.edges) {
    for (const end of [e.from, e.to]) {
      if (!graph.nodes.has(end)) findings.push({ rule: 'edge_target_exists', message: `edge ${e.from} -> ${e.to} names ${end}, which no node statement declares`, edge: [e.from, e.to] });
    }
  }
  if (starts.length === 1) {
    const start = starts[0].id;
    for (const e of graph.edges) if (e.to === start) findings.push({ rule: 'start_no_incoming', message: `edge ${e.from} -> ${e.to} enters the start node`, edge: [e.from, e.to] });
    const successors = new Map<string, string[]>();
    for (const e of graph.edges) successors.set(e.from, [...(successors.get(e.from) ?? []), e.to]);
    const seen = new Set([start]);
    const queue = [start];
    for (let head = 0; head < queue.length; head++) {
      for (const next of successors.get(queue[head]) ?? []) {
        if (seen.has(next)) continue;
        seen.add(next);
        queue.push(next);
      }
    }
    for (const n of all) if (!seen.has(n.id)) findings.push({ rule: 'reachability', message: `node ${n.id} cannot be reached from the start node`, nodeId: n.id });
  }
  if (exits.length === 1) {
    const exit = exits[0].id;
    for (const e of graph.edges) if (e.from === exit) findings.push({ rule: 'exit_no_outgoing', message: `edge ${e.from} -> ${e.to} leaves the exit node`, edge: [e.from, e.to] });
  }
  for (const e of graph.edges) {
    const condition = e.attrs.get('condition');
    if (condition === undefined) continue;
    const problem = conditionProblem(condition.text);
    if (problem) findings.push({ rule: 'condition_syntax', message: `the condition of edge ${e.from} -> ${e.to} ${problem}`, edge: [e.from, e.to] });
  }
  for (const n of all) if (n.attrs.has('type')) findings.push({ rule: 'type_absent', message: `node ${n.id} sets type`, nodeId: n.id });
  return findings;
}

// ---- §10.2 conditions ---------------------------------------------------------------------

const conditionKey = /^(?:outcome|preferred_label|context\.[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)$/;
const bareLiteral = /^[A-Za-z_][A-Za-z0-9_.:\-]*$/;

/**
 * Why a condition does not follow `Clause ( '&&' Clause )*` with `Clause ::= Key ('=' | '!=')
 * Literal`, or undefined when it does. An empty condition is the attribute's default (always
 * eligible) and passes.
 */
export function conditionProblem(condition: string): string | undefined {
  if (condition.trim().length === 0) return undefined;
  for (const raw of condition.split('&&')) {
    const clause = raw.trim();
    if (clause.length === 0) return 'has an empty clause around `&&`';
    const notEqual = clause.indexOf('!=');
    const equal = clause.indexOf('=');
    if (equal < 0) return `has a clause without \`=\` or \`!=\`: ${JSON.stringify(clause)}`;
    const at = notEqual >= 0 && notEqual < equal ? notEqual : equal;
    const width = at === notEqual ? 2 : 1;
    const left = clause.slice(0, at).trim();
    const right = clause.slice(at + width).trim();
    if (!conditionKey.test(left)) return `has the key ${JSON.stringify(left)}, which is not outcome, preferred_label or context.<path>`;
    if (!isLiteral(right)) return `has the literal ${JSON.stringify(right)}, which is not a String, Integer, Boolean or bare literal`;
  }
  return undefined;
}

function isLiteral(text: string): boolean {
  if (text === 'true' || text === 'false' || integer.test(text) || bareLiteral.test(text)) return true;
  if (text.length < 2 || text[0] !== '"' || text[text.length - 1] !== '"') return false;
  const body = text.slice(1, -1);
  for (let i = 0; i < body.length; i++) {
    if (body[i] === '"') return false;
    if (body[i] === '\\') {
      if (!'"nt\\'.includes(body[i + 1] ?? '')) return false;
      i++;
    }
  }
  return true;
}
