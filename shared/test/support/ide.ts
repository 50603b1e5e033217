/**
 * Helpers for the IDE feature tests: a fixture loaded as an `IdeBundle` with its cursor, YAML
 * card text for fixtures, and a readable rendering of a `FileSpan` (`path:line:text`).
 */
import assert from 'node:assert/strict';
import { loadBundle } from '../../src/bundle/resolve';
import type { FileSpan, IdeBundle } from '../../src/ide';
import { lineIndex } from '../../src/text';
import { parseFixture, type Fixture } from './fixture';

export interface Loaded {
  readonly fixture: Fixture;
  readonly bundle: IdeBundle;
  /** The file holding the `$0` cursor. */
  readonly file: string;
  readonly offset: number;
}

export function loadFixture(source: string): Loaded {
  const fixture = parseFixture(source);
  const files = new Map(fixture.files.map((f) => [f.path, f] as const));
  const result = loadBundle(fixture.files, { folderName: 'fixture' });
  const cursor = fixture.cursor;
  return { fixture, bundle: { files, result }, file: cursor?.path ?? fixture.files[0]?.path ?? '', offset: cursor?.offset ?? 0 };
}

export function loadWithCursor(source: string): Loaded {
  const loaded = loadFixture(source);
  assert.ok(loaded.fixture.cursor, 'the fixture needs a $0 cursor');
  return loaded;
}

/** `path:line:text` for a location (line 1-based). */
export function render(bundle: IdeBundle, location: FileSpan): string {
  const text = bundle.files.get(location.file)?.text ?? '';
  const line = lineIndex(text).positionAt(location.span.start).line + 1;
  return `${location.file}:${line}:${text.slice(location.span.start, location.span.end)}`;
}

export const spec = 'Does one well-defined step of the pipeline and reports what it did.';

export interface CardSpec {
  readonly id: string;
  readonly version?: string;
  readonly type?: string;
  readonly inputs?: readonly (readonly [string, string])[];
  readonly outputs?: readonly (readonly [string, string])[];
  readonly dependencies?: readonly string[];
  /** Extra YAML lines, written before `version`. */
  readonly extra?: readonly string[];
}

/** A valid YAML card (block style), one field per line. */
export function card(c: CardSpec): string {
  const ports = (key: string, list: readonly (readonly [string, string])[] = []): string[] =>
    list.length === 0 ? [`${key}: []`] : [`${key}:`, ...list.flatMap(([name, type]) => [`  - name: ${name}`, `    type: ${type}`])];
  return [
    `id: ${c.id}`,
    `name: ${c.id}`,
    `type: ${c.type ?? 'agent'}`,
    'action: act',
    `spec: ${spec}`,
    ...ports('inputs', c.inputs),
    ...ports('outputs', c.outputs),
    ...(c.dependencies !== undefined ? [`dependencies: [${c.dependencies.join(', ')}]`] : []),
    ...(c.extra ?? []),
    `version: ${c.version ?? '1.0.0'}`,
  ].join('\n');
}
