/**
 * A queryable view of the vocabulary (docs/compatibility.md#term-lookup): the core table with a
 * bundle's local terms layered over it, lookups, deprecation redirects and subsumption, plus the
 * two membership questions the analyzer asks of a node type (does a person act there, does it
 * decide the flow).
 *
 * Every lookup is a Map hit; `isA` is a Set hit once a term's ancestor chain has been walked,
 * and chains are memoised per id, so the analyzer may call it in loops over large bundles.
 */
import { configuredWeight, defaultAnalysisConfig, type AnalysisConfig } from './analysis-config';
import { coreTermIds, coreTerms, externalAccessTools, phaseOrder } from './core';
import type { Term, TermKind, Vocabulary } from './types';

export interface VocabularyBuild {
  readonly vocabulary: Vocabulary;
  /** Local terms that reuse a core id (the spelling in force, once per id, first-seen order). */
  readonly shadowed: Term[];
}

/**
 * Merges the core table with local terms: core first, then locals in order. A local term with a
 * core id takes the core term's place (and is reported in `shadowed`); among locals the last
 * spelling of an id wins.
 */
export function createVocabulary(local: readonly Term[] = []): VocabularyBuild {
  const ordered: Term[] = [];
  const slotById = new Map<string, number>();
  const put = (term: Term): void => {
    const slot = slotById.get(term.id);
    if (slot === undefined) {
      slotById.set(term.id, ordered.length);
      ordered.push(term);
    } else {
      ordered[slot] = term;
    }
  };
  for (const term of coreTerms) put(term);
  const localIds = new Set<string>();
  const shadowedIds: string[] = [];
  for (const term of local) {
    if (coreTermIds.has(term.id) && !localIds.has(term.id)) shadowedIds.push(term.id);
    localIds.add(term.id);
    put(term);
  }

  const byId = new Map<string, Term>();
  const byKind = new Map<TermKind, Term[]>();
  for (const term of ordered) {
    byId.set(term.id, term);
    const list = byKind.get(term.kind);
    if (list) list.push(term);
    else byKind.set(term.kind, [term]);
  }
  const all: readonly Term[] = Object.freeze(ordered.slice());
  const kindLists = new Map<TermKind, readonly Term[]>();
  for (const [kind, list] of byKind) kindLists.set(kind, Object.freeze(list));
  const noTerms: readonly Term[] = Object.freeze([]);

  interface Chain {
    readonly terms: readonly Term[];
    readonly ids: ReadonlySet<string>;
  }
  const chains = new Map<string, Chain>();
  const chainOf = (id: string): Chain => {
    const cached = chains.get(id);
    if (cached) return cached;
    const terms: Term[] = [];
    const ids = new Set<string>();
    let cursor = byId.get(id);
    while (cursor && !ids.has(cursor.id)) {
      terms.push(cursor);
      ids.add(cursor.id);
      cursor = cursor.broader === undefined ? undefined : byId.get(cursor.broader);
    }
    const chain: Chain = { terms: Object.freeze(terms), ids };
    chains.set(id, chain);
    return chain;
  };

  const vocabulary: Vocabulary = {
    get: (id) => byId.get(id),
    resolve(id, kind) {
      const start = byId.get(id);
      if (!start || (kind !== undefined && start.kind !== kind)) return undefined;
      const seen = new Set<string>([start.id]);
      let current = start;
      for (;;) {
        const next = current.deprecated?.replacedBy;
        if (next === undefined) return current;
        const target = byId.get(next);
        if (!target || target.kind !== start.kind) return current;
        if (seen.has(target.id)) return start;
        seen.add(target.id);
        current = target;
      }
    },
    isA: (a, b) => a === b || chainOf(a).ids.has(b),
    ancestors: (id) => chainOf(id).terms,
    terms: (kind) => (kind === undefined ? all : kindLists.get(kind) ?? noTerms),
    isLocal: (id) => localIds.has(id),
  };
  const shadowed = shadowedIds.map((id) => byId.get(id)).filter((t): t is Term => t !== undefined);
  return { vocabulary, shadowed };
}

/** The core table alone. */
export const coreVocabulary: Vocabulary = createVocabulary().vocabulary;

/** Why a node type answers a membership question: the term that says so, and how the type reaches it. */
export interface Membership {
  readonly term: string;
  /** `self`: the type itself; `broader`: one of its ancestors; `replacement`: its deprecation successor. */
  readonly via: 'self' | 'broader' | 'replacement';
}

/**
 * Whether a person acts at a node of this type (docs/compatibility.md#people-and-control-points):
 * the type, or its deprecation successor, falls under `human-in-the-loop`. Cites the nearest term
 * flagged `impliesHuman`, else the category.
 */
export function humanMembership(vocabulary: Vocabulary, type: string): Membership | undefined {
  return humanWithin(vocabulary, type) ?? viaReplacement(vocabulary, type, (id) => humanWithin(vocabulary, id));
}

/**
 * Whether a node of this type is a control point (docs/compatibility.md#people-and-control-points):
 * some term on its ancestor chain (itself first), or on its successor's, has `governsFlow`. Cites
 * the nearest such term.
 */
export function controlMembership(vocabulary: Vocabulary, type: string): Membership | undefined {
  return controlWithin(vocabulary, type) ?? viaReplacement(vocabulary, type, (id) => controlWithin(vocabulary, id));
}

export interface RoleOptions {
  readonly vocabulary?: Vocabulary;
  readonly config?: Pick<AnalysisConfig, 'securityWeights' | 'unknownMarkerWeight'>;
}

/** What the analysis does with a term, in a few sentences (hover text, `explain <term>`, docs). */
export function analyzerRole(term: Term, options: RoleOptions = {}): string {
  const vocabulary = options.vocabulary ?? coreVocabulary;
  const config = options.config ?? defaultAnalysisConfig;
  const sentences: string[] = [];
  switch (term.kind) {
    case 'phase':
      sentences.push(...phaseRole(term));
      break;
    case 'node-type':
      sentences.push(...nodeTypeRole(term, vocabulary));
      break;
    case 'risk-marker':
      sentences.push(...markerRole(term, config));
      break;
    case 'data-type':
      sentences.push(...dataTypeRole(term, vocabulary));
      break;
    case 'tool':
      sentences.push(...toolRole(term, vocabulary));
      break;
    default:
      return assertNever(term.kind);
  }
  return sentences.join(' ');
}

/** The weight a marker is charged (docs/compatibility.md#security): a usable configured weight, else a usable default, else the fallback. */
export function markerWeight(term: Term, config: Pick<AnalysisConfig, 'securityWeights' | 'unknownMarkerWeight'> = defaultAnalysisConfig): number {
  const configured = configuredWeight(config, term.id);
  if (usable(configured)) return configured;
  if (usable(term.defaultWeight)) return term.defaultWeight;
  return config.unknownMarkerWeight;
}

function usable(weight: number | undefined): weight is number {
  return weight !== undefined && Number.isFinite(weight) && weight >= 0;
}

function viaReplacement(vocabulary: Vocabulary, type: string, within: (id: string) => Membership | undefined): Membership | undefined {
  const successor = vocabulary.resolve(type, 'node-type');
  if (!successor || successor.id === type) return undefined;
  return within(successor.id) ? { term: successor.id, via: 'replacement' } : undefined;
}

function humanWithin(vocabulary: Vocabulary, id: string): Membership | undefined {
  const category = 'human-in-the-loop';
  if (!vocabulary.isA(id, category)) return undefined;
  for (const term of vocabulary.ancestors(id)) {
    if (term.impliesHuman === true) return { term: term.id, via: term.id === id ? 'self' : 'broader' };
  }
  return { term: category, via: id === category ? 'self' : 'broader' };
}

function controlWithin(vocabulary: Vocabulary, id: string): Membership | undefined {
  for (const term of vocabulary.ancestors(id)) {
    if (term.governsFlow === true) return { term: term.id, via: term.id === id ? 'self' : 'broader' };
  }
  return undefined;
}

function code(id: string): string {
  return `\`${id}\``;
}

function phaseRole(term: Term): string[] {
  const position = phaseOrder.indexOf(term.id);
  if (position < 0) {
    return ['Phases are a closed set of five, so a local phase is reported as `ontology/phase-not-extensible` and covers nothing.'];
  }
  return [
    `Phase coverage lists every node whose card names ${code(term.id)} under it (stage ${position + 1} of ${phaseOrder.length} in lifecycle order).`,
    'Coverage describes the graph; no score depends on it.',
  ];
}

function nodeTypeRole(term: Term, vocabulary: Vocabulary): string[] {
  const out: string[] = [];
  if (term.abstract) {
    out.push('An abstract category: the analysis asks whether a type falls under it, so type a node with one of its narrower terms instead.');
  }
  const human = humanMembership(vocabulary, term.id);
  out.push(
    human
      ? `A person acts at a node of this type${human.term === term.id ? '' : ` (through ${code(human.term)})`}, so autonomy counts the node as staffed.`
      : 'Nobody acts at a node of this type, so autonomy counts the node as running unattended.',
  );
  const control = controlMembership(vocabulary, term.id);
  if (control) {
    out.push(
      `The node is a control point${control.term === term.id ? '' : ` (through ${code(control.term)})`}: autonomy also reads the unattended share of control points once there are enough of them.`,
    );
  }
  if (vocabulary.isA(term.id, 'validation')) {
    out.push(
      'It is a judge for the criteria-leak check: the nodes feeding it are the generators the acceptance criteria must not reach, and it counts as validating data that an external tool brought in.',
    );
  }
  if (vocabulary.isA(term.id, 'shell-tool')) {
    out.push('Its card should set `params.tool_command`, the command the runner executes.');
  }
  return out;
}

function markerRole(term: Term, config: Pick<AnalysisConfig, 'securityWeights' | 'unknownMarkerWeight'>): string[] {
  if (term.arrival === 'category') {
    return ['A category: it has no weight of its own and groups the markers beneath it for subsumption questions.'];
  }
  const out: string[] = [];
  const configured = configuredWeight(config, term.id) ?? term.defaultWeight;
  const weight = markerWeight(term, config);
  if (configured === undefined) {
    out.push(`It has no weight, so it costs ${weight} and moves no score.`);
  } else if (!usable(configured)) {
    out.push(`Its weight ${configured} is not a cost (negative or not finite), so it counts ${weight}.`);
  } else {
    out.push(`Costs ${weight.toFixed(2)} on the security score, once per blueprint however many nodes carry it.`);
  }
  switch (term.id) {
    case 'unbounded-loop':
      out.push('The analysis also infers it on every node of a cycle in which no card declares an iteration cap (`max_iterations`, `maxIterations` or `max_retries` at the top of `params`).');
      break;
    case 'unvalidated-external-access':
      out.push(`The analysis also infers it on a node using a tool under ${listWords(externalAccessTools.map(code), 'or')} when one of the node's consumers is not a \`validation\` node.`);
      break;
    case 'criteria-leak':
      out.push('The analysis also infers it when an `acceptance-criteria` output can reach a node whose work a `validation` node judges, or when one node writes both the criteria and the work its judge reads.');
      break;
    default:
      out.push('It is charged only when a card lists it in `risk_markers`.');
  }
  return out;
}

function dataTypeRole(term: Term, vocabulary: Vocabulary): string[] {
  if (term.id === 'any') {
    return [
      'Matches every type on either side of an edge: an edge typed `any` always pairs, no `cannot` prohibition can catch it, and criteria typed `any` are invisible to the criteria-leak check.',
    ];
  }
  const out: string[] = [];
  const broader = vocabulary.ancestors(term.id).slice(1).filter((t) => t.id !== 'any').map((t) => code(t.id));
  out.push(
    broader.length > 0
      ? `An output of this type fits an input of ${code(term.id)}, of a broader type (${broader.join(', ')}) or of \`any\`, never of a narrower one.`
      : `An output of this type fits an input of ${code(term.id)} or of \`any\`, never of a narrower one.`,
  );
  out.push(`Listed in \`cannot\`, it forbids every edge whose carrying output is ${code(term.id)} or narrower.`);
  if (vocabulary.isA(term.id, 'acceptance-criteria')) {
    out.push('An output of this type makes the node a criteria producer, the anchor of the criteria-leak check.');
  }
  return out;
}

function toolRole(term: Term, vocabulary: Vocabulary): string[] {
  if (term.root) return ['The root of the tool vocabulary: it names no capability that a check reads.'];
  const external = externalAccessTools.find((tool) => vocabulary.isA(term.id, tool));
  if (external) {
    return [
      `It brings data in from outside${external === term.id ? '' : ` (it falls under ${code(external)})`}: unless every consumer of the node is a \`validation\` node, the node carries \`unvalidated-external-access\`.`,
    ];
  }
  return ['A permission only: the analysis draws no conclusion from it.'];
}

function listWords(items: readonly string[], conjunction: 'and' | 'or'): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} ${conjunction} ${items[items.length - 1]}`;
}

function assertNever(value: never): never {
  throw new Error(`unexpected value ${String(value)}`);
}
