/**
 * THE core vocabulary: the 54 terms every card is read against (docs/compatibility.md#core-terms),
 * as one table.
 *
 * Hovers, completions, term checks, the analyzer, the exporter and `docs/vocabulary.md` all read
 * this table; nothing else lists a term. Ids, labels, `broader`, the flags and the weights are
 * DarkPrint's facts; every sentence of meaning here is ours.
 */
import { configuredWeight, defaultAnalysisConfig } from './analysis-config';
import type { Term, TermKind } from './types';

/** What a kind of term does on a card and in the analysis (hover text, docs). */
export interface KindInfo {
  readonly kind: TermKind;
  /** A short heading: what the kind answers. */
  readonly title: string;
  /** The card field(s) that hold terms of this kind. */
  readonly cardFields: readonly string[];
  /** What writing such a term in the card says. */
  readonly inCard: string;
  /** What the engine does with terms of this kind. */
  readonly analyzer: string;
  /** Whether `ontology/extensions.yaml` may add terms of this kind. */
  readonly extensible: boolean;
}

export const kindInfo: Readonly<Record<TermKind, KindInfo>> = Object.freeze({
  phase: {
    kind: 'phase',
    title: 'the five lifecycle stages (closed)',
    cardFields: ['phase'],
    inCard:
      'Says in which lifecycle stages the node works: none, one or several. Leaving it empty is a complete answer, and a phase is never namespaced.',
    analyzer:
      'Phase coverage lists the nodes under each phase in lifecycle order and names the phases nobody covers; it describes the graph and never changes a score.',
    extensible: false,
  },
  'node-type': {
    kind: 'node-type',
    title: 'what does the job at a node',
    cardFields: ['type'],
    inCard:
      'Names the one kind of worker at the node. It is the whole of how a card says whether a person acts there and whether the node decides the flow.',
    analyzer:
      'Autonomy counts a node as staffed when its type falls under `human-in-the-loop`, and as a control point when its type or an ancestor governs the flow; the criteria-leak check treats `validation` nodes as judges; export picks the Attractor shape from the nearest ancestor with one.',
    extensible: true,
  },
  'risk-marker': {
    kind: 'risk-marker',
    title: 'what a node may cost in safety',
    cardFields: ['risk_markers'],
    inCard:
      'Declares a risk the node brings. Each distinct marker is charged once to the whole blueprint, however many nodes carry it.',
    analyzer:
      'Security starts at 4, subtracts the weight of every distinct marker present and rounds into 1..4. Three markers are also inferred from the graph, whatever the cards declare.',
    extensible: true,
  },
  'data-type': {
    kind: 'data-type',
    title: 'what an edge carries',
    cardFields: ['inputs[].type', 'outputs[].type', 'cannot'],
    inCard:
      'Types what a port carries. In `cannot` it names what the node must never receive, together with everything narrower.',
    analyzer:
      'An edge pairs an output with an input of the same type, of a broader type, or with `any` on either side; `cannot` fails an edge whose carrying output is the prohibited type or narrower; outputs under `acceptance-criteria` anchor the criteria-leak check.',
    extensible: true,
  },
  tool: {
    kind: 'tool',
    title: 'what a node is permitted to do',
    cardFields: ['tools'],
    inCard:
      'Lists the capabilities the node needs from its host. (The `mcp` field, which names the server that supplies them, is free text and checked against nothing.)',
    analyzer:
      'A tool under `web-search`, `http-fetch`, `sql` or `ci` brings outside data in: unless every consumer of the node is a `validation` node, the node carries `unvalidated-external-access`.',
    extensible: true,
  },
});

/** The tools whose use makes a node read from outside the blueprint (docs/compatibility.md#inferred-risk-markers). */
export const externalAccessTools: readonly string[] = Object.freeze(['web-search', 'http-fetch', 'sql', 'ci']);

/** The five phases in lifecycle order, the order coverage reports in. */
export const phaseOrder: readonly string[] = Object.freeze(['planning', 'implementation', 'testing', 'debugging', 'deployment']);

/** The 54 core terms: phases in lifecycle order, then each kind by id. */
export const coreTerms: readonly Term[] = deepFreezeTerms([
  // ---- phase (5) -----------------------------------------------------------------------
  phase('planning', 'Planning', 'Turns a request into a plan, together with the criteria the result will be judged by.'),
  phase('implementation', 'Implementation', 'Builds the artefact that the plan calls for.'),
  phase('testing', 'Testing', 'Exercises the artefact and gathers the evidence of whether it works.'),
  phase('debugging', 'Debugging', 'Starts from evidence of a failure and works out a focused repair.'),
  phase('deployment', 'Deployment', 'Ships the result: releasing, publishing or handing it over.'),

  // ---- node-type (13) ------------------------------------------------------------------
  nodeType('agent', 'Agent', {}, 'A model that reasons over its inputs; two runs need not give the same output.'),
  nodeType('decision', 'Decision', { broader: 'evaluative', governsFlow: true },
    'A branch point: it weighs the state of the run and picks the next path, producing no artefact of its own.'),
  nodeType('evaluative', 'Evaluative', { governsFlow: true, abstract: true },
    'Category for nodes whose job is to judge or to route rather than to make something.'),
  nodeType('human-gate', 'Human gate', { broader: 'human-in-the-loop', impliesHuman: true, governsFlow: true },
    'A person approves or rejects the work before the run moves on.'),
  nodeType('human-in-the-loop', 'Human in the loop', { abstract: true },
    'Category for nodes where a person acts; the autonomy reading asks whether a node\'s type falls under it.'),
  nodeType('human-input', 'Human input', { broader: 'human-in-the-loop', impliesHuman: true },
    'A person provides data or content that the run needs.'),
  nodeType('manager-loop', 'Manager loop', { broader: 'orchestration', governsFlow: true },
    'Watches over a sub-run: checks on its work, decides whether to step in, and sends it round again until its stopping condition is met.'),
  nodeType('orchestration', 'Orchestration', { governsFlow: true, abstract: true },
    'Category for nodes that shape the run itself: how many copies of a step run, where they meet again, and whether the whole run repeats.'),
  nodeType('parallel', 'Parallel', { broader: 'orchestration', governsFlow: true },
    'Forks the run into branches that go ahead side by side; it makes nothing and only decides how many copies of the work run.'),
  nodeType('parallel.fan-in', 'Parallel fan-in', { broader: 'orchestration', governsFlow: true },
    'Waits for the branches a parallel node started and merges them into a single line; it decides when the run goes on, not with what.'),
  nodeType('shell-tool', 'Shell tool', { broader: 'tool' },
    'A tool node whose instruction is a shell command that the runner executes as written.'),
  nodeType('tool', 'Tool', {},
    'An operation with a predictable result, such as compiling, formatting, running a test suite or calling an API.'),
  nodeType('validation', 'Validation', { broader: 'evaluative', governsFlow: true },
    'Checks an artefact against criteria and returns a verdict together with its evidence.'),

  // ---- risk-marker (9) -----------------------------------------------------------------
  marker('arbitrary-code-execution', 'Arbitrary code execution', 'declared', 'execution-risk',
    'The node may run code or shell commands that nobody fixed in advance.'),
  marker('criteria-leak', 'Criteria leak', 'inferred', 'isolation-breach',
    'The node has sight of the acceptance criteria that its own work will be judged by.'),
  marker('execution-risk', 'Execution risk', 'category', undefined,
    'Category for markers about running code that the blueprint did not settle beforehand.'),
  marker('irreversible-action', 'Irreversible action', 'declared', undefined,
    'The node does things that cannot be taken back, such as publishing, sending or deleting.'),
  marker('isolation-breach', 'Isolation breach', 'category', undefined,
    'Category for markers where information or state crosses a boundary the topology was meant to keep.'),
  marker('secret-access', 'Secret access', 'declared', undefined,
    'The node handles credentials: passwords, keys or tokens.'),
  marker('unbounded-loop', 'Unbounded loop', 'inferred', undefined,
    'The node is part of a cycle that has neither an iteration cap nor a way out.'),
  marker('unchecked-write', 'Unchecked write', 'declared', 'isolation-breach',
    'The node writes to files, a database or a repository with no check before it.'),
  marker('unvalidated-external-access', 'Unvalidated external access', 'inferred', undefined,
    'The node reaches the network, an API or some other outside resource, and no validation step guards what comes back.'),

  // ---- data-type (15) ------------------------------------------------------------------
  dataType('acceptance-criteria', 'Acceptance criteria', 'structured',
    'The conditions a result has to meet: written while planning, used to judge the outcome.'),
  dataType('any', 'Any', undefined, 'The top of the type lattice: it accepts every type and promises nothing about the content.'),
  dataType('artifact', 'Artifact', 'binary', 'A file, or a bundle of files, that the run builds.'),
  dataType('binary', 'Binary', 'any', 'Bytes the graph carries along without looking inside them.'),
  dataType('code', 'Code', 'text', 'Source code in some language, to be executed or reviewed rather than read as prose.'),
  dataType('event', 'Event', 'signal', 'A named, timestamped notice that something occurred.'),
  dataType('json', 'JSON', 'structured', 'A JSON value: self-describing and readable by a machine.'),
  dataType('markdown', 'Markdown', 'text', 'Prose with Markdown structure such as headings, lists and emphasis.'),
  dataType('plan', 'Plan', 'structured', 'An ordered list of steps that a later node is meant to carry out.'),
  dataType('report', 'Report', 'structured', 'A finished account of what happened or what was found, written to be read.'),
  dataType('signal', 'Signal', 'any', 'A small message that coordinates the run rather than carrying content.'),
  dataType('status', 'Status', 'signal', 'The result of a step, in a form the graph can branch on.'),
  dataType('structured', 'Structured', 'any', 'Data whose shape the receiving node can rely on.'),
  dataType('table', 'Table', 'structured', 'Records laid out in rows under a fixed set of columns.'),
  dataType('text', 'Text', 'any', 'Prose with no structure that a downstream node can count on.'),

  // ---- tool (12) -----------------------------------------------------------------------
  tool('ci', 'CI', 'Starts or inspects a continuous-integration pipeline.'),
  tool('file-io', 'File I/O', 'Reads from and writes to files on the host\'s file system.'),
  tool('git', 'Git', 'Works with a Git repository: branches, commits and diffs.'),
  tool('http-fetch', 'HTTP fetch', 'Requests a URL over HTTP and returns what the server sent back.'),
  tool('human-review', 'Human review', 'Hands the work to a person and waits for their judgement.'),
  tool('messaging', 'Messaging', 'Posts to a chat or notification channel.'),
  tool('python-sandbox', 'Python sandbox', 'Runs Python inside an isolated interpreter.'),
  tool('shell', 'Shell', 'Executes shell commands on the host machine.'),
  tool('sql', 'SQL', 'Runs SQL statements against a database.'),
  tool('tool-capability', 'Tool capability', 'The root of the tool vocabulary: something a node needs its host to let it do.'),
  tool('vector-store', 'Vector store', 'Embeds, stores and searches vectors, for recall by meaning.'),
  tool('web-search', 'Web search', 'Sends a query to a search engine and returns ranked results.'),
]);

/** The ids of the core table (rooting of local terms walks until it meets one). */
export const coreTermIds: ReadonlySet<string> = new Set(coreTerms.map((t) => t.id));

function deepFreezeTerms(terms: readonly CoreTerm[]): readonly Term[] {
  return Object.freeze(terms.map((t) => Object.freeze({ ...t })));
}

// ---- builders: one per kind, so each row of the table states only its own facts ----------

type CoreTerm = Omit<Term, 'local' | 'deprecated'>;

function phase(id: string, label: string, meaning: string): CoreTerm {
  return { id, kind: 'phase', label, meaning };
}

function nodeType(
  id: string,
  label: string,
  flags: { broader?: string; impliesHuman?: boolean; governsFlow?: boolean; abstract?: boolean },
  meaning: string,
): CoreTerm {
  return {
    id,
    kind: 'node-type',
    label,
    meaning,
    ...(flags.broader !== undefined ? { broader: flags.broader } : {}),
    impliesHuman: flags.impliesHuman ?? false,
    governsFlow: flags.governsFlow ?? false,
    ...(flags.abstract ? { abstract: true } : {}),
  };
}

function marker(id: string, label: string, arrival: 'declared' | 'inferred' | 'category', broader: string | undefined, meaning: string): CoreTerm {
  const weight = configuredWeight(defaultAnalysisConfig, id);
  return {
    id,
    kind: 'risk-marker',
    label,
    meaning,
    ...(broader !== undefined ? { broader } : {}),
    ...(arrival === 'category' ? { abstract: true } : {}),
    ...(weight !== undefined ? { defaultWeight: weight } : {}),
    arrival,
  };
}

function dataType(id: string, label: string, broader: string | undefined, meaning: string): CoreTerm {
  return { id, kind: 'data-type', label, meaning, ...(broader !== undefined ? { broader } : { root: true }) };
}

function tool(id: string, label: string, meaning: string): CoreTerm {
  return id === 'tool-capability'
    ? { id, kind: 'tool', label, meaning, root: true }
    : { id, kind: 'tool', label, meaning, broader: 'tool-capability' };
}
