/**
 * The analysis configuration (docs/compatibility.md#analysis-configuration): the numbers the
 * security and autonomy scores are made of.
 *
 * A leaf of plain data, kept with the vocabulary whose risk markers it weighs: it imports nothing,
 * so the vocabulary table reads the core marker weights from here and the analysis, a layer
 * above, reads everything else. A deployment may
 * pass its own object of this shape (CLI flag, server setting); `defaultAnalysisConfig` is
 * DarkPrint's.
 */

export interface AutonomyBands {
  /** Level 4 (closed-loop) needs a fraction strictly above this. */
  readonly level4: number;
  /** Level 3 (conditional) needs a fraction at or above this. */
  readonly level3: number;
  /** Level 2 (supervised) needs a fraction at or above this. */
  readonly level2: number;
}

export interface CriteriaLeakConfig {
  /** A 3-gram Jaccard score strictly above this makes `analysis/criteria-leak-suspected`. */
  readonly similarityThreshold: number;
  /** When true, a suspected leak also charges the `criteria-leak` marker (DarkPrint: false). */
  readonly similarityFiresMarker: boolean;
}

export interface AnalysisConfig {
  readonly autonomyBands: AutonomyBands;
  /** The control-point reading decides a band only from this many control points up. */
  readonly minControlPoints: number;
  /**
   * Security weight per risk-marker id. Keys are user data: read them with `configuredWeight`,
   * never with a bare index, so a marker spelled `__proto__` or `constructor` finds nothing.
   */
  readonly securityWeights: Readonly<Record<string, number>>;
  /** What a marker with no usable weight anywhere costs. */
  readonly unknownMarkerWeight: number;
  readonly criteriaLeak: CriteriaLeakConfig;
}

export const defaultAnalysisConfig: AnalysisConfig = deepFreeze({
  autonomyBands: { level4: 0.9, level3: 0.7, level2: 0.5 },
  minControlPoints: 2,
  securityWeights: weights([
    ['arbitrary-code-execution', 2.0],
    ['unvalidated-external-access', 1.0],
    ['unbounded-loop', 1.5],
    ['unchecked-write', 1.0],
    ['criteria-leak', 2.0],
    ['secret-access', 1.0],
    ['irreversible-action', 1.5],
  ]),
  unknownMarkerWeight: 0,
  criteriaLeak: { similarityThreshold: 0.35, similarityFiresMarker: false },
});

/**
 * The weight the configuration gives a marker id, exactly as written there (possibly negative or
 * not finite: callers decide what an unusable weight means), or undefined when it names none.
 */
export function configuredWeight(config: Pick<AnalysisConfig, 'securityWeights'>, markerId: string): number | undefined {
  const table = config.securityWeights;
  if (!Object.prototype.hasOwnProperty.call(table, markerId)) return undefined;
  const value: unknown = table[markerId];
  return typeof value === 'number' ? value : undefined;
}

/** A weight table with no prototype, so inherited names (`__proto__`, `toString`) are not keys. */
function weights(entries: readonly (readonly [string, number])[]): Readonly<Record<string, number>> {
  const table = Object.create(null) as Record<string, number>;
  for (const [id, weight] of entries) table[id] = weight;
  return table;
}

function deepFreeze<T extends object>(value: T): T {
  for (const key of Object.keys(value)) {
    const child: unknown = (value as Record<string, unknown>)[key];
    if (typeof child === 'object' && child !== null) deepFreeze(child);
  }
  return Object.freeze(value);
}
