/**
 * Realistic synthetic bundles for benchmarks: `generateBundle({ nodes })` returns the files of
 * a bundle folder as `{ path, text }[]` (paths relative to the folder, `/`-separated), ready to
 * hand to `loadBundle` or to write to disk.
 *
 * The bundle is a chain of release units of ten nodes each (the last one cut short when
 * `nodes` is not a multiple of ten). A unit is what a real pipeline looks like:
 *
 *   intake -> criteria (acceptance-criteria producer) -------------> judge
 *   intake -> planner -> builder -> tester -> judge (validation) -> gate (human) -> publisher -> docs
 *                                    ^                         |
 *                                    +------ fixer <-----------+   (guarded cycle)
 *
 * and each unit's `docs` feeds the next unit's `intake`. Every card has a spec of about forty
 * words written from its role's phrasing with varied nouns, the ports of every edge pair with
 * exactly one compatible pair, dependencies are declared from the incoming edges, the fix loop
 * is guarded (the fixer declares `params.max_iterations`; the edges into and out of it carry
 * `condition=`), testers are `shell-tool`s with a `tool_command`, builders refuse
 * `acceptance-criteria`, some intakes search the web, and publishers declare an irreversible
 * action. One card in twenty is JSON, the rest YAML. Each unit's nodes are declared in a
 * `subgraph cluster_…`, edges follow. The output is deterministic for a given seed.
 *
 * The bundle is clean by design: it loads with no error. The warnings it has are the ones
 * its shape implies (the web-searching intakes feed an agent, so some analysis warnings fire).
 * With `moreWarnings`, every card brings one warning more, and still no error: every other card
 * keeps a retired field (`requires_human`), the others have a spec too thin to instruct an agent.
 */
export interface GeneratedFile {
  readonly path: string;
  readonly text: string;
}

export interface GenerateOptions {
  /** Number of topology nodes (one card each). */
  readonly nodes: number;
  /** Seed of the pseudo-random choices (default 1). */
  readonly seed?: number;
  /** One warning more on every card (see above). */
  readonly moreWarnings?: boolean;
}

export function generateBundle(options: GenerateOptions): GeneratedFile[] {
  const random = mulberry32(options.seed ?? 1);
  const count = Math.max(0, Math.floor(options.nodes));
  const units = Math.ceil(count / unitRoles.length);
  const nodes: NodePlan[] = [];
  const edges: EdgePlan[] = [];
  for (let unit = 0; unit < units; unit++) planUnit(unit, nodes, edges);
  const kept = nodes.slice(0, count);
  const keptIds = new Set(kept.map((n) => n.nodeId));
  const keptEdges = edges.filter((e) => keptIds.has(e.source) && keptIds.has(e.target));

  const cardIdOf = new Map(kept.map((n) => [n.nodeId, n.cardId] as const));
  const suppliers = new Map<string, string[]>();
  for (const e of keptEdges) {
    const list = suppliers.get(e.target) ?? [];
    const supplier = cardIdOf.get(e.source) as string;
    if (!list.includes(supplier)) list.push(supplier);
    suppliers.set(e.target, list);
  }

  const files: GeneratedFile[] = [];
  files.push({ path: 'blueprint.yaml', text: manifestText(count) });
  files.push({ path: 'topology.dot', text: topologyText(kept, keptEdges) });
  kept.forEach((node, index) => {
    const planned = cardFor(node, suppliers.get(node.nodeId) ?? [], random);
    const card = !options.moreWarnings ? planned : index % 2 === 0 ? { ...planned, retired: true } : { ...planned, spec: `${capitalise(planned.action)}.` };
    const json = index % 20 === 19;
    files.push({ path: `cards/${node.cardId}@${version}.${json ? 'json' : 'yaml'}`, text: json ? cardJson(card) : cardYaml(card) });
  });
  return files;
}

/** Total size of the files in UTF-16 code units (ASCII here, so also bytes). */
export function bundleSize(files: readonly GeneratedFile[]): number {
  let total = 0;
  for (const f of files) total += f.text.length;
  return total;
}

// ---- the plan ------------------------------------------------------------------------------

type Role = 'intake' | 'criteria' | 'planner' | 'builder' | 'tester' | 'judge' | 'fixer' | 'gate' | 'publisher' | 'docs';

const unitRoles: readonly Role[] = ['intake', 'criteria', 'planner', 'builder', 'tester', 'judge', 'fixer', 'gate', 'publisher', 'docs'];

const version = '1.0.0';

interface NodePlan {
  readonly unit: number;
  readonly role: Role;
  readonly nodeId: string;
  readonly cardId: string;
}

interface EdgePlan {
  readonly source: string;
  readonly target: string;
  readonly attrs: readonly (readonly [string, string])[];
}

function planUnit(unit: number, nodes: NodePlan[], edges: EdgePlan[]): void {
  const id = (role: Role): string => `${role}_${unit}`;
  for (const role of unitRoles) nodes.push({ unit, role, nodeId: id(role), cardId: `${role}-${unit}` });
  const edge = (source: Role, target: Role, ...attrs: (readonly [string, string])[]): void => {
    edges.push({ source: id(source), target: id(target), attrs });
  };
  if (unit > 0) edges.push({ source: `docs_${unit - 1}`, target: id('intake'), attrs: [['label', 'next request']] });
  edge('intake', 'criteria');
  edge('intake', 'planner');
  edge('planner', 'builder');
  edge('builder', 'tester');
  edge('tester', 'judge', ['in', 'test_report']);
  edge('criteria', 'judge', ['label', 'acceptance criteria'], ['out', 'criteria'], ['in', 'criteria']);
  edge('judge', 'fixer', ['label', 'fail'], ['condition', 'outcome=fail']);
  edge('fixer', 'tester', ['label', 'retry'], ['condition', 'outcome=success']);
  edge('judge', 'gate', ['label', 'pass'], ['condition', 'outcome=success'], ['weight', '2']);
  edge('gate', 'publisher', ['label', 'approved'], ['condition', 'outcome=success']);
  edge('publisher', 'docs');
}

// ---- cards -------------------------------------------------------------------------------

interface PortPlan {
  readonly name: string;
  readonly type: string;
  readonly description?: string;
}

interface CardPlan {
  readonly id: string;
  readonly name: string;
  readonly type: string;
  readonly phase: string;
  readonly action: string;
  readonly spec: string;
  readonly model?: string;
  readonly tools: readonly string[];
  readonly params: readonly (readonly [string, string | number])[];
  readonly inputs: readonly PortPlan[];
  readonly outputs: readonly PortPlan[];
  readonly dependencies: readonly string[];
  readonly cannot: readonly string[];
  readonly willNot: readonly string[];
  readonly riskMarkers: readonly string[];
  /** Writes the retired `requires_human` field. */
  readonly retired?: boolean;
}

function cardFor(node: NodePlan, dependencies: readonly string[], random: () => number): CardPlan {
  const subject = pick(random, subjects);
  const noun = (): string => pick(random, nouns);
  const base = { id: node.cardId, dependencies, cannot: [] as string[], willNot: [] as string[], riskMarkers: [] as string[], tools: [] as string[], params: [] as (readonly [string, string | number])[] };
  const title = `${capitalise(subject)} ${node.unit}`;
  switch (node.role) {
    case 'intake': {
      const searches = node.unit % 4 === 3;
      return {
        ...base,
        name: `${title} intake`,
        type: 'agent',
        phase: 'planning',
        action: 'restate-request',
        spec: spec(random, [
          `Read the incoming request about the ${subject} ${noun()} and restate it as one short paragraph`,
          `naming the ${noun()} it touches, the ${noun()} it must not change and the people who asked for it`,
          `then list open questions about the ${noun()} for the planner`,
        ]),
        model: 'general-reasoner',
        tools: searches ? ['web-search'] : [],
        inputs: [{ name: 'request', type: 'text', description: 'the request as written by its author' }],
        outputs: [{ name: 'brief', type: 'text' }],
      };
    }
    case 'criteria':
      return {
        ...base,
        name: `${title} criteria author`,
        type: 'agent',
        phase: 'planning',
        action: 'write-criteria',
        spec: spec(random, [
          `From the restated ${subject} request list the observable checks a finished change must pass`,
          `each one testable by a script against the ${noun()} and the ${noun()} without human judgement`,
          `and say which ${noun()} evidence proves it`,
        ]),
        inputs: [{ name: 'brief', type: 'text' }],
        outputs: [{ name: 'criteria', type: 'acceptance-criteria', description: 'numbered checks, one per line' }],
      };
    case 'planner':
      return {
        ...base,
        name: `${title} planner`,
        type: 'agent',
        phase: 'planning',
        action: 'plan',
        spec: spec(random, [
          `Break the ${subject} brief into small ordered steps for the ${noun()} and the ${noun()}`,
          `each naming the files it touches and the ${noun()} it leaves runnable`,
          `and flag any step that needs a migration of the ${noun()} or a feature flag`,
        ]),
        model: 'general-reasoner',
        inputs: [{ name: 'brief', type: 'text' }],
        outputs: [{ name: 'plan', type: 'plan' }],
      };
    case 'builder':
      return {
        ...base,
        name: `${title} builder`,
        type: 'agent',
        phase: 'implementation',
        action: 'implement',
        spec: spec(random, [
          `Carry out the ${subject} plan step by step in the working tree of the ${noun()} service`,
          `keeping each commit small, updating the ${noun()} tests it affects`,
          `and leaving the ${noun()} build green after every step`,
        ]),
        model: 'general-coder',
        tools: ['file-io', 'git'],
        inputs: [{ name: 'plan', type: 'plan' }],
        outputs: [{ name: 'code', type: 'code' }],
        cannot: ['acceptance-criteria'],
        willNot: ['push to the main branch'],
      };
    case 'tester':
      return {
        ...base,
        name: `${title} test runner`,
        type: 'shell-tool',
        phase: 'testing',
        action: 'run-tests',
        spec: spec(random, [
          `Run the ${subject} test suite against the current working tree with the ${noun()} fixtures loaded`,
          `collect failures first then slow tests into one report`,
          `and attach the ${noun()} logs of every failing case`,
        ]),
        tools: ['shell'],
        params: [['tool_command', `npm test -- --scope=${node.cardId} --reporter=json`]],
        inputs: [{ name: 'code', type: 'code' }],
        outputs: [{ name: 'test_report', type: 'report' }],
        riskMarkers: ['arbitrary-code-execution'],
      };
    case 'judge':
      return {
        ...base,
        name: `${title} acceptance judge`,
        type: 'validation',
        phase: 'testing',
        action: 'judge',
        spec: spec(random, [
          `Compare the ${subject} test report with each acceptance check and give a pass or fail verdict`,
          `quoting the ${noun()} evidence for every failed check`,
          `and noting any check the report cannot settle`,
        ]),
        inputs: [
          { name: 'test_report', type: 'report' },
          { name: 'criteria', type: 'acceptance-criteria' },
        ],
        outputs: [{ name: 'verdict', type: 'status' }],
      };
    case 'fixer':
      return {
        ...base,
        name: `${title} fixer`,
        type: 'agent',
        phase: 'debugging',
        action: 'fix',
        spec: spec(random, [
          `Read the failing ${subject} verdict and find the smallest change to the ${noun()} that addresses the quoted evidence`,
          `then apply it without touching unrelated ${noun()} code`,
        ]),
        model: 'general-coder',
        tools: ['file-io'],
        params: [['max_iterations', 3]],
        inputs: [{ name: 'verdict', type: 'status' }],
        outputs: [{ name: 'patch', type: 'code' }],
      };
    case 'gate':
      return {
        ...base,
        name: `${title} sign-off`,
        type: 'human-gate',
        phase: 'deployment',
        action: 'approve',
        spec: spec(random, [
          `A maintainer of the ${subject} ${noun()} reads the verdict and the diff and approves or rejects the release`,
          `nothing ships without this sign-off`,
        ]),
        inputs: [{ name: 'verdict', type: 'status' }],
        outputs: [{ name: 'approval', type: 'status' }],
      };
    case 'publisher':
      return {
        ...base,
        name: `${title} publisher`,
        type: 'tool',
        phase: 'deployment',
        action: 'publish',
        spec: spec(random, [
          `Tag the approved ${subject} commit, build the release ${noun()} and publish it to the registry`,
          `then report the version and the ${noun()} checksum`,
        ]),
        tools: ['ci'],
        inputs: [{ name: 'approval', type: 'status' }],
        outputs: [{ name: 'release', type: 'report' }],
        riskMarkers: ['irreversible-action'],
      };
    case 'docs':
      return {
        ...base,
        name: `${title} release notes`,
        type: 'agent',
        phase: 'deployment',
        action: 'write-notes',
        spec: spec(random, [
          `Write the ${subject} release notes from the published report in plain words for users of the ${noun()}`,
          `naming every changed ${noun()} and every step a user must take to upgrade`,
        ]),
        model: 'general-writer',
        inputs: [{ name: 'release', type: 'report' }],
        outputs: [{ name: 'notes', type: 'markdown' }],
      };
    default:
      return assertNever(node.role);
  }
}

/** Joins the clauses into one sentence and pads it with a varied closing clause to about forty words. */
function spec(random: () => number, clauses: readonly string[]): string {
  const words = clauses.join(', ').split(' ');
  while (words.length < 38) words.push(...pick(random, closings).split(' '));
  return `${capitalise(words.join(' '))}.`;
}

function cardYaml(card: CardPlan): string {
  const lines: string[] = [];
  lines.push(`id: ${card.id}`, `name: ${card.name}`, `type: ${card.type}`, `phase: ${card.phase}`, `action: ${card.action}`);
  lines.push('spec: >-', ...wrap(card.spec, 76).map((line) => `  ${line}`));
  if (card.model !== undefined) lines.push(`model: ${card.model}`);
  if (card.tools.length > 0) lines.push(`tools: [${card.tools.join(', ')}]`);
  if (card.params.length > 0) {
    lines.push('params:');
    for (const [key, value] of card.params) lines.push(`  ${key}: ${typeof value === 'number' ? String(value) : value}`);
  }
  const ports = (key: string, list: readonly PortPlan[]): void => {
    if (list.length === 0) {
      lines.push(`${key}: []`);
      return;
    }
    lines.push(`${key}:`);
    for (const port of list) {
      lines.push(`  - name: ${port.name}`, `    type: ${port.type}`);
      if (port.description !== undefined) lines.push(`    description: ${port.description}`);
    }
  };
  ports('inputs', card.inputs);
  ports('outputs', card.outputs);
  if (card.dependencies.length > 0) lines.push(`dependencies: [${card.dependencies.join(', ')}]`);
  if (card.cannot.length > 0) lines.push(`cannot: [${card.cannot.join(', ')}]`);
  if (card.willNot.length > 0) lines.push('will_not:', ...card.willNot.map((w) => `  - ${w}`));
  if (card.riskMarkers.length > 0) lines.push(`risk_markers: [${card.riskMarkers.join(', ')}]`);
  if (card.retired) lines.push('requires_human: false');
  lines.push(`version: ${version}`);
  return `${lines.join('\n')}\n`;
}

function cardJson(card: CardPlan): string {
  const value: Record<string, unknown> = {
    id: card.id,
    name: card.name,
    type: card.type,
    phase: card.phase,
    action: card.action,
    spec: card.spec,
    ...(card.model !== undefined ? { model: card.model } : {}),
    tools: card.tools,
    params: Object.fromEntries(card.params),
    inputs: card.inputs,
    outputs: card.outputs,
    dependencies: card.dependencies,
    cannot: card.cannot,
    will_not: card.willNot,
    risk_markers: card.riskMarkers,
    ...(card.retired ? { requires_human: false } : {}),
    version,
  };
  return `${JSON.stringify(value, undefined, 2)}\n`;
}

// ---- topology and manifest ---------------------------------------------------------------

function topologyText(nodes: readonly NodePlan[], edges: readonly EdgePlan[]): string {
  const lines: string[] = [
    '// Generated release line: units of intake, criteria, plan, build, test, judge, fix loop,',
    '// sign-off, publishing and release notes, each unit feeding the next.',
    'digraph release_train {',
    '  rankdir=LR;',
    '  node [shape=box, style=rounded];',
    '',
  ];
  let unit = -1;
  for (const node of nodes) {
    if (node.unit !== unit) {
      if (unit >= 0) lines.push('  }', '');
      unit = node.unit;
      lines.push(`  subgraph cluster_unit_${unit} {`, `    label="unit ${unit}";`);
    }
    lines.push(`    ${node.nodeId} [card="${node.cardId}@${version}"];`);
  }
  if (unit >= 0) lines.push('  }', '');
  for (const e of edges) {
    const attrs = e.attrs.map(([key, value]) => `${key}=${/^[0-9]+$/.test(value) ? value : `"${value}"`}`);
    lines.push(`  ${e.source} -> ${e.target}${attrs.length > 0 ? ` [${attrs.join(', ')}]` : ''};`);
  }
  lines.push('}');
  return `${lines.join('\n')}\n`;
}

function manifestText(count: number): string {
  return [
    'slug: release-train',
    'title: Release train',
    `summary: A generated release line of ${count} nodes, used to measure the engine on large bundles.`,
    'tags: [generated, benchmark]',
    '',
  ].join('\n');
}

// ---- words -----------------------------------------------------------------------------

const subjects: readonly string[] = [
  'billing', 'search', 'checkout', 'inventory', 'onboarding', 'reporting', 'scheduler', 'gateway', 'ledger', 'catalogue',
  'notifications', 'payments', 'identity', 'storage', 'analytics', 'shipping', 'pricing', 'support', 'mobile', 'sync',
];

const nouns: readonly string[] = [
  'schema', 'endpoint', 'migration', 'cache', 'queue', 'index', 'config', 'dashboard', 'webhook', 'module', 'client', 'adapter',
  'parser', 'template', 'widget', 'worker', 'policy', 'token', 'session', 'export', 'import', 'feed', 'report', 'job', 'table',
  'view', 'form', 'service', 'library', 'plugin', 'handler', 'route', 'model', 'contract', 'fixture', 'bundle', 'manifest',
  'changelog', 'pipeline', 'account', 'invoice', 'order', 'ticket', 'profile', 'document', 'archive', 'metric', 'alert',
];

const closings: readonly string[] = [
  'and keep the output short enough to read in one sitting',
  'and stop to ask when an instruction is ambiguous',
  'and record every assumption in the output',
  'and never invent facts that the inputs do not support',
  'and prefer the conventions already used in the repository',
  'and mention anything left undone at the end',
  'and keep names consistent with the existing code',
  'and leave unrelated files exactly as they were',
];

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(line);
  return lines;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function pick<T>(random: () => number, list: readonly T[]): T {
  return list[Math.floor(random() * list.length)];
}

/** A small, fast, seedable pseudo-random generator (32-bit state). */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function assertNever(value: never): never {
  throw new Error(`unexpected value ${String(value)}`);
}
