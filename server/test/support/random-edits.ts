/**
 * Random edits and requests for the server's robustness tests and the storm benchmark
 * (scripts/bench-storm.ts): a small bundle to start from, snippets and garbage to type, one
 * random incremental edit at a time, and one random request whose answer is checked to lie
 * inside its document. Deterministic for a seed (`mulberry32`).
 */
import assert from 'node:assert/strict';
import type { CompletionList, DocumentSymbol, FoldingRange, Hover, Range, TextEdit } from 'vscode-languageserver-protocol/node';
import { lineIndex } from '../../../shared/src/text';
import type { Session } from './lsp-client';
import { assertInside } from './scenario';

/** The bundle the random edits start from: five files, every kind the engine reads. */
export const fuzzFiles: Record<string, string> = {
  'topology.dot': `digraph g {
  node [shape=box];
  writer [card="writer@1.0.0", label="Writer"];
  reviewer [card="reviewer@1.0.0"];
  writer -> reviewer [out="draft", in="draft", condition="outcome=success"];
  subgraph cluster_a { reviewer; }
}
`,
  'cards/writer@1.0.0.yaml': `id: writer
name: Writer
type: agent
phase: [implementation]
action: write
spec: Writes the draft of the document from the brief it is given.
tools: [file-io, web-search]
inputs: []
outputs:
  - name: draft
    type: markdown
    description: the draft
risk_markers: [unchecked-write]
version: 1.0.0
`,
  'cards/reviewer@1.0.0.yaml': `id: reviewer
name: Reviewer
type: validation
phase: testing
action: review
spec: >-
  Reviews the draft and writes a report of what should change.
params: { max_iterations: 3, nested: { list: [1, 2, "x"] } }
inputs:
  - name: draft
    type: local-notes
    required: true
outputs:
  - name: report
    type: report
dependencies: [writer]
cannot: [acceptance-criteria]
will_not: [code]
version: 1.0.0
`,
  'ontology/extensions.yaml': `terms:
  - id: local-notes
    kind: data-type
    label: Local notes
    description: Notes kept by the team.
    since: 1.0.0
    broader: markdown
`,
  'blueprint.yaml': `slug: fuzz
title: Fuzz bundle
summary: A bundle the fuzz test edits.
tags: [fuzz]
`,
};

const snippets: readonly string[] = [
  // DOT
  '->', '--', '[', ']', '{', '}', ';', ',', '=', '"', '\\"', 'card="', 'writer@1.0.0', '@', '@@', 'out="', 'in="',
  'digraph', 'graph', 'strict ', 'node', 'edge', 'subgraph', 'start', 'code-builder', '#', '// c\n', '/*', '*/', '<', '<b>', '>',
  'condition="outcome=fail"', 'weight=2', 'timeout=900s', ' + ', ':port', 'version="1.x"', 'digest="sha256:00"', '\n  a -> b -> c;\n',
  // YAML / JSON
  ': ', '- ', '\n  ', '\n- ', '\n    ', 'id: ', 'type: ', 'phase: ', 'inputs:', 'outputs:', 'name: x\n', '  - name: y\n    type: code\n',
  'cannot: [', 'will_not: [', 'dependencies: [', 'risk_markers: [', 'params:', '{', '}', '[]', '{}', "'", '"', '&a ', '*a', '!!str ', '!!binary ',
  '|', '>-', '---\n', '...\n', '? ', 'null', '~', 'true', '1e999', '0x1F', '-.inf', '2.0.0', 'kind: tool', 'broader: any', 'defaultWeight: 9',
  'requires_human: true', '__proto__: 1', 'constructor: x', 'toString: y', '%YAML 1.2\n', '\t',
];

const garbage: readonly string[] = ['\u0000', '\u0007', '\r', '\r\n', '\n\r', '\u2028', '\u2029', '\ufeff', '\ud800', '\udc00', '😀', '\u0301', '\u200b', '\u00a0', '\\', '\u001b[31m', 'é', '𝔸'];

export function randomEdit(text: string, random: () => number): { range: Range; text: string; after: string } {
  let start = avoidCrlfMiddle(text, Math.floor(random() * (text.length + 1)));
  let end = start;
  let insert = '';
  const roll = random();
  if (text.length > 3000) {
    // keep documents small: drop a chunk
    end = avoidCrlfMiddle(text, Math.min(text.length, start + 200 + Math.floor(random() * 800)));
  } else if (roll < 0.35) {
    insert = snippets[Math.floor(random() * snippets.length)];
  } else if (roll < 0.6) {
    end = avoidCrlfMiddle(text, Math.min(text.length, start + 1 + Math.floor(random() * 20)));
  } else if (roll < 0.75) {
    const n = 1 + Math.floor(random() * 4);
    for (let i = 0; i < n; i++) insert += garbage[Math.floor(random() * garbage.length)];
  } else if (roll < 0.85) {
    // half-typed: the beginning of a snippet, or of a copy of a nearby line
    const lineStart = text.lastIndexOf('\n', start - 1) + 1;
    const lineEnd = text.indexOf('\n', start);
    const line = text.slice(lineStart, lineEnd < 0 ? text.length : lineEnd);
    const source = random() < 0.5 ? line : snippets[Math.floor(random() * snippets.length)];
    insert = `${random() < 0.5 ? '\n' : ''}${source.slice(0, Math.floor(random() * (source.length + 1)))}`;
  } else if (roll < 0.95) {
    // replace a span by a snippet
    end = avoidCrlfMiddle(text, Math.min(text.length, start + Math.floor(random() * 12)));
    insert = snippets[Math.floor(random() * snippets.length)];
  } else {
    // move to a random spot and retype a line ending
    start = avoidCrlfMiddle(text, Math.floor(random() * (text.length + 1)));
    end = start;
    insert = ['\n', '\r\n', '\r'][Math.floor(random() * 3)];
  }
  if (end < start) [start, end] = [end, start];
  const index = lineIndex(text);
  const range: Range = { start: index.positionAt(start), end: index.positionAt(end) };
  return { range, text: insert, after: text.slice(0, start) + insert + text.slice(end) };
}

export function avoidCrlfMiddle(text: string, offset: number): number {
  return offset > 0 && text.charCodeAt(offset - 1) === 13 && text.charCodeAt(offset) === 10 ? offset + 1 : offset;
}

export const requestKinds = ['hover', 'completion', 'definition', 'references', 'prepareRename', 'documentSymbol', 'foldingRange', 'codeAction'] as const;

/** Fires one request at a random position and checks that whatever comes back lies inside the document. */
export async function fuzzRequest(session: Session, current: Map<string, string>, names: readonly string[], random: () => number, where: string): Promise<void> {
  const file = names[Math.floor(random() * names.length)];
  const text = current.get(file)!;
  const index = lineIndex(text);
  const offset = avoidCrlfMiddle(text, Math.floor(random() * (text.length + 1)));
  const position = index.positionAt(offset);
  const textDocument = { uri: session.uri(file) };
  const kind = requestKinds[Math.floor(random() * requestKinds.length)];
  const inside = (range: Range, what: string): void => assertInside(text, range, `${where}: ${kind} in ${file} at ${JSON.stringify(position)}: ${what}`);
  switch (kind) {
    case 'hover': {
      const hover = await session.request<Hover | null>('textDocument/hover', { textDocument, position });
      if (hover?.range) inside(hover.range, 'hover range');
      return;
    }
    case 'completion': {
      const list = await session.request<CompletionList | null>('textDocument/completion', { textDocument, position });
      for (const item of list?.items ?? []) {
        const edit = item.textEdit as TextEdit | undefined;
        if (edit && 'range' in edit) inside(edit.range, `completion ${item.label}`);
      }
      return;
    }
    case 'definition':
    case 'references': {
      const method = kind === 'definition' ? 'textDocument/definition' : 'textDocument/references';
      const locations = await session.request<{ uri: string; range: Range }[] | null>(method, { textDocument, position, context: { includeDeclaration: true } });
      for (const l of locations ?? []) {
        const target = names.find((n) => session.uri(n) === l.uri);
        if (target) assertInside(current.get(target)!, l.range, `${where}: ${kind} target in ${target}`);
      }
      return;
    }
    case 'prepareRename': {
      const answer = await session.request<{ range: Range } | Range | null>('textDocument/prepareRename', { textDocument, position });
      if (answer) inside('range' in answer ? answer.range : answer, 'prepareRename range');
      return;
    }
    case 'documentSymbol': {
      const symbols = await session.request<DocumentSymbol[] | null>('textDocument/documentSymbol', { textDocument });
      const walk = (list: readonly DocumentSymbol[]): void => {
        for (const s of list) {
          inside(s.range, `symbol ${s.name}`);
          inside(s.selectionRange, `symbol ${s.name} selection`);
          walk(s.children ?? []);
        }
      };
      walk(symbols ?? []);
      return;
    }
    case 'foldingRange': {
      const folds = await session.request<FoldingRange[] | null>('textDocument/foldingRange', { textDocument });
      const lines = index.positionAt(text.length).line;
      for (const f of folds ?? []) assert.ok(f.startLine >= 0 && f.startLine <= f.endLine && f.endLine <= lines, `${where}: folding range ${JSON.stringify(f)} outside ${file}`);
      return;
    }
    case 'codeAction': {
      const end = index.positionAt(Math.min(text.length, offset + Math.floor(random() * 40)));
      await session.request('textDocument/codeAction', {
        textDocument,
        range: { start: position, end },
        context: { diagnostics: [], only: random() < 0.3 ? ['source.fixAll'] : undefined },
      });
      return;
    }
  }
}

/** A small seeded random generator (numbers in [0, 1)). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
