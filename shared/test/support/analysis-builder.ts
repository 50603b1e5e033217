/**
 * Builds an `AnalysisInput` straight from a tiny topology text and cards written as objects,
 * so analysis tests need neither the DOT parser nor card files.
 *
 * The topology is DOT-shaped: `digraph g { a -> b -> c; d; }`. Statements are separated by `;`
 * or newlines; each is one id or a chain `a -> b -> …`; ids are `[A-Za-z0-9_.]+` or `"quoted"`.
 * `//` comments are skipped. A node's span is its first appearance (the id token), which is
 * where node diagnostics must sit, so fixtures can annotate them with carets.
 *
 * Every node gets a default card (type `agent`, no ports, no markers) unless `cards` overrides
 * fields, or `missing` lists it (no card: an unresolved node).
 */
import type { Card } from '../../src/card/card-model';
import type { Span } from '../../src/text';
import type { Term } from '../../src/vocabulary/types';
import type { Analysis, AnalysisConfig, AnalysisInput } from '../../src/analyze';
import { analyze, defaultAnalysisConfig } from '../../src/analyze';
import { buildGraph } from '../../src/analyze/graph';
import { coreVocabulary, createVocabulary } from '../../src/vocabulary/view';
import { assertDiagnostics, parseFixture } from './fixture';

export type CardFields = Partial<Card>;

export interface AnalysisCase {
  /** The topology text (annotations already removed when it comes from a fixture). */
  readonly topology: string;
  /** Card fields per node id; unlisted nodes get the default card. */
  readonly cards?: Readonly<Record<string, CardFields>>;
  /** Node ids that have no card. */
  readonly missing?: readonly string[];
  /** Local vocabulary terms. */
  readonly terms?: readonly Term[];
  readonly file?: string;
}

/** A table row: a fixture whose first file (`//- topology.dot`, or any name) is the topology, annotated with the `analysis/*` warnings expected. */
export interface AnalysisFixture extends Omit<AnalysisCase, 'topology' | 'file'> {
  readonly name: string;
  readonly fixture: string;
  readonly config?: Partial<AnalysisConfig>;
}

/**
 * Runs the analyzer on a fixture, asserts that the `analysis/*` diagnostics are exactly the
 * annotated ones (file, range, severity, code, message text), and returns the analysis for
 * the row's own checks.
 */
export function checkAnalysis(row: AnalysisFixture): Analysis {
  const fixture = parseFixture(row.fixture);
  const topology = fixture.files[0];
  if (!topology) throw new Error(`${row.name}: the fixture has no topology file`);
  const input = analysisInput({ ...row, topology: topology.text, file: topology.path });
  const analysis = analyze(input, { ...defaultAnalysisConfig, ...row.config });
  assertDiagnostics(fixture, analysis.diagnostics, ['analysis/']);
  return analysis;
}

export function card(id: string, fields: CardFields = {}): Card {
  return {
    id,
    name: id,
    type: 'agent',
    phases: [],
    action: `Does the work of ${id}.`,
    // every 3-word window holds the id, so two default specs never look alike
    spec: `${id} does ${id} work for ${id} only`,
    tools: [],
    mcp: [],
    params: {},
    inputs: [],
    outputs: [],
    dependencies: [],
    cannot: [],
    willNot: [],
    riskMarkers: [],
    version: '1.0.0',
    ...fields,
  };
}

export function analysisInput(test: AnalysisCase): AnalysisInput {
  const { ids, spans, edges } = readTopology(test.topology);
  const graph = buildGraph(ids, edges);
  const missing = new Set(test.missing ?? []);
  const vocabulary = test.terms ? createVocabulary(test.terms).vocabulary : coreVocabulary;
  return {
    graph,
    nodes: graph.ids.map((id) => ({
      id,
      ...(missing.has(id) ? {} : { card: card(id, test.cards?.[id]) }),
      ...(spans.has(id) ? { span: spans.get(id)! } : {}),
    })),
    vocabulary,
    file: test.file ?? 'topology.dot',
  };
}

/** A local term, with the fields a test rarely cares about filled in. */
export function localTerm(fields: Partial<Term> & Pick<Term, 'id' | 'kind'>): Term {
  return { label: fields.id, meaning: `Local term ${fields.id}.`, ...fields };
}

const token = /\/\/[^\n]*|"((?:[^"\\]|\\.)*)"|([A-Za-z0-9_.]+)|(->)|([;\n{}])|\S/g;

function readTopology(text: string): { ids: string[]; spans: Map<string, Span>; edges: { source: string; target: string }[] } {
  const ids: string[] = [];
  const spans = new Map<string, Span>();
  const edges: { source: string; target: string }[] = [];
  let chain: string[] = [];
  let arrow = false;
  let header = true;
  const end = (): void => {
    for (let i = 0; i + 1 < chain.length; i++) edges.push({ source: chain[i], target: chain[i + 1] });
    chain = [];
    arrow = false;
  };
  for (const m of text.matchAll(token)) {
    if (m[0].startsWith('//')) continue;
    if (header) {
      if (m[0] === '{') header = false;
      continue;
    }
    const id = m[1] ?? m[2];
    if (id !== undefined) {
      if (chain.length > 0 && !arrow) end();
      chain.push(id);
      arrow = false;
      if (!spans.has(id)) {
        spans.set(id, { start: m.index!, end: m.index! + m[0].length });
        ids.push(id);
      }
    } else if (m[3] !== undefined) {
      arrow = true;
    } else {
      end();
    }
  }
  end();
  return { ids, spans, edges };
}
