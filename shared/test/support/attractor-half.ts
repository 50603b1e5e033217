/**
 * The round-trip instrument (docs/compatibility.md#round-trip): the "Attractor half" of a pipeline
 * is what the exporter can express, the reserved names it writes (graph goal/label; node label,
 * shape, prompt, llm_model, max_retries, tool_command, class; edge label, condition, weight), read
 * with the independent conformance reader. `card` and `dp_node` are DarkPrint's own and ignored;
 * the entry and exit nodes are compared by role (`<start>`, `<exit>`), whatever their ids.
 */
import { emittedAttributes } from '../../src/compile';
import { checkAttractorConformance, type AttractorGraph, type AttractorNode } from './attractor-conformance';

export interface AttractorHalf {
  readonly graph: ReadonlyMap<string, string>;
  /** Work nodes (not entry or exit) by id. */
  readonly nodes: ReadonlyMap<string, ReadonlyMap<string, string>>;
  /** Edges keyed `from -> to` (plus `#n` for the n-th parallel edge), entry and exit by role. */
  readonly edges: ReadonlyMap<string, ReadonlyMap<string, string>>;
}

export function readHalf(text: string): AttractorHalf {
  const read = checkAttractorConformance(text, { lenient: true });
  if (!read.graph) throw new Error(`not readable as Attractor: ${read.findings.map((f) => f.message).join('; ')}`);
  return half(read.graph);
}

function roleOf(node: AttractorNode | undefined, id: string): 'start' | 'exit' | undefined {
  const shape = node?.attrs.get('shape')?.text;
  if (shape === 'Mdiamond' || id === 'start' || id === 'Start') return 'start';
  if (shape === 'Msquare' || id === 'exit' || id === 'end') return 'exit';
  return undefined;
}

function pick(attrs: ReadonlyMap<string, { text: string }>, names: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const name of names) {
    const v = attrs.get(name);
    if (v !== undefined) out.set(name, v.text);
  }
  return out;
}

function half(graph: AttractorGraph): AttractorHalf {
  const nodes = new Map<string, Map<string, string>>();
  const endpoint = (id: string): string => {
    const role = roleOf(graph.nodes.get(id), id);
    return role ? `<${role}>` : id;
  };
  for (const [id, node] of graph.nodes) {
    if (roleOf(node, id)) continue;
    nodes.set(id, pick(node.attrs, emittedAttributes.node));
  }
  const edges = new Map<string, Map<string, string>>();
  for (const e of graph.edges) {
    const base = `${endpoint(e.from)} -> ${endpoint(e.to)}`;
    let key = base;
    for (let n = 2; edges.has(key); n++) key = `${base} #${n}`;
    edges.set(key, pick(e.attrs, emittedAttributes.edge));
  }
  return { graph: pick(graph.attrs, emittedAttributes.graph), nodes, edges };
}

/**
 * Every difference from `before` to `after`, one line each, e.g. "changed on graph `goal`",
 * "added on node `answer` `label`: \"x\"", "dropped on edge `<start> -> answer` `label`",
 * "node-added `x`", "edge-dropped `a -> b`".
 */
export function diffHalves(before: AttractorHalf, after: AttractorHalf): string[] {
  const out: string[] = [];
  const attributes = (where: string, a: ReadonlyMap<string, string>, b: ReadonlyMap<string, string>): void => {
    for (const [k, v] of a) {
      if (!b.has(k)) out.push(`dropped on ${where} \`${k}\`: ${JSON.stringify(v)}`);
      else if (b.get(k) !== v) out.push(`changed on ${where} \`${k}\`: ${JSON.stringify(v)} -> ${JSON.stringify(b.get(k))}`);
    }
    for (const [k, v] of b) if (!a.has(k)) out.push(`added on ${where} \`${k}\`: ${JSON.stringify(v)}`);
  };
  attributes('graph', before.graph, after.graph);
  for (const [id, attrs] of before.nodes) {
    const other = after.nodes.get(id);
    if (other) attributes(`node \`${id}\``, attrs, other);
    else out.push(`node-dropped \`${id}\``);
  }
  for (const id of after.nodes.keys()) if (!before.nodes.has(id)) out.push(`node-added \`${id}\``);
  for (const [key, attrs] of before.edges) {
    const other = after.edges.get(key);
    if (other) attributes(`edge \`${key}\``, attrs, other);
    else out.push(`edge-dropped \`${key}\``);
  }
  for (const key of after.edges.keys()) if (!before.edges.has(key)) out.push(`edge-added \`${key}\``);
  return out;
}
