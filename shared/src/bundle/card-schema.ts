/**
 * The JSON Schema of a card (draft-07), made from the engine's tables: the fields and their
 * descriptions from `cardFields`, the terms of each kind from the core vocabulary, the id and
 * version patterns the reader checks. `npm run gen` writes it to `schemas/card.schema.json`, for
 * editors where the language server does not run (yaml-language-server and the editors built on
 * it). It says what a card's fields must look like, and no more: what needs the rest of the
 * bundle (pins, ports, local terms declared in `ontology/extensions.yaml`) is the engine's.
 *
 * A schema can only accept or refuse, so it is written to refuse what the engine reports as an
 * error and nothing else: a thin spec, an unknown key or a retired field (a warning or an
 * information) pass it. A term that is not a core term passes when it is namespaced
 * (`my-namespace/term`), as a bundle's local terms should be.
 */
import { coreVocabulary } from '../vocabulary/view';
import type { TermKind } from '../vocabulary/types';
import { retiredCardKeys } from '../check/card';
import { cardFields, portFields, type CardField } from '../card/card-fields';
import { cardIdPattern, strictSemverPattern } from '../card/card-ref';

/** A JSON Schema, as plain data. */
export type JsonSchema = { readonly [keyword: string]: unknown };

/** The card schema as a JSON value (see `renderCardSchema` for its text). */
export function cardSchema(): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const field of cardFields) {
    properties[field.key] = fieldSchema(field, field.description);
    if (field.alias !== undefined) {
      properties[field.alias] = fieldSchema(field, `Another spelling of \`${field.key}\`, read when \`${field.key}\` is absent. ${field.description}`);
    }
  }
  for (const [key, why] of retiredCardKeys) {
    properties[key] = { description: `No longer a card field, and ignored: ${why}. Remove it.`, deprecated: true };
  }
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: 'DarkPrint card',
    description:
      'One step of a DarkPrint blueprint: what it is, what it reads and writes, its tools, prohibitions and risk markers. Generated from the DarkPrint language tools\' tables by `npm run gen`; do not edit.',
    type: 'object',
    required: cardFields.filter((f) => f.required).map((f) => f.key),
    properties,
  };
}

/** The card schema as the text of `schemas/card.schema.json`. */
export function renderCardSchema(): string {
  return `${JSON.stringify(cardSchema(), undefined, 2)}\n`;
}

/** Text with something in it besides white space (a required field written blank is missing). */
const filled: JsonSchema = { type: 'string', pattern: '\\S' };

/** Text with white space inside it: a sentence, never a term id. */
const sentence: JsonSchema = { type: 'string', pattern: '\\S\\s+\\S' };

function fieldSchema(field: CardField, description: string): JsonSchema {
  // (an optional field may be written with no value, which is as if it were absent)
  const optional = (schema: JsonSchema): JsonSchema => {
    if (field.required) return { description, ...schema };
    const choices = Object.keys(schema).length === 1 && Array.isArray(schema.anyOf) ? (schema.anyOf as JsonSchema[]) : [schema];
    return { description, anyOf: [...choices, { type: 'null' }] };
  };
  switch (field.shape) {
    case 'text':
      return field.required ? { description, ...filled } : optional({ type: 'string' });
    case 'id':
      return { description, type: 'string', pattern: cardIdPattern.source };
    case 'version':
      return { description, type: 'string', pattern: strictSemverPattern.source };
    case 'term':
      return optional(termSchema(kindOf(field)));
    case 'phases': {
      const phase = termSchema(kindOf(field));
      return optional({ anyOf: [phase, { type: 'array', items: phase }] });
    }
    case 'text-list':
      return optional({ type: 'array', items: { type: 'string' } });
    case 'term-list': {
      const term = termSchema(kindOf(field));
      // (a sentence in `cannot` is a warning, not an error: the card still loads, see ../check/card.ts)
      return optional({ type: 'array', items: field.key === 'cannot' ? { anyOf: [...((term.anyOf as JsonSchema[] | undefined) ?? [term]), sentence] } : term });
    }
    case 'input-ports':
      return optional({ type: 'array', items: portSchema('input') });
    case 'output-ports':
      return optional({ type: 'array', items: portSchema('output') });
    case 'params':
      return optional({ type: 'object' });
    default:
      return assertNever(field.shape);
  }
}

function kindOf(field: CardField): TermKind {
  if (field.terms === undefined) throw new Error(`the card field ${field.key} holds terms but names no kind`);
  return field.terms;
}

/**
 * A term of `kind`: one of the core terms, or, for a kind a bundle may extend, a namespaced id
 * (a local term; the engine checks that the bundle declares it). Phases are closed.
 */
function termSchema(kind: TermKind): JsonSchema {
  const core: JsonSchema = { type: 'string', enum: coreVocabulary.terms(kind).map((t) => t.id) };
  if (kind === 'phase') return core;
  return { anyOf: [core, { type: 'string', pattern: '^\\S+/\\S+$' }] };
}

function portSchema(side: 'input' | 'output'): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const f of portFields) {
    if (f.inputsOnly && side === 'output') continue;
    switch (f.key) {
      case 'name':
        properties[f.key] = { description: f.description, ...filled };
        break;
      case 'type':
        properties[f.key] = { description: f.description, ...termSchema('data-type') };
        break;
      case 'required':
        properties[f.key] = { description: f.description, anyOf: [{ type: 'boolean' }, { type: 'null' }] };
        break;
      default:
        properties[f.key] = { description: f.description, anyOf: [{ type: 'string' }, { type: 'null' }] };
    }
  }
  return {
    type: 'object',
    description: side === 'input' ? 'An input port.' : 'An output port.',
    required: portFields.filter((f) => f.required).map((f) => f.key),
    properties,
  };
}

function assertNever(value: never): never {
  throw new Error(`unexpected card field shape ${String(value)}`);
}
