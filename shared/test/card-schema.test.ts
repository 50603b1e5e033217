/**
 * The card JSON Schema (`schemas/card.schema.json`, made by `npm run gen` from the card field
 * table and the vocabulary) against the engine: every card of the real-world corpus that the
 * engine reads without an error passes it, cards that break a field's shape fail it as the
 * engine fails them, and what the engine only warns about passes. Also: the schema ships in the
 * npm package and is not contributed to VS Code.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import Ajv from 'ajv';
import { parse } from 'yaml';
import { cardSchema } from '../src/bundle/card-schema';
import { cardFields } from '../src/card/card-fields';
import { cardKnownKeys, readCard, retiredCardKeys } from '../src/check/card';
import { coreVocabulary } from '../src/vocabulary';
import { loadBundle } from '../src/bundle/resolve';
import { readBundleFiles } from '../src/cli';

const repoRoot = path.resolve(__dirname, '../..');
const corpusBundles = path.join(process.env.DARKPRINT_CORPUS ?? path.resolve(repoRoot, '../shared/corpus'), 'darkprint-bundles');

const ajv = new Ajv({ allErrors: true, strict: true });
const validateCard = ajv.compile(JSON.parse(readFileSync(path.join(repoRoot, 'schemas/card.schema.json'), 'utf8')) as object);

/** A valid card, as YAML lines; a case replaces or adds lines. */
const validCard = {
  id: 'outline-writer',
  name: 'Outline writer',
  type: 'agent',
  action: 'Write the outline.',
  spec: 'Turn the brief into a numbered outline of sections, each with one line on what it covers.',
  inputs: [{ name: 'brief', type: 'text' }],
  outputs: [{ name: 'outline', type: 'markdown' }],
  version: '1.0.0',
};

/** The card with fields changed (`undefined` removes one), as YAML text (an object is written as JSON, which YAML reads). */
function cardText(changes: Record<string, unknown>, raw = ''): string {
  const fields: Record<string, unknown> = { ...validCard, ...changes };
  const lines = Object.entries(fields)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}: ${v === null ? '' : JSON.stringify(v)}`);
  return `${lines.join('\n')}\n${raw}`;
}

/** What the engine makes of a card file: its errors (codes), with the core vocabulary. */
function engineErrors(text: string, file = 'cards/outline-writer@1.0.0.yaml'): string[] {
  return readCard({ path: file, text }, coreVocabulary)
    .diagnostics.filter((d) => d.severity === 'error')
    .map((d) => d.code);
}

function schemaErrors(text: string): string[] {
  return validateCard(parse(text)) ? [] : (validateCard.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''}`);
}

describe('card JSON Schema', () => {
  it('is what the tables make (npm run gen keeps the file in step)', () => {
    assert.deepEqual(JSON.parse(readFileSync(path.join(repoRoot, 'schemas/card.schema.json'), 'utf8')), cardSchema());
  });

  it('describes every field the reader knows, retired ones as deprecated, and requires the required ones', () => {
    const schema = cardSchema() as { properties: Record<string, { description?: string; deprecated?: boolean }>; required: string[] };
    assert.deepEqual(Object.keys(schema.properties).sort(), [...cardKnownKeys, ...retiredCardKeys.keys()].sort());
    for (const [key, property] of Object.entries(schema.properties)) assert.ok((property.description ?? '').length > 10, `${key} has a description`);
    for (const key of retiredCardKeys.keys()) assert.equal(schema.properties[key].deprecated, true);
    assert.deepEqual(schema.required, ['id', 'name', 'type', 'action', 'spec', 'inputs', 'outputs', 'version']);
    assert.deepEqual(schema.required, cardFields.filter((f) => f.required).map((f) => f.key));
  });

  describe('cards that break a field\'s shape fail it, as the engine fails them', () => {
    const cases: { name: string; text: string }[] = [
      { name: 'no id', text: cardText({ id: undefined }) },
      { name: 'an id in capitals', text: cardText({ id: 'Outline-Writer' }) },
      { name: 'a blank name', text: cardText({ name: '  ' }) },
      { name: 'a type that is no term', text: cardText({ type: 'robot' }) },
      { name: 'a type of another kind', text: cardText({ type: 'planning' }) },
      { name: 'a phase that is none of the five', text: cardText({ phase: 'launch' }) },
      { name: 'a namespaced phase', text: cardText({ phase: ['acme/launch'] }) },
      { name: 'tools as one string', text: cardText({ tools: 'web-search' }) },
      { name: 'a tool that is no term', text: cardText({ tools: ['hammer'] }) },
      { name: 'a spec that is a number', text: cardText({ spec: 42 }) },
      { name: 'no inputs', text: cardText({ inputs: undefined }) },
      { name: 'inputs as a mapping', text: cardText({ inputs: { brief: 'text' } }) },
      { name: 'a port without a type', text: cardText({ inputs: [{ name: 'brief' }] }) },
      { name: 'a port of an unknown data type', text: cardText({ outputs: [{ name: 'outline', type: 'prose' }] }) },
      { name: 'required written as text', text: cardText({ inputs: [{ name: 'brief', type: 'text', required: 'no' }] }) },
      { name: 'params as a list', text: cardText({ params: ['a'] }) },
      { name: 'a risk marker that is no term', text: cardText({ risk_markers: ['hazard'] }) },
      { name: 'will_not as text', text: cardText({ will_not: 'push' }) },
      { name: 'a version with a v', text: cardText({ version: 'v1.0.0' }) },
      { name: 'a version written as a number', text: cardText({ version: undefined }, 'version: 1.0\n') },
      { name: 'a document that is a list', text: '- id: outline-writer\n' },
    ];
    for (const c of cases) {
      it(c.name, () => {
        assert.notDeepEqual(engineErrors(c.text), [], 'the engine reports an error');
        assert.notDeepEqual(schemaErrors(c.text), [], 'the schema refuses it');
      });
    }
  });

  describe('what the engine only warns about, or reads as absent, passes it', () => {
    const cases: { name: string; text: string }[] = [
      { name: 'the card as it is', text: cardText({}) },
      { name: 'a spec too thin', text: cardText({ spec: 'Do it.' }) },
      { name: 'a key that is no field', text: cardText({ colour: 'red' }) },
      { name: 'a retired field', text: cardText({ requires_human: true }) },
      { name: 'the aliases', text: cardText({ phases: ['planning', 'testing'], willNot: ['push'], riskMarkers: ['secret-access'] }) },
      { name: 'one phase as a string', text: cardText({ phase: 'planning' }) },
      { name: 'optional fields written with no value', text: cardText({ model: null, tools: null, params: null, phase: null }) },
      { name: 'a sentence in cannot', text: cardText({ cannot: ['anything the judge wrote'] }) },
      { name: 'namespaced local terms', text: cardText({ type: 'acme/reviewer', tools: ['acme/linter'] }) },
      { name: 'an optional input and params of any JSON', text: cardText({ inputs: [{ name: 'brief', type: 'text', required: false }], params: { max_iterations: 3, nested: { a: [1, null] } } }) },
    ];
    for (const c of cases) {
      it(c.name, () => {
        assert.deepEqual(schemaErrors(c.text), []);
      });
    }
  });

  it('every card of the real-world corpus the engine reads without an error passes it', async () => {
    assert.ok(existsSync(corpusBundles), `${corpusBundles} is absent: the corpus is read from ../shared/corpus beside the repository (or set DARKPRINT_CORPUS)`);
    let checked = 0;
    const failures: string[] = [];
    for (const slug of readdirSync(corpusBundles, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort()) {
      const files = await readBundleFiles(path.join(corpusBundles, slug));
      const errors = new Set(loadBundle(files, { folderName: slug }).diagnostics.filter((d) => d.severity === 'error' && d.code.startsWith('card/')).map((d) => d.location.file));
      for (const f of files.filter((x) => x.path.startsWith('cards/') && !errors.has(x.path))) {
        checked++;
        const problems = schemaErrors(f.text);
        if (problems.length > 0) failures.push(`${slug}/${f.path}: ${problems.join('; ')}`);
      }
    }
    assert.ok(checked >= 50, `the corpus holds many cards (${checked} checked)`);
    assert.deepEqual(failures, []);
  });

  it('ships in the npm package and is not contributed to VS Code', () => {
    const manifest = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { files?: string[]; contributes?: Record<string, unknown> };
    assert.ok(manifest.files === undefined || manifest.files.some((f) => f.replace(/\/$/, '') === 'schemas'), 'package.json files lists schemas/');
    assert.equal(manifest.contributes?.yamlValidation, undefined);
    assert.equal(manifest.contributes?.jsonValidation, undefined);
  });
});
