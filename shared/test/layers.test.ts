/**
 * The engine's layers hold: a folder of `shared/src` imports only from folders below it, no two
 * modules import each other, directly or round a circle, and the server and the extension reach
 * the engine only through its public entry (docs/architecture.md#layers; the README's
 * architecture table lists the same order). Read from the source with TypeScript's own
 * parser, type-only imports included: a type that runs up the layers ties the layers together as
 * surely as a call does.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** The engine's folders from the bottom up; a folder may import from the rows before its own. */
export const engineLayers: readonly (readonly string[])[] = [
  ['arrays.ts', 'stage.ts', 'text'],
  ['hash'],
  ['diagnostics'],
  ['syntax'],
  ['vocabulary'],
  ['card'],
  ['check'],
  ['analyze'],
  ['bundle'],
  ['compile'],
  ['ide', 'picture'],
  ['protocol'],
  ['index.ts'],
  ['cli.ts'],
];

const engine = path.resolve(__dirname, '../src');

function sourceFiles(folder: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(full));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

/** The files a module imports or re-exports from (relative specifiers only), resolved to paths. */
function importsOf(file: string): string[] {
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
  const out: string[] = [];
  const visit = (node: ts.Node): void => {
    let specifier: ts.Expression | undefined;
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) specifier = node.moduleSpecifier;
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) specifier = node.arguments[0];
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) specifier = node.argument.literal;
    if (specifier && ts.isStringLiteral(specifier) && specifier.text.startsWith('.')) {
      const base = path.resolve(path.dirname(file), specifier.text);
      const found = [`${base}.ts`, path.join(base, 'index.ts'), base].find((candidate) => fs.existsSync(candidate) && fs.statSync(candidate).isFile());
      out.push(found ?? base);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/** The top-level folder (or root file) of the engine a path belongs to. */
function unitOf(file: string): string {
  return path.relative(engine, file).split(path.sep)[0];
}

function rankOf(unit: string): number {
  return engineLayers.findIndex((row) => row.includes(unit));
}

const files = sourceFiles(engine);
const graph = new Map(files.map((file) => [file, importsOf(file)] as const));

describe('the engine keeps its layers', () => {
  it('every folder of shared/src has its row in the layer table', () => {
    const units = [...new Set(files.map(unitOf))].sort();
    assert.deepEqual(units.filter((unit) => rankOf(unit) < 0), []);
  });

  it('no import runs up the layers or across a row', () => {
    const wrong: string[] = [];
    for (const [file, imports] of graph) {
      const from = unitOf(file);
      for (const target of imports) {
        const to = unitOf(target);
        if (to === from) continue;
        if (rankOf(to) < 0 || rankOf(to) >= rankOf(from)) wrong.push(`${path.relative(engine, file)} -> ${path.relative(engine, target)}`);
      }
    }
    assert.deepEqual(wrong, []);
  });

  it('no module imports itself round a circle', () => {
    const circles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const trail: string[] = [];
    const walk = (file: string): void => {
      state.set(file, 'open');
      trail.push(file);
      for (const next of graph.get(file) ?? []) {
        if (!graph.has(next)) continue;
        if (state.get(next) === 'open') circles.push(trail.slice(trail.indexOf(next)).concat(next).map((f) => path.relative(engine, f)).join(' -> '));
        else if (state.get(next) === undefined) walk(next);
      }
      trail.pop();
      state.set(file, 'done');
    };
    for (const file of files) if (state.get(file) === undefined) walk(file);
    assert.deepEqual(circles, []);
  });

  it('the language server and the extension import the engine only through its public entry (shared/src/index.ts)', () => {
    const repo = path.resolve(engine, '../..');
    const outside: string[] = [];
    for (const folder of ['server/src', 'client/src', 'client/webview']) {
      const root = path.join(repo, folder);
      if (!fs.existsSync(root)) continue;
      for (const file of sourceFiles(root)) {
        for (const target of importsOf(file)) {
          const inEngine = !path.relative(engine, target).startsWith('..');
          if (inEngine && target !== path.join(engine, 'index.ts')) outside.push(`${path.relative(repo, file)} -> ${path.relative(repo, target)}`);
        }
      }
    }
    assert.deepEqual(outside, []);
  });

  it('reads imports of every form (the checks above are not vacuous)', () => {
    const resolve = path.join(engine, 'bundle/resolve.ts');
    const imported = (graph.get(resolve) ?? []).map((f) => path.relative(engine, f));
    assert.ok(imported.includes(path.join('analyze', 'index.ts')), 'an import of a folder resolves to its index');
    assert.ok(imported.includes(path.join('check', 'card.ts')), 'an import of a module resolves to its file');
    assert.ok(rankOf('bundle') > rankOf('analyze') && rankOf('analyze') > rankOf('card'));
  });
});
