/**
 * Autonomy (docs/compatibility.md#autonomy): two readings over the same per-node contributions. The
 * staffing reading is the share of nodes that have a card and no person in the loop; the control
 * reading is the same share over the control points only (types whose chain governs the flow). The
 * band reads the weaker of the two once the graph has enough control points, else the staffing one.
 * A node with no card counts in the total and is neither staffed nor unattended.
 */
import type { Diagnostic } from '../diagnostics';
import type { AnalysisConfig } from '../vocabulary/analysis-config';
import type { AnalysisContext } from './context';
import type { PhaseCoverage } from './phase-coverage';

export type AutonomyClass = 'assisted' | 'supervised' | 'conditional' | 'closed-loop';
export type AutonomyLevel = 1 | 2 | 3 | 4;

export interface AutonomyControl {
  /** Control points: nodes whose type (or an ancestor) governs the flow. */
  readonly totalNodes: number;
  /** Control points with a card and no person in the loop. */
  readonly unattendedNodes: number;
  /** unattended / total, 4 decimals; 0 when there is no control point. */
  readonly fraction: number;
  /** True from `minControlPoints` control points up: only then does this reading decide the band. */
  readonly counted: boolean;
}

export interface AutonomyContribution {
  readonly nodeId: string;
  /** `id@version` of the node's card; empty when it has none. */
  readonly ref: string;
  readonly name: string;
  readonly requiresHuman: boolean;
  readonly reason?: 'human-in-the-loop-type';
  /** The term that puts a person at the node. */
  readonly term?: string;
  readonly resolved: boolean;
  readonly governsFlow: boolean;
  /** The term that makes the node a control point. */
  readonly controlTerm?: string;
  readonly explanation: string;
}

export interface AutonomyResult {
  readonly autonomyClass: AutonomyClass;
  /** Every node has a card and no person, and all five lifecycle phases are covered. */
  readonly isDarkFactory: boolean;
  readonly level: AutonomyLevel;
  readonly label: string;
  /** The reading the band used, 4 decimals. */
  readonly fraction: number;
  /** autonomous / total, 4 decimals. */
  readonly staffingFraction: number;
  readonly control: AutonomyControl;
  readonly autonomousNodes: number;
  readonly totalNodes: number;
  /** One per graph node, graph order. */
  readonly contributions: AutonomyContribution[];
  readonly rationale: string;
  readonly diagnostics: Diagnostic[];
}

const classes: Readonly<Record<AutonomyLevel, AutonomyClass>> = { 1: 'assisted', 2: 'supervised', 3: 'conditional', 4: 'closed-loop' };
const labels: Readonly<Record<AutonomyClass, string>> = {
  assisted: 'Assisted',
  supervised: 'Supervised',
  conditional: 'Conditional',
  'closed-loop': 'Closed-loop',
};

/**
 * `previous`, the last analysis of the same bundle, lends its contribution to every node with
 * the same id and the same card object under the same vocabulary (a contribution reads nothing
 * else), so a topology edit rewrites only the contributions of the nodes it touched.
 */
export function computeAutonomy(
  context: AnalysisContext,
  phaseCoverage: PhaseCoverage,
  config: AnalysisConfig,
  previous?: { readonly context: AnalysisContext; readonly autonomy: AutonomyResult },
): AutonomyResult {
  const bands = config.autonomyBands;
  const contributions: AutonomyContribution[] = [];
  const lender = previous !== undefined && previous.context.vocabulary === context.vocabulary ? previous : undefined;
  const ids = context.graph.ids;
  const lenderIds = lender?.context.graph.ids;
  for (let i = 0; i < context.size; i++) {
    // the same index first (an edit rarely moves the nodes before it), else the id's index
    const j = lenderIds !== undefined && i < lenderIds.length && lenderIds[i] === ids[i] ? i : lender?.context.graph.index.get(ids[i]);
    const kept = j !== undefined && lender!.context.cards[j] === context.cards[i] ? lender!.autonomy.contributions[j] : undefined;
    contributions.push(kept ?? contributionOf(context, i));
  }
  const diagnostics: Diagnostic[] = [];
  const totalNodes = contributions.length;

  if (totalNodes === 0) {
    diagnostics.push({
      code: 'analysis/empty-graph',
      severity: 'warning',
      message: 'The topology declares no node, so there is no autonomy to read and the class defaults to assisted; declare the pipeline\'s nodes in the topology.',
      location: {},
    });
    return {
      autonomyClass: classes[1],
      isDarkFactory: false,
      level: 1,
      label: labels[classes[1]],
      fraction: 0,
      staffingFraction: 0,
      control: { totalNodes: 0, unattendedNodes: 0, fraction: 0, counted: false },
      autonomousNodes: 0,
      totalNodes: 0,
      contributions,
      rationale: `Nothing to score. The fraction defaults to 0.00 < ${formatFraction(bands.level2)} → level 1 (${labels[classes[1]]}).`,
      diagnostics,
    };
  }

  let autonomousNodes = 0;
  let humanNodes = 0;
  let controlTotal = 0;
  let controlUnattended = 0;
  const unresolved: number[] = [];
  for (let i = 0; i < totalNodes; i++) {
    const c = contributions[i];
    if (c.resolved && !c.requiresHuman) autonomousNodes++;
    if (c.requiresHuman) humanNodes++;
    if (!c.resolved) unresolved.push(i);
    if (c.governsFlow) {
      controlTotal++;
      if (!c.requiresHuman) controlUnattended++;
    }
  }
  if (unresolved.length > 0) diagnostics.push(unresolvedDiagnostic(context, unresolved));

  const staffingFraction = round4(autonomousNodes / totalNodes);
  const control: AutonomyControl = {
    totalNodes: controlTotal,
    unattendedNodes: controlUnattended,
    fraction: controlTotal === 0 ? 0 : round4(controlUnattended / controlTotal),
    counted: controlTotal >= config.minControlPoints,
  };
  const fraction = control.counted ? Math.min(staffingFraction, control.fraction) : staffingFraction;
  const level: AutonomyLevel = fraction > bands.level4 ? 4 : fraction >= bands.level3 ? 3 : fraction >= bands.level2 ? 2 : 1;
  const autonomyClass = classes[level];
  const label = labels[autonomyClass];
  const comparison =
    level === 4
      ? `${formatFraction(fraction)} > ${formatFraction(bands.level4)}`
      : level === 3
        ? `${formatFraction(fraction)} ≥ ${formatFraction(bands.level3)}`
        : level === 2
          ? `${formatFraction(fraction)} ≥ ${formatFraction(bands.level2)}`
          : `${formatFraction(fraction)} < ${formatFraction(bands.level2)}`;

  const rationale =
    `${autonomousNodes} of ${totalNodes} ${totalNodes === 1 ? 'node runs' : 'nodes run'} unattended, ` +
    `${humanNodes === 0 ? 'none have' : humanNodes === 1 ? '1 has' : `${humanNodes} have`} a person in the loop` +
    `${unresolved.length === 0 ? '' : unresolved.length === 1 ? ', 1 has' : `, ${unresolved.length} have`}${unresolved.length === 0 ? '' : ' no card in the bundle'}.` +
    controlSentence(control) +
    ` ${comparison} → level ${level} (${label}).`;

  return {
    autonomyClass,
    isDarkFactory: autonomousNodes === totalNodes && phaseCoverage.missing.length === 0,
    level,
    label,
    fraction,
    staffingFraction,
    control,
    autonomousNodes,
    totalNodes,
    contributions,
    rationale,
    diagnostics,
  };
}

/**
 * DarkPrint's number format (docs/compatibility.md#number-format): four decimals with trailing
 * zeros dropped, but never fewer than two (`0.6667`, `0.50`, `1.00`).
 */
export function formatFraction(value: number): string {
  const fixed = value.toFixed(4);
  const dot = fixed.indexOf('.');
  let end = fixed.length;
  while (end > dot + 3 && fixed.charCodeAt(end - 1) === 48) end--;
  return fixed.slice(0, end);
}

export function round4(value: number): number {
  return Math.round(value * 1e4) / 1e4;
}

function controlSentence(control: AutonomyControl): string {
  if (control.totalNodes === 0) return '';
  const points = control.totalNodes === 1 ? 'control point' : 'control points';
  return control.counted
    ? ` ${control.unattendedNodes} of ${control.totalNodes} ${points} run unattended.`
    : ` The graph declares ${control.totalNodes} ${points}, which is one reading rather than a share.`;
}

function contributionOf(context: AnalysisContext, index: number): AutonomyContribution {
  const nodeId = context.graph.ids[index];
  const card = context.cards[index];
  if (card === undefined) {
    return {
      nodeId,
      ref: '',
      name: nodeId,
      requiresHuman: false,
      resolved: false,
      governsFlow: false,
      explanation: `${nodeId} has no card in the bundle, so nothing says how it runs; it counts in the total, neither staffed nor unattended.`,
    };
  }
  const human = context.humanTerm[index];
  const control = context.controlTerm[index];
  const what = `${context.describe(index)} (type ${card.type})`;
  const decides = control === undefined ? '' : `, and it decides the flow (${control === card.type ? 'its type governs the flow' : `a kind of ${control}`})`;
  return {
    nodeId,
    ref: `${card.id}@${card.version}`,
    name: card.name,
    requiresHuman: human !== undefined,
    ...(human !== undefined ? { reason: 'human-in-the-loop-type' as const, term: human } : {}),
    resolved: true,
    governsFlow: control !== undefined,
    ...(control !== undefined ? { controlTerm: control } : {}),
    explanation:
      human !== undefined
        ? `${what} has a person in the loop${human === card.type ? '' : `: its type is a kind of ${human}`}${decides}.`
        : `${what} runs unattended${decides}.`,
  };
}

function unresolvedDiagnostic(context: AnalysisContext, unresolved: readonly number[]): Diagnostic {
  const total = context.size;
  const ids = unresolved.map((i) => context.graph.ids[i]);
  const fix = 'pin a card the bundle holds, or add the missing card file';
  if (ids.length === 1) {
    return {
      code: 'analysis/unresolved-node',
      severity: 'warning',
      message: `Node ${ids[0]} has no card in the bundle, so the autonomy reading counts it in the total without knowing whether a person acts there; ${fix}.`,
      location: context.nodeLocation(unresolved[0]),
    };
  }
  const subject =
    ids.length === total
      ? `None of the ${total} nodes has a card in the bundle`
      : `${ids.length} of the ${total} nodes have no card in the bundle (${listIds(ids)})`;
  return {
    code: 'analysis/unresolved-node',
    severity: 'warning',
    message: `${subject}, so the autonomy reading counts them in the total without knowing whether a person acts there; ${fix} for each.`,
    location: {},
  };
}

/**
 * `a`, `a and b`, `a, b and c`; past `max` names, the first `max` and how many more, so a
 * message stays readable on a large graph.
 */
export function listIds(ids: readonly string[], max = 10): string {
  if (ids.length > max) return `${ids.slice(0, max).join(', ')} and ${ids.length - max} more`;
  if (ids.length <= 2) return ids.join(' and ');
  return `${ids.slice(0, -1).join(', ')} and ${ids[ids.length - 1]}`;
}

