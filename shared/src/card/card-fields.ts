/**
 * THE table of card fields (docs/compatibility.md#card-fields): every top-level key a card may
 * hold, the spelling DarkPrint writes and the alias it also reads, whether it is required, the
 * shape of its value, the vocabulary kind of the terms it holds, and what it means. The card
 * reader's set of known keys and the card JSON Schema (`schemas/card.schema.json`, see
 * ./card-schema.ts) are read from it. How each value is checked in detail (ranges, messages) is the
 * reader's, in ../check/card.ts.
 */
import type { TermKind } from '../vocabulary/types';

/** The shape of a field's value. */
export type CardFieldShape =
  /** Text. */
  | 'text'
  /** The card id (see `cardIdPattern`). */
  | 'id'
  /** A strict semantic version. */
  | 'version'
  /** One term of the field's `terms` kind. */
  | 'term'
  /** One phase, or a list of phases. */
  | 'phases'
  /** A list of texts. */
  | 'text-list'
  /** A list of terms of the field's `terms` kind. */
  | 'term-list'
  /** A list of ports (name, data type, description; `required` on inputs only). */
  | 'input-ports'
  | 'output-ports'
  /** A mapping of names to JSON values. */
  | 'params';

export interface CardField {
  /** The spelling DarkPrint writes. */
  readonly key: string;
  /** Another spelling it reads (the written one wins when both are present). */
  readonly alias?: string;
  /** Required: a card without it, or with it blank, is an error (`card/missing-field`). */
  readonly required: boolean;
  readonly shape: CardFieldShape;
  /** The vocabulary kind of the terms the field holds (`term`, `term-list`, `phases`). */
  readonly terms?: TermKind;
  /** What the field says, in a sentence or two (schema descriptions, editors' hovers). */
  readonly description: string;
}

/** The card's fields in the order DarkPrint documents them (docs/compatibility.md#card-fields): identity, behaviour, interfaces, evaluation, service. */
export const cardFields: readonly CardField[] = Object.freeze([
  {
    key: 'id',
    required: true,
    shape: 'id',
    description:
      'The card id: lowercase letters and digits in words joined by single hyphens, with at most one `namespace/` prefix (`outline-writer`, `acme/outline-writer`). Nodes pin the card as `id@version`, and its file is named `cards/<id>@<version>.yaml`.',
  },
  { key: 'name', required: true, shape: 'text', description: 'A short human-readable title of the step.' },
  {
    key: 'type',
    required: true,
    shape: 'term',
    terms: 'node-type',
    description:
      'The one kind of worker at the node, a node type of the vocabulary (`agent`, `tool`, `human-gate`, ...). It alone says whether a person acts there and whether the node decides the flow.',
  },
  {
    key: 'phase',
    alias: 'phases',
    required: false,
    shape: 'phases',
    terms: 'phase',
    description: 'The lifecycle stages the node works in: one phase or a list of them. Optional; the five phases are closed, never namespaced.',
  },
  { key: 'action', required: true, shape: 'text', description: 'One line saying what the node does.' },
  {
    key: 'spec',
    required: true,
    shape: 'text',
    description:
      'The instructions the agent at the node reads, and nothing else of the graph: what to do, what to produce and what to leave alone. Under 40 characters it is too thin (`card/spec-too-thin`).',
  },
  { key: 'model', required: false, shape: 'text', description: 'The model the node runs on, as its host names it.' },
  { key: 'agent', required: false, shape: 'text', description: 'The agent its host runs at the node.' },
  {
    key: 'tools',
    required: false,
    shape: 'term-list',
    terms: 'tool',
    description:
      'The capabilities the node needs from its host, tools of the vocabulary. A tool under `web-search`, `http-fetch`, `sql` or `ci` brings outside data in.',
  },
  { key: 'mcp', required: false, shape: 'text-list', description: 'The MCP servers that supply the node\'s tools; free text, checked against nothing.' },
  { key: 'skill', required: false, shape: 'text', description: 'The skill the node runs.' },
  {
    key: 'params',
    required: false,
    shape: 'params',
    description:
      'Settings of the node, names to JSON values. A `shell-tool` needs `tool_command`, the command it runs; `max_iterations` caps the loop the node is in.',
  },
  {
    key: 'inputs',
    required: true,
    shape: 'input-ports',
    description:
      'The ports the node reads, each with a `name` (edges address it with `in=`) and the data `type` it takes; `required: false` makes one optional. Write `[]` for none.',
  },
  {
    key: 'outputs',
    required: true,
    shape: 'output-ports',
    description: 'The ports the node writes, each with a `name` (edges address it with `out=`) and the data `type` it carries. Write `[]` for none.',
  },
  {
    key: 'dependencies',
    required: false,
    shape: 'text-list',
    description: 'The cards (ids) or nodes whose output this node needs; every node that feeds it should be listed.',
  },
  {
    key: 'cannot',
    required: false,
    shape: 'term-list',
    terms: 'data-type',
    description: 'Data types the node must never receive, with everything narrower: an edge carrying one into the node is refused (`bundle/prohibition-violated`).',
  },
  {
    key: 'will_not',
    alias: 'willNot',
    required: false,
    shape: 'text-list',
    description: 'What the node will not do, in sentences for people; nothing checks them (a data type belongs in `cannot`).',
  },
  {
    key: 'risk_markers',
    alias: 'riskMarkers',
    required: false,
    shape: 'term-list',
    terms: 'risk-marker',
    description: 'The risks the node brings, risk markers of the vocabulary; each distinct marker lowers the blueprint\'s security level once.',
  },
  { key: 'notes', required: false, shape: 'text', description: 'Notes for the people who maintain the card.' },
  {
    key: 'version',
    required: true,
    shape: 'version',
    description: 'The card\'s version, a strict semantic version (MAJOR.MINOR.PATCH, no `v`, no leading zeros), as nodes pin it after the `@`.',
  },
  { key: 'author', required: false, shape: 'text', description: 'Who wrote the card (not part of its digest).' },
  {
    key: 'provenance',
    required: false,
    shape: 'text',
    description: 'Where the card comes from, such as `derived:attractor pipeline.dot` for an imported one (not part of its digest).',
  },
] satisfies CardField[]);

/** A port's fields (docs/compatibility.md#card-fields): `{ name, type, description?, required? }`, `required` on inputs only. */
export const portFields: readonly { readonly key: string; readonly required: boolean; readonly inputsOnly: boolean; readonly description: string }[] = Object.freeze([
  { key: 'name', required: true, inputsOnly: false, description: 'The port name, which edges use in `out=` and `in=`; unique among the card\'s inputs, and among its outputs.' },
  { key: 'type', required: true, inputsOnly: false, description: 'The data type the port carries, a data type of the vocabulary.' },
  { key: 'description', required: false, inputsOnly: false, description: 'What the port carries, for people.' },
  { key: 'required', required: false, inputsOnly: true, description: '`false` makes the input optional; absent, it is required.' },
]);
