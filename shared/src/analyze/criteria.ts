/**
 * The criteria-leak check (docs/compatibility.md#criteria-leak): the node whose work a judge
 * measures must not see the acceptance criteria it is measured against.
 *
 * - Producers: resolved nodes with an output typed under `acceptance-criteria`.
 * - Judges: resolved nodes typed under `validation`.
 * - Generators: every predecessor of a judge (other than the judge itself), then everything
 *   upstream of a non-judge generator through non-judge nodes; resolved nodes only.
 * - Criteria flow from a producer: everything reachable from its successors; "absorbed" stops
 *   at judges (a judge is reached but not walked through).
 *
 * Findings: (a) a generator in a producer's absorbed flow carries the marker; (a2) one reached
 * only by walking through a judge gets `analysis/criteria-relayed-through-judge`; (d) a
 * producer that also hands a direct judge the artefact it reads carries the marker; (c1) a
 * check missing one of its two anchors says so; (c2) a `params` key about criteria that names
 * nothing the graph produces; (b) a generator's spec too close to a producer's.
 *
 * Cost, whatever the number of producers and judges: one upward pass for the generators, one
 * labelled walk from all producers at once for (a), one from all gates at once for (a2) (each
 * O(k · (nodes + edges)), typed arrays), and a similarity index that scores only spec pairs
 * sharing a shingle. The per-producer definition these replace is checked against them on
 * random graphs in the tests.
 *
 * Everything but (c1), (c2) and (b) follows edges, so it is local to each weakly connected
 * component (`localCriteria`, which ./security.ts runs per component and the analysis memo
 * keeps per component); those three read the whole graph (`globalCriteria`). Given earlier
 * findings (`kept`), a relayed finding whose node, place and gates read as before is the earlier
 * object, not a new message.
 */
import { compareCodeUnits, type Diagnostic } from '../diagnostics';
import { relocated } from '../diagnostics/move';
import type { JsonValue, Port } from '../card/card-model';
import type { Span } from '../text';
import type { AnalysisConfig } from '../vocabulary/analysis-config';
import type { AnalysisContext } from './context';
import type { SecurityCycle } from './context';
import { listIds } from './autonomy';
import { labelledReach, sortAscending, type Graph, type LabelledReach } from './graph';
import { mapped } from '../arrays';

/** One marker the graph establishes on one node, and how. */
export interface Inference {
  readonly marker: string;
  readonly node: number;
  /** A predicate with no subject, for the finding's sentence ("sits in a cycle with …"). */
  readonly clause: string;
  /** How to remove it. */
  readonly hint: string;
  /** The whole story for the node's [beyond] warning: how it was established, then the fix. */
  readonly message: string;
  readonly path?: readonly string[];
  /** Ids of a long route left out of `path` between its two halves. */
  readonly pathOmitted?: number;
  /** For unbounded-loop: the cycle, shared by the inferences of all its members (./security.ts). */
  readonly cycle?: SecurityCycle;
}

export interface CriteriaResult {
  readonly inferences: Inference[];
  readonly diagnostics: Diagnostic[];
}

export const criteriaLeakMarker = 'criteria-leak';

/** The core terms the check anchors on. */
export const anchorTerms = Object.freeze({
  /** Outputs typed under it make a node a criteria producer. */
  acceptanceCriteria: 'acceptance-criteria',
  /** Nodes typed under it are judges. */
  validation: 'validation',
});

/** How deep the out-of-band check reads nested `params` values. */
const paramScanDepth = 6;
/** Routes longer than this are shown by their two ends. */
const maxPath = 64;

export function checkCriteria(context: AnalysisContext, config: AnalysisConfig): CriteriaResult {
  const local = localCriteria(context);
  const global = globalCriteria(context, config, local.generators, (g) => local.judgedBy[g], (g) => local.leaking[g] === 1);
  return { inferences: [...local.inferences, ...global.inferences], diagnostics: [...local.diagnostics, ...global.diagnostics] };
}

/**
 * What the check finds inside whole weakly connected components: everything but (c1), (c2)
 * and (b), which read the whole graph (`globalCriteria`). Every walk follows edges, so it never
 * leaves the component it starts in.
 */
export interface LocalCriteria {
  /** (a), then (d). */
  readonly inferences: Inference[];
  /** (a2). */
  readonly diagnostics: Diagnostic[];
  /** Resolved generators in scope, ascending. */
  readonly generators: number[];
  /** Per node: the judge whose upward walk reached it first (-1: none). */
  readonly judgedBy: Int32Array;
  /** Per node: 1 when (a) put the marker on it. */
  readonly leaking: Uint8Array;
  /** The (a2) findings by node, for `kept` of a later check. */
  readonly relayed: Map<number, RelayedFinding>;
}

/**
 * The component-local half of the check, over the nodes `scope` marks (every node when it is
 * undefined; `scope` must hold whole weakly connected components). A walk started from the
 * nodes in scope stays in scope, and, restricted to one component, visits its nodes in the
 * same order as a walk started from every node (the queue of the whole walk, read for one
 * component, is that component's own queue), so each component's findings are the ones the
 * whole graph gives it. `kept(id)`: an earlier (a2) finding for node `id`, handed back when
 * it reads the same.
 */
export function localCriteria(context: AnalysisContext, scope?: Uint8Array, kept?: (id: string) => RelayedFinding | undefined): LocalCriteria {
  const { graph, vocabulary, cards, judge, size } = context;
  const ids = graph.ids;
  const inferences: Inference[] = [];
  const diagnostics: Diagnostic[] = [];
  const inScope = (i: number): boolean => scope === undefined || scope[i] === 1;

  const criteriaType = memoise((type: string) => vocabulary.isA(type, anchorTerms.acceptanceCriteria));

  // ---- producers ----
  const producers: number[] = [];
  const facts = context.facts;
  for (let i = 0; i < size; i++) if (facts[i]?.producer === true && inScope(i)) producers.push(i);

  // ---- generators: one breadth-first pass upwards from every judge at once ----
  const generator = new Uint8Array(size);
  /** The judge whose upward walk first reached the node (the nearest one). */
  const judgedBy = new Int32Array(size).fill(-1);
  const expanded = new Uint8Array(size);
  const queue: number[] = [];
  for (let j = 0; j < size; j++) {
    if (!judge[j] || !inScope(j)) continue;
    for (const p of graph.predecessors[j]) {
      if (p === j) continue;
      if (!generator[p]) {
        generator[p] = 1;
        judgedBy[p] = j;
      }
      if (!judge[p] && !expanded[p]) {
        expanded[p] = 1;
        queue.push(p);
      }
    }
  }
  for (let head = 0; head < queue.length; head++) {
    const v = queue[head];
    for (const q of graph.predecessors[v]) {
      if (judge[q]) continue;
      if (!generator[q]) {
        generator[q] = 1;
        judgedBy[q] = judgedBy[v];
      }
      if (!expanded[q]) {
        expanded[q] = 1;
        queue.push(q);
      }
    }
  }
  const generators: number[] = [];
  for (let i = 0; i < size; i++) if (generator[i] && cards[i] !== undefined) generators.push(i);

  const judgeClause = judgeClauses(context, (g) => judgedBy[g]);

  // ---- (a) topological and (a2) relayed ----
  // One labelled walk from every producer at once, absorbed at judges. Two labels per node are
  // enough to answer "does a producer other than this node reach it" exactly (see labelledReach).
  const absorbed = labelledReach(graph, producers, 2, (v) => judge[v] === 0);
  const walk = new Int32Array(size);
  /** The route the parent links record for `entry` (node * k + slot), abbreviated when long. */
  const routeOf = (reach: LabelledReach, entry: number): Route => {
    let length = 0;
    for (let cursor = entry; cursor !== -1; cursor = reach.parent[cursor]) walk[length++] = (cursor / reach.k) | 0;
    walk[length++] = reach.labels[entry];
    const route: string[] = [];
    for (let k = length - 1; k >= 0; k--) {
      if (length > maxPath && k === length - 1 - maxPath / 2) k = maxPath / 2 - 1; // skip the middle
      route.push(ids[walk[k]]);
    }
    return { ids: route, omitted: Math.max(0, length - maxPath) };
  };
  /** Per leaking generator: the nearest other producer reaching it, and the route from it. */
  const leaks = new Map<number, { producer: number; route: Route }>();
  const leaking = new Uint8Array(size);
  for (const g of generators) {
    for (let slot = 0; slot < absorbed.count[g]; slot++) {
      const producer = absorbed.labels[g * 2 + slot];
      if (producer === g) continue; // criteria do not "arrive" where they are written
      leaks.set(g, { producer, route: routeOf(absorbed, g * 2 + slot) });
      leaking[g] = 1;
      break;
    }
  }

  // (a2) Gates are the judges some producer's absorbed walk met. A generator that no absorbed
  // walk reaches, but that descends from a gate, is reached by that producer's criteria only if
  // the judge passes them on. A gate counts for every node except its only producer.
  const gates: number[] = [];
  for (let j = 0; j < size; j++) if (judge[j] && absorbed.count[j] > 0) gates.push(j);
  const gateCountsFor = (gate: number, v: number): boolean => absorbed.count[gate] > 1 || absorbed.labels[gate * 2] !== v;
  const relay = labelledReach(graph, gates, 4, () => true);
  /** Per generator reached only through gates: the gates, and whether more may reach it. */
  const relayed: ({ gates: number[]; more: boolean } | undefined)[] = new Array(size);
  for (const v of generators) {
    if (leaks.has(v) || relay.count[v] === 0) continue;
    const through: number[] = [];
    for (let slot = 0; slot < relay.count[v]; slot++) {
      const gate = relay.labels[v * 4 + slot];
      if (gateCountsFor(gate, v)) through.push(gate);
    }
    // four labels kept: more gates may reach the node than the walk kept
    const more = relay.count[v] === 4;
    if (through.length === 0 && more) {
      // every label kept here is a gate this node alone feeds: look for another the long way
      const found = ancestorsOf(graph, v).find((u) => judge[u] === 1 && absorbed.count[u] > 0 && gateCountsFor(u, v));
      if (found !== undefined) through.push(found);
    }
    if (through.length === 0) continue;
    relayed[v] = { gates: sortAscending(through), more };
  }

  for (const g of generators) {
    const leak = leaks.get(g);
    if (leak === undefined) continue;
    const { clause: judged, judges } = judgeClause(g);
    const routeText = formatRoute(leak.route);
    const source = leak.route.ids[0];
    const first = `${source} -> ${leak.route.ids[1]}`;
    const judgeNames = listIds(judges.map((j) => ids[j]));
    inferences.push({
      marker: criteriaLeakMarker,
      node: g,
      clause: `${judged}, and the acceptance criteria that ${ids[leak.producer]} produces reach it along ${routeText}`,
      hint: `Break the route from ${source} to ${ids[g]}, for example by removing the edge ${first}, and wire the criteria only into the validation node.`,
      message:
        `Acceptance criteria from ${source} reach ${ids[g]} along ${routeText}, and ${ids[g]}'s work is judged by ${judgeNames}, ` +
        `so the node doing the work can see what it is judged against; break that route (for example remove the edge ${first}) and wire the criteria only into the validation node.`,
      path: leak.route.ids,
      ...(leak.route.omitted > 0 ? { pathOmitted: leak.route.omitted } : {}),
    });
  }

  // A relayed finding reads the node's id and place and the gates' ids: an earlier finding for
  // the same node id is handed back while those read the same (its text, when only the place differs).
  const found = new Map<number, RelayedFinding>();
  for (const g of generators) {
    const through = relayed[g];
    if (through === undefined) continue;
    const names = through.gates.map((j) => ids[j]);
    const span = context.spans[g];
    const earlier = kept?.(ids[g]);
    let diagnostic: Diagnostic;
    if (earlier !== undefined && earlier.more === through.more && sameIds(earlier.names, names)) {
      // the same text: the same object where it sits in the same place
      diagnostic =
        earlier.file === context.file && sameSpan(earlier.span, span) ? earlier.diagnostic : relocated(earlier.diagnostic, context.nodeLocation(g));
    } else {
      const one = names.length === 1 && !through.more;
      const listed = through.more ? `${names.join(', ')} and possibly others` : listIds(names);
      diagnostic = {
        code: 'analysis/criteria-relayed-through-judge',
        severity: 'warning',
        message:
          `Acceptance criteria reach ${ids[g]} only through the validation ${one ? 'node' : 'nodes'} ${listed}: the criteria-leak check stops at a judge, ` +
          `so whether ${one ? 'it passes' : 'they pass'} the criteria on to ${ids[g]}, whose own work is judged, depends on what ${one ? 'it emits' : 'they emit'}; ` +
          `make ${one ? names[0] : 'each of them'} forward failure evidence only, never the criteria.`,
        location: context.nodeLocation(g),
      };
    }
    found.set(g, { names, more: through.more, file: context.file, span, diagnostic });
    diagnostics.push(diagnostic);
  }

  // ---- (d) one node writes the criteria and the work its judge reads ----
  // (the only place inputs are read, and only a judge's: `sameCardFacts` in ./analyze.ts relies on it)
  for (const p of producers) {
    const card = cards[p]!;
    const artefacts = card.outputs.filter((port) => !criteriaType(port.type));
    if (artefacts.length === 0) continue;
    let match: { judge: number; port: Port } | undefined;
    for (const j of directJudges(context, p)) {
      for (const input of cards[j]!.inputs) {
        if (criteriaType(input.type)) continue;
        for (const port of artefacts) {
          if (!vocabulary.isA(port.type, input.type)) continue;
          if (match === undefined || (match.judge === j && port.name < match.port.name)) match = { judge: j, port };
        }
      }
      if (match !== undefined) break;
    }
    if (match === undefined) continue;
    const j = ids[match.judge];
    const port = `${match.port.name}: ${match.port.type}`;
    inferences.push({
      marker: criteriaLeakMarker,
      node: p,
      clause: `outputs acceptance criteria and also ${port}, which the validation node ${j} reads as the work it judges, so one node writes both the criteria and the work`,
      hint: `Split ${ids[p]} into a node that writes the acceptance criteria and a node that produces ${match.port.name}, and wire only the criteria from the first into ${j}.`,
      message:
        `Node ${ids[p]} outputs acceptance criteria and also ${port}, which the validation node ${j} reads as the work it judges, so the node that writes the criteria also produces the work; ` +
        `split ${ids[p]} into a node that writes the criteria and a node that produces ${match.port.name}.`,
      path: [ids[p], j],
    });
  }

  return { inferences, diagnostics, generators, judgedBy, leaking, relayed: found };
}

/** The judges node `i` hands its work to directly (itself left out), ascending. */
function directJudges(context: AnalysisContext, i: number): number[] {
  return sortAscending(context.graph.successors[i].filter((s) => s !== i && context.judge[s] === 1));
}

/** How a generator's finding says it is judged: by its direct judges, else by the nearest one further down (`judgedBy`). */
function judgeClauses(context: AnalysisContext, judgedBy: (g: number) => number): (g: number) => { clause: string; judges: number[] } {
  const ids = context.graph.ids;
  return (i) => {
    const direct = directJudges(context, i);
    if (direct.length > 0) {
      const names = direct.map((j) => ids[j]);
      return { clause: `hands its work to the validation ${direct.length === 1 ? 'node' : 'nodes'} ${listIds(names)}`, judges: direct };
    }
    const j = judgedBy(i);
    return { clause: `feeds the validation node ${ids[j]} further down, so its work is part of what ${ids[j]} judges`, judges: [j] };
  };
}

/**
 * The half of the check that reads the whole graph: (c1) whether both anchors exist anywhere,
 * (c2) names that nothing in the bundle produces, and (b) specs compared across every
 * generator and producer. `generators`: every resolved generator of the graph, in any order
 * (every list made here is sorted on its own); `judgedBy` and `leaking` answer for them as
 * `localCriteria` did.
 */
export function globalCriteria(
  context: AnalysisContext,
  config: AnalysisConfig,
  generators: readonly number[],
  judgedBy: (g: number) => number,
  leaking: (g: number) => boolean,
): CriteriaResult {
  const { graph, cards, judge, size } = context;
  const ids = graph.ids;
  const inferences: Inference[] = [];
  const diagnostics: Diagnostic[] = [];

  const producer = new Uint8Array(size);
  const producers: number[] = [];
  const facts = context.facts;
  for (let i = 0; i < size; i++) {
    if (facts[i]?.producer === true) {
      producer[i] = 1;
      producers.push(i);
    }
  }

  // ---- (c1) the check lacks one of its anchors ----
  if (producers.length === 0 && generators.length > 0) {
    const judges: string[] = [];
    for (let j = 0; j < size; j++) if (judge[j] && graph.predecessors[j].some((p) => p !== j)) judges.push(ids[j]);
    diagnostics.push({
      code: 'analysis/criteria-leak-unanchored',
      severity: 'warning',
      message:
        `The validation ${judges.length === 1 ? 'node' : 'nodes'} ${listIds(judges)} ${judges.length === 1 ? 'judges' : 'judge'} work in this graph, but no node has an output typed acceptance-criteria, ` +
        `so the criteria-leak check has no criteria to follow and did not run; type the port that carries the acceptance criteria as acceptance-criteria.`,
      location: {},
    });
  } else if (producers.length > 0 && generators.length === 0) {
    const names = producers.map((i) => ids[i]);
    const anyJudge = judge.some((flag) => flag === 1);
    diagnostics.push({
      code: 'analysis/criteria-leak-unanchored',
      severity: 'warning',
      message:
        `${listIds(names)} ${names.length === 1 ? 'outputs' : 'output'} acceptance criteria, but ${anyJudge ? 'no node with a card hands its work to a validation node' : 'no node is typed validation'}, ` +
        `so the criteria-leak check has no judged work to protect and did not run; type the node that judges the work as validation and wire the work into it.`,
      location: {},
    });
  }

  // ---- (c2) criteria named in params that nothing in the graph produces ----
  // (the names are gathered only when some card has such a key: most bundles have none)
  const produced = new Set<string>();
  const anyCriteriaKey = facts.some((known) => known !== undefined && known.criteriaKeys.length > 0);
  for (let i = 0; anyCriteriaKey && i < size; i++) {
    produced.add(ids[i].toLowerCase());
    const card = cards[i];
    if (card === undefined) continue;
    produced.add(card.id.toLowerCase());
    for (const port of card.outputs) {
      produced.add(port.name.toLowerCase());
      produced.add(`${ids[i]}.${port.name}`.toLowerCase());
      produced.add(`${card.id}.${port.name}`.toLowerCase());
    }
  }
  for (let i = 0; anyCriteriaKey && i < size; i++) {
    const card = cards[i];
    const keys = facts[i]?.criteriaKeys;
    if (card === undefined || keys === undefined) continue;
    for (const key of keys) {
      const named = stringLeaves(card.params[key], paramScanDepth)
        .map((value) => value.trim())
        .filter((value) => value.length > 0);
      if (named.length === 0 || named.some((value) => produced.has(value.toLowerCase()))) continue;
      diagnostics.push({
        code: 'analysis/criteria-out-of-band',
        severity: 'warning',
        message:
          `Node ${ids[i]} names its acceptance criteria in params.${key} (${listIds(named.map((value) => JSON.stringify(value)))}), but no node, card or output in the graph goes by that name, ` +
          `so the criteria reach it from outside the topology and the criteria-leak check cannot follow them; wire them in from a node with an acceptance-criteria output, or name that node or its output.`,
        location: context.nodeLocation(i),
      });
    }
  }

  // ---- (b) a generator's spec restates a producer's ----
  // (the hits are sorted below by ids and score, so the order of `generators` does not matter)
  const subjects = generators.filter((g) => !producer[g]);
  const similar = context.similarSpecs(
    mapped(subjects, (g) => facts[g]!.spec),
    mapped(producers, (p) => facts[p]!.spec),
    config.criteriaLeak.similarityThreshold,
  );
  const hits = mapped(similar, (hit) => ({ g: subjects[hit.subject], p: producers[hit.reference], score: hit.score }));
  hits.sort((a, b) => compareCodeUnits(ids[a.g], ids[b.g]) || b.score - a.score || compareCodeUnits(ids[a.p], ids[b.p]));
  const threshold = config.criteriaLeak.similarityThreshold.toFixed(2);
  const best = new Map<number, { p: number; score: number }>();
  for (const hit of hits) {
    diagnostics.push({
      code: 'analysis/criteria-leak-suspected',
      severity: 'warning',
      message:
        `The spec of ${ids[hit.g]} shares word 3-grams with the spec of ${ids[hit.p]}, which produces acceptance criteria (similarity ${hit.score.toFixed(2)}, above ${threshold}), ` +
        `so the criteria may be written into the prose of the node they judge; rewrite ${ids[hit.g]}'s spec to describe its task without them.`,
      location: context.nodeLocation(hit.g),
    });
    if (!best.has(hit.g)) best.set(hit.g, { p: hit.p, score: hit.score });
  }
  if (config.criteriaLeak.similarityFiresMarker) {
    const judgeClause = judgeClauses(context, judgedBy);
    for (const [g, hit] of best) {
      const overlap = `has a spec that restates the spec of ${ids[hit.p]}, which produces acceptance criteria (similarity ${hit.score.toFixed(2)})`;
      inferences.push({
        marker: criteriaLeakMarker,
        node: g,
        clause: leaking(g) ? `also ${overlap}` : `${judgeClause(g).clause}, and ${overlap}`,
        hint: `Rewrite the spec of ${ids[g]} in its own words, without the acceptance criteria.`,
        message:
          `The spec of ${ids[g]} restates the spec of ${ids[hit.p]}, which produces acceptance criteria (similarity ${hit.score.toFixed(2)}, above ${threshold}), and ${ids[g]}'s work is judged; ` +
          `rewrite ${ids[g]}'s spec to describe its task without the criteria.`,
      });
    }
  }

  return { inferences, diagnostics };
}

/** One relayed finding and everything its text and place were made from. */
export interface RelayedFinding {
  readonly names: readonly string[];
  readonly more: boolean;
  readonly file: string;
  readonly span: Span | undefined;
  readonly diagnostic: Diagnostic;
}

function sameSpan(a: Span | undefined, b: Span | undefined): boolean {
  return a === b || (a !== undefined && b !== undefined && a.start === b.start && a.end === b.end);
}

function sameIds(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** A route of node ids; `omitted` ids were left out of the middle of a long one. */
interface Route {
  readonly ids: readonly string[];
  readonly omitted: number;
}

/** A route for a message: `a → b → c`, with `…` where a long route was cut. */
function formatRoute(route: Route): string {
  if (route.omitted === 0) return route.ids.join(' → ');
  const half = route.ids.length / 2;
  return `${route.ids.slice(0, half).join(' → ')} → … (${route.omitted} more) → ${route.ids.slice(half).join(' → ')}`;
}

/** Every node with a path to `node` (not `node` itself unless it is on a cycle), nearest first. */
function ancestorsOf(graph: Graph, node: number): number[] {
  const seen = new Uint8Array(graph.ids.length);
  const out: number[] = [];
  for (const p of graph.predecessors[node]) {
    if (!seen[p]) {
      seen[p] = 1;
      out.push(p);
    }
  }
  for (let head = 0; head < out.length; head++) {
    for (const p of graph.predecessors[out[head]]) {
      if (!seen[p]) {
        seen[p] = 1;
        out.push(p);
      }
    }
  }
  return out;
}

function stringLeaves(value: JsonValue | undefined, depth: number): string[] {
  if (typeof value === 'string') return [value];
  if (depth <= 0 || value === null || typeof value !== 'object') return [];
  const out: string[] = [];
  if (Array.isArray(value)) {
    for (const item of value) out.push(...stringLeaves(item, depth - 1));
  } else {
    for (const key of Object.keys(value)) out.push(...stringLeaves(value[key], depth - 1));
  }
  return out;
}

/** A string predicate asked at most once per distinct argument. */
export function memoise(compute: (key: string) => boolean): (key: string) => boolean {
  const cache = new Map<string, boolean>();
  return (key) => {
    let value = cache.get(key);
    if (value === undefined) {
      value = compute(key);
      cache.set(key, value);
    }
    return value;
  };
}
