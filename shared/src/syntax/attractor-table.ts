/**
 * THE table of Attractor facts (docs/compatibility.md#reserved-attributes, Attractor spec §2): the
 * attributes a runner reserves in each scope, what it does with each, the identifier rule, the DOT
 * keywords and the boundary node ids. The lint, hovers, completion, export, import and the
 * generated docs all read this file; nothing else in the engine spells one of these names.
 *
 * The descriptions are ours, written from the Attractor specification for hovers.
 *
 * It sits with the syntax, below every folder that reads it: the parser's id suggestions, the
 * lint, resolution, the IDE features, export and import.
 *
 * The second half is THE mapping between DarkPrint node types and Attractor shapes and
 * handlers (docs/compatibility.md#type-mapping), with the names the exporter writes and the ones it
 * withholds. Export reads it forwards, import reads it backwards, and the export header's
 * disclosure lists are derived from it, so the two directions and the header cannot drift apart.
 */

export type AttractorScope = 'graph' | 'node' | 'edge';

/** How a runner reads the value (Attractor spec §2.4; `list` is a comma-separated string). */
export type AttractorValueType = 'string' | 'integer' | 'boolean' | 'duration' | 'condition' | 'list';

export interface AttractorAttribute {
  readonly scope: AttractorScope;
  readonly name: string;
  readonly valueType: AttractorValueType;
  /** The value a runner assumes when the attribute is absent, as written in DOT; undefined when it has none. */
  readonly defaultValue?: string;
  /** One line: what the runner does with it. */
  readonly description: string;
}

function attribute(
  scope: AttractorScope,
  name: string,
  valueType: AttractorValueType,
  defaultValue: string | undefined,
  description: string,
): AttractorAttribute {
  return defaultValue === undefined ? { scope, name, valueType, description } : { scope, name, valueType, defaultValue, description };
}

/**
 * Every reserved attribute, per scope in DarkPrint's order (the order the export header lists
 * them in).
 * Membership is exact and case-sensitive.
 */
export const attractorAttributes: readonly AttractorAttribute[] = Object.freeze([
  // ---- graph (12) ----
  attribute('graph', 'goal', 'string', '', 'The pipeline\'s goal; prompts can refer to it as `$goal` and the run context holds it as `graph.goal`.'),
  attribute('graph', 'label', 'string', '', 'The pipeline\'s display name, shown when the graph is drawn.'),
  attribute('graph', 'model_stylesheet', 'string', '', 'CSS-like rules that give nodes their default `llm_model`, `llm_provider` and `reasoning_effort` by shape, class or id.'),
  attribute('graph', 'default_max_retries', 'integer', '0', 'How many extra attempts a node gets when it sets no `max_retries` of its own.'),
  attribute('graph', 'default_max_retry', 'integer', '0', 'Older spelling of `default_max_retries`, still accepted by runners.'),
  attribute('graph', 'default_fidelity', 'string', '', 'How much earlier context a node\'s LLM session receives when neither the node nor its incoming edge says; unset means `compact`.'),
  attribute('graph', 'retry_target', 'string', '', 'The node to jump back to when the run reaches its exit with a goal gate still unsatisfied.'),
  attribute('graph', 'fallback_retry_target', 'string', '', 'Where to jump when `retry_target` is missing or names no node.'),
  attribute('graph', 'stack.child_dotfile', 'string', undefined, 'The child pipeline file that a supervisor (`house`) node starts and watches; there is no default.'),
  attribute('graph', 'stack.child_workdir', 'string', undefined, 'The working directory of the supervised child run; the current directory when unset.'),
  attribute('graph', 'tool_hooks.pre', 'string', '', 'A shell command run before every LLM tool call; a non-zero exit skips the call.'),
  attribute('graph', 'tool_hooks.post', 'string', '', 'A shell command run after every LLM tool call, for logging and audit.'),
  // ---- node (28) ----
  attribute('node', 'label', 'string', undefined, 'The node\'s display name in the UI, prompts and telemetry; the node id when unset.'),
  attribute('node', 'shape', 'string', 'box', 'Chooses the handler that runs the node (box: LLM task, hexagon: human gate, diamond: routing, parallelogram: tool, …).'),
  attribute('node', 'type', 'string', '', 'Overrides the handler chosen by `shape` with a handler named directly.'),
  attribute('node', 'prompt', 'string', '', 'The instruction an LLM stage receives (with `$goal` expanded); the `label` stands in when it is empty.'),
  attribute('node', 'max_retries', 'integer', undefined, 'Extra attempts after the first when the node fails; inherits the graph\'s `default_max_retries`.'),
  attribute('node', 'goal_gate', 'boolean', 'false', 'When true, the run may not exit until this node has succeeded (fully or partially).'),
  attribute('node', 'retry_target', 'string', '', 'The node to jump to when this one fails and its retries are used up.'),
  attribute('node', 'fallback_retry_target', 'string', '', 'Where to jump when `retry_target` is missing or names no node.'),
  attribute('node', 'fidelity', 'string', undefined, 'How much earlier context this node\'s LLM session receives (`full`, `truncate`, `compact`, `summary:low|medium|high`).'),
  attribute('node', 'thread_id', 'string', undefined, 'Nodes with the same thread id share one LLM session when fidelity is `full`.'),
  attribute('node', 'class', 'list', '', 'Comma-separated class names that `model_stylesheet` rules can select with `.name`.'),
  attribute('node', 'timeout', 'duration', undefined, 'The longest the node may run, e.g. `900s` or `15m`; no limit when unset.'),
  attribute('node', 'llm_model', 'string', undefined, 'The model the node\'s LLM session uses, overriding the stylesheet.'),
  attribute('node', 'llm_provider', 'string', undefined, 'The LLM provider to call; guessed from the model when unset.'),
  attribute('node', 'reasoning_effort', 'string', 'high', 'How hard the model reasons: `low`, `medium` or `high`.'),
  attribute('node', 'auto_status', 'boolean', 'false', 'When true and the handler writes no status, the runner records a success for it.'),
  attribute('node', 'allow_partial', 'boolean', 'false', 'When true, a partial success is accepted once retries run out instead of failing the node.'),
  attribute('node', 'human.default_choice', 'string', undefined, 'The edge target a human gate picks when nobody answers in time; without it the gate asks for a retry.'),
  attribute('node', 'join_policy', 'string', 'wait_all', 'How a parallel (`component`) node decides it is done: `wait_all` or `first_success`.'),
  attribute('node', 'max_parallel', 'integer', '4', 'How many branches a parallel node runs at once.'),
  attribute('node', 'tool_command', 'string', undefined, 'The shell command a tool (`parallelogram`) node runs; the node fails without one.'),
  attribute('node', 'manager.poll_interval', 'duration', '45s', 'How long a supervisor node waits between looks at its child run.'),
  attribute('node', 'manager.max_cycles', 'integer', '1000', 'How many observe cycles a supervisor node makes before it gives up and fails.'),
  attribute('node', 'manager.stop_condition', 'condition', '', 'A condition that, once true, ends the supervisor loop with success.'),
  attribute('node', 'manager.actions', 'list', 'observe,wait', 'What the supervisor does each cycle, from `observe`, `steer` and `wait`.'),
  attribute('node', 'stack.child_autostart', 'boolean', 'true', 'Whether the supervisor starts the child pipeline itself.'),
  attribute('node', 'tool_hooks.pre', 'string', '', 'A shell command run before each of this node\'s LLM tool calls, overriding the graph\'s.'),
  attribute('node', 'tool_hooks.post', 'string', '', 'A shell command run after each of this node\'s LLM tool calls, overriding the graph\'s.'),
  // ---- edge (6) ----
  attribute('edge', 'label', 'string', '', 'The edge\'s caption, also matched against a node\'s preferred label when the runner picks the next edge.'),
  attribute('edge', 'condition', 'condition', '', 'A guard such as `outcome=success`; edges whose guard holds are preferred when the runner picks the next edge.'),
  attribute('edge', 'weight', 'integer', '0', 'Priority among eligible edges: the highest weight wins, then the target id that sorts first.'),
  attribute('edge', 'fidelity', 'string', undefined, 'Overrides the context fidelity of the node this edge leads to.'),
  attribute('edge', 'thread_id', 'string', undefined, 'Overrides the LLM session thread of the node this edge leads to.'),
  attribute('edge', 'loop_restart', 'boolean', 'false', 'When true, taking this edge ends the run and starts a fresh one with a new log directory.'),
]);

function namesOf(scope: AttractorScope): readonly string[] {
  return Object.freeze(attractorAttributes.filter((a) => a.scope === scope).map((a) => a.name));
}

/** Reserved attribute names per scope, in DarkPrint's order (docs/compatibility.md#reserved-attributes). */
export const reservedAttributes: Readonly<Record<AttractorScope, readonly string[]>> = Object.freeze({
  graph: namesOf('graph'),
  node: namesOf('node'),
  edge: namesOf('edge'),
});

/** The table by scope, then by name (looked up per attribute of every node and edge, so no key is built per lookup). */
const attributeIndex: ReadonlyMap<AttractorScope, ReadonlyMap<string, AttractorAttribute>> = (() => {
  const index = new Map<AttractorScope, Map<string, AttractorAttribute>>();
  for (const a of attractorAttributes) {
    let names = index.get(a.scope);
    if (names === undefined) index.set(a.scope, (names = new Map()));
    names.set(a.name, a);
  }
  return index;
})();

/** The table entry for a reserved attribute, or undefined when `name` is not reserved in `scope` (exact, case-sensitive). */
export function attractorAttribute(scope: AttractorScope, name: string): AttractorAttribute | undefined {
  return attributeIndex.get(scope)?.get(name);
}

export function isReservedAttribute(scope: AttractorScope, name: string): boolean {
  return attributeIndex.get(scope)?.has(name) ?? false;
}

/** DOT statement keywords; compared case-insensitively. */
export const attractorKeywords: readonly string[] = Object.freeze(['digraph', 'edge', 'graph', 'node', 'strict', 'subgraph']);

/** Ids a runner treats as the pipeline's entry and exit by name; compared case-sensitively. */
export const boundaryNodeIds: readonly string[] = Object.freeze(['start', 'Start', 'exit', 'end']);

/** Units of Attractor's `Duration ::= Integer ( 'ms' | 's' | 'm' | 'h' | 'd' )`. */
export const durationUnits: readonly string[] = Object.freeze(['ms', 's', 'm', 'h', 'd']);

/** Attractor's `Identifier ::= [A-Za-z_][A-Za-z0-9_]*`. */
export function isAttractorIdentifier(id: string): boolean {
  if (id.length === 0) return false;
  for (let i = 0; i < id.length; i++) {
    const c = id.charCodeAt(i);
    const letter = (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
    if (letter) continue;
    if (i > 0 && c >= 48 && c <= 57) continue;
    return false;
  }
  return true;
}

export function isAttractorKeyword(id: string): boolean {
  return id.length >= 4 && id.length <= 8 && attractorKeywords.includes(id.toLowerCase());
}

export function isBoundaryNodeId(id: string): boolean {
  return boundaryNodeIds.includes(id);
}

/** A node id Attractor reads as an ordinary node: an identifier, not a keyword, not a boundary id. */
export function isUsableNodeId(id: string): boolean {
  return isAttractorIdentifier(id) && !isAttractorKeyword(id) && !isBoundaryNodeId(id);
}

/** Attractor's `Duration`: an optionally signed integer followed by one of the units, e.g. `900s`. */
export function isAttractorDuration(value: string): boolean {
  let i = value.charCodeAt(0) === 45 /* - */ ? 1 : 0;
  const digitsStart = i;
  while (i < value.length && value.charCodeAt(i) >= 48 && value.charCodeAt(i) <= 57) i++;
  if (i === digitsStart) return false;
  return durationUnits.includes(value.slice(i));
}

/**
 * A usable node id close to `id`, for messages and the rename quick fix: runs of characters
 * outside `[A-Za-z0-9_]` become one `_` (`code-builder` -> `code_builder`, `"my node"` ->
 * `my_node`), a leading digit gets `n_` (`2fast` -> `n_2fast`), a keyword or boundary id gets
 * `_step` (`start` -> `start_step`), and `_2`, `_3`, ... are appended while `isTaken` says so.
 */
export function suggestNodeId(id: string, isTaken: (candidate: string) => boolean = () => false): string {
  const trimmed = id.trim();
  let base = '';
  let pendingUnderscore = false;
  for (let i = 0; i < trimmed.length; i++) {
    const c = trimmed.charCodeAt(i);
    const ok = (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 95;
    if (ok) {
      if (pendingUnderscore && base.length > 0) base += '_';
      pendingUnderscore = false;
      base += trimmed[i];
    } else {
      pendingUnderscore = true;
    }
  }
  if (base.length === 0) base = 'node_step';
  else if (base.charCodeAt(0) >= 48 && base.charCodeAt(0) <= 57) base = `n_${base}`;
  if (isAttractorKeyword(base) || isBoundaryNodeId(base)) base = `${base}_step`;
  if (!isTaken(base)) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base}_${n}`;
    if (!isTaken(candidate)) return candidate;
  }
}

// ---- the type -> shape/handler mapping (docs/compatibility.md#type-mapping) -------------

/** One row: a DarkPrint node type, the Attractor shape it compiles to, and the handler that shape selects. */
export interface AttractorTypeRow {
  readonly type: string;
  readonly shape: string;
  readonly handler: string;
}

function row(type: string, shape: string, handler: string): AttractorTypeRow {
  return Object.freeze({ type, shape, handler });
}

/**
 * THE mapping, in DarkPrint's order (docs/compatibility.md#type-mapping). The order matters twice:
 * import lists the types of one shape in this order (the first is its default), and the header
 * lists nothing from here.
 */
export const attractorTypeRows: readonly AttractorTypeRow[] = Object.freeze([
  row('agent', 'box', 'codergen'),
  row('tool', 'box', 'codergen'),
  row('shell-tool', 'parallelogram', 'tool'),
  row('human-gate', 'hexagon', 'wait.human'),
  row('human-input', 'hexagon', 'wait.human'),
  row('decision', 'diamond', 'conditional'),
  row('validation', 'box', 'codergen'),
  row('parallel', 'component', 'parallel'),
  row('parallel.fan-in', 'tripleoctagon', 'parallel.fan_in'),
  row('manager-loop', 'house', 'stack.manager_loop'),
]);

/** The shape (and handler) of a node whose type has no row on its ancestor chain. */
export const fallbackRow: AttractorTypeRow = Object.freeze({ type: '', shape: 'box', handler: 'codergen' });

/** The pipeline's entry and exit nodes (Attractor spec §2.8). */
export const entryShape = 'Mdiamond';
export const exitShape = 'Msquare';
export const entryHandler = 'start';
export const exitHandler = 'exit';

/** Preferred ids of the entry and exit nodes the exporter adds (`_` is appended while a real node holds the name). */
export const entryNodeId = '__start';
export const exitNodeId = '__exit';

/** Labels of the entry and exit nodes. */
export const entryLabel = 'start';
export const exitLabel = 'exit';

/** The prefix of the `class` names the exporter derives from a node's type chain and phases. */
export const classPrefix = 'dp-';

/** Reserved attributes the exporter writes, per scope, in the order it writes them. */
export const emittedAttributes: Readonly<Record<AttractorScope, readonly string[]>> = Object.freeze({
  graph: Object.freeze(['goal', 'label']),
  node: Object.freeze(['label', 'shape', 'prompt', 'llm_model', 'max_retries', 'tool_command', 'class']),
  edge: Object.freeze(['label', 'condition', 'weight']),
});

/** DarkPrint's own node attributes in an export: the pinned card, and the topology id when it had to be rewritten. */
export const cardAttribute = 'card';
export const originalIdAttribute = 'dp_node';

/** Reserved node attributes the exporter holds back on purpose: `type` would override the handler the shape selects. */
export const withheldAttributes: Readonly<Record<AttractorScope, readonly string[]>> = Object.freeze({
  graph: Object.freeze([]),
  node: Object.freeze(['type']),
  edge: Object.freeze([]),
});

/** Reserved attributes with no default that a handler reads directly (a supervisor's child file, a gate's timeout choice, a tool's command). */
export const handlerNeededAttributes: Readonly<Record<AttractorScope, readonly string[]>> = Object.freeze({
  graph: Object.freeze(['stack.child_dotfile']),
  node: Object.freeze(['tool_command', 'human.default_choice']),
  edge: Object.freeze([]),
});

export const attractorScopes: readonly AttractorScope[] = Object.freeze(['graph', 'node', 'edge']);

/** Reserved attributes of `scope` a blueprint cannot set: reserved minus emitted minus withheld, in reserved order. */
export function unexpressedAttributes(scope: AttractorScope): readonly string[] {
  const emitted = new Set([...emittedAttributes[scope], ...withheldAttributes[scope]]);
  return reservedAttributes[scope].filter((name) => !emitted.has(name));
}

/**
 * The export header's two disclosure lists for `scope` (docs/compatibility.md#export-header): the
 * unexpressed names a handler needs with no default to fall back on, and the rest, which take the
 * runner's default.
 */
export function disclosedAttributes(scope: AttractorScope): { readonly defaulting: readonly string[]; readonly handlerNeeded: readonly string[] } {
  const needed = new Set(handlerNeededAttributes[scope]);
  const unexpressed = unexpressedAttributes(scope);
  return {
    defaulting: unexpressed.filter((name) => !needed.has(name)),
    handlerNeeded: unexpressed.filter((name) => needed.has(name)),
  };
}

const rowByType: ReadonlyMap<string, AttractorTypeRow> = new Map(attractorTypeRows.map((r) => [r.type, r]));

/** The row of exactly this type id, if it has one. */
export function typeRow(type: string): AttractorTypeRow | undefined {
  return rowByType.get(type);
}

/**
 * The row a node of `type` compiles through: the first row found on its ancestor chain
 * (`chain` is the type's own id first, then its broader terms, nearest first), else the fallback.
 */
export function rowForChain(chain: readonly string[]): AttractorTypeRow {
  for (const id of chain) {
    const found = rowByType.get(id);
    if (found) return found;
  }
  return fallbackRow;
}

/** The reverse table, derived from the rows: each shape with its types in row order. */
export const typesByShape: ReadonlyMap<string, readonly string[]> = (() => {
  const out = new Map<string, string[]>();
  for (const r of attractorTypeRows) {
    const list = out.get(r.shape);
    if (list) list.push(r.type);
    else out.set(r.shape, [r.type]);
  }
  return new Map([...out].map(([shape, types]) => [shape, Object.freeze(types)] as const));
})();

/** The handler a shape selects (Attractor spec §2.8), derived from the rows plus the entry and exit shapes. */
export function handlerForShape(shape: string): string | undefined {
  if (shape === entryShape) return entryHandler;
  if (shape === exitShape) return exitHandler;
  const first = typesByShape.get(shape)?.[0];
  return first === undefined ? undefined : rowByType.get(first)!.handler;
}

/** `dp-` + the id lowercased, every run of characters outside `[a-z0-9-]` turned into one `-`. */
export function className(id: string): string {
  return classPrefix + id.toLowerCase().replace(/[^a-z0-9-]+/g, '-');
}

/**
 * An Attractor identifier made from any text (docs/compatibility.md#identifiers-and-node-ids): each
 * code point outside `[A-Za-z0-9_]` becomes `_` (an astral character is one code point), an empty
 * result becomes `n_`, and a leading digit or a DOT keyword gets an `n_` prefix.
 */
export function toIdentifier(raw: string): string {
  let out = '';
  for (const ch of raw) {
    const c = ch.charCodeAt(0);
    const keep = ch.length === 1 && ((c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 95);
    out += keep ? ch : '_';
  }
  if (out.length === 0) return 'n_';
  const first = out.charCodeAt(0);
  if ((first >= 48 && first <= 57) || isAttractorKeyword(out)) return `n_${out}`;
  return out;
}
