/**
 * The `darkprint-topology` TextMate grammar, tokenized by the tokenizer VS Code itself uses
 * (vscode-textmate and vscode-oniguruma as bundled in code-server, installed by e2e/install.sh).
 * A table of lines, each with the tokens that must carry a scope.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'fs';
import * as path from 'path';
import { installPrerequisites, repositoryRoot } from './support/code-server';

interface Expectation {
  readonly line: string;
  /** In line order: token text → a scope it must carry (the text of one whole tokenizer token). */
  readonly tokens: readonly (readonly [string, string])[];
}

const expectations: readonly Expectation[] = [
  {
    line: 'digraph release_line { # a hash comment',
    tokens: [
      ['digraph', 'storage.type.graph'],
      ['release_line', 'variable.other.node'],
      [' a hash comment', 'comment.line.number-sign'],
    ],
  },
  {
    line: '  code_builder [card="code-builder@1.1.0"]; // the pin',
    tokens: [
      ['card', 'support.type.property-name.card'],
      ['code-builder', 'entity.name.type.card'],
      ['@', 'punctuation.separator.version'],
      ['1.1.0', 'constant.numeric.version'],
      [' the pin', 'comment.line.double-slash'],
    ],
  },
  {
    line: '  a -> b [out="criteria", in="test_report"];',
    tokens: [
      ['->', 'keyword.operator.edge'],
      ['out', 'support.type.property-name.port'],
      ['criteria', 'variable.parameter.port'],
      ['in', 'support.type.property-name.port'],
      ['test_report', 'variable.parameter.port'],
    ],
  },
  {
    line: '  a -> b [condition="outcome=success && context.tests.passed!=false"];',
    tokens: [
      ['condition', 'support.type.property-name.attractor'],
      ['=', 'keyword.operator.assignment'],
      ['outcome', 'variable.other.key'],
      ['=', 'keyword.operator.comparison'],
      ['success', 'constant.language'],
      ['&&', 'keyword.operator.logical'],
      ['context.tests.passed', 'variable.other.key'],
      ['!=', 'keyword.operator.comparison'],
    ],
  },
  {
    line: '  a -> b [condition="outcome==success"];',
    tokens: [['==', 'invalid.illegal.operator']],
  },
  {
    line: '  n [prompt="Plan it", timeout=900s, llm_model="m", weight=2, colour=red];',
    tokens: [
      ['prompt', 'support.type.property-name.attractor'],
      ['timeout', 'support.type.property-name.attractor'],
      ['900', 'constant.numeric'],
      ['s', 'keyword.other.unit'],
      ['llm_model', 'support.type.property-name.attractor'],
      ['weight', 'support.type.property-name.attractor'],
      ['colour', 'entity.other.attribute-name'],
    ],
  },
  {
    line: '  /* a block */ NODE [shape=box]; c -- d;',
    tokens: [
      [' a block ', 'comment.block'],
      ['NODE', 'keyword.other.default'],
      ['--', 'invalid.illegal.undirected-edge'],
    ],
  },
];

describe('the darkprint-topology TextMate grammar (VS Code 1.100 tokenizer)', function () {
  this.timeout(60_000);
  let tokenize: (line: string) => { text: string; scopes: string[] }[];

  before(async function () {
    this.timeout(60 * 60_000); // the first run installs code-server
    const entry = installPrerequisites((line) => console.log(`      ${line}`));
    const modules = path.join(path.dirname(entry), '..', '..', 'lib', 'vscode', 'node_modules');
    // The tokenizer packages come from the installed code-server, not from this repository's dependencies.
    const textmate = require(path.join(modules, 'vscode-textmate')) as TextMateModule;
    const oniguruma = require(path.join(modules, 'vscode-oniguruma')) as OnigurumaModule;
    const wasm = fs.readFileSync(path.join(modules, 'vscode-oniguruma', 'release', 'onig.wasm'));
    await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
    const grammarPath = path.join(repositoryRoot, 'syntaxes', 'darkprint-topology.tmLanguage.json');
    const registry = new textmate.Registry({
      onigLib: Promise.resolve({
        createOnigScanner: (patterns: string[]) => new oniguruma.OnigScanner(patterns),
        createOnigString: (text: string) => new oniguruma.OnigString(text),
      }),
      loadGrammar: async () => textmate.parseRawGrammar(fs.readFileSync(grammarPath, 'utf8'), grammarPath),
    });
    const grammar = await registry.loadGrammar('source.darkprint-topology');
    assert.ok(grammar !== null, 'the grammar did not load');
    tokenize = (line) =>
      grammar.tokenizeLine(line, textmate.INITIAL).tokens.map((token) => ({ text: line.slice(token.startIndex, token.endIndex), scopes: token.scopes }));
  });

  for (const expectation of expectations) {
    it(`scopes ${expectation.line.trim()}`, function () {
      const tokens = tokenize(expectation.line);
      let from = 0;
      for (const [text, scope] of expectation.tokens) {
        const index = tokens.findIndex((candidate, position) => position >= from && candidate.text === text);
        const token = tokens[index];
        assert.ok(token !== undefined, `no token "${text}" after token ${from} in: ${tokens.map((candidate) => JSON.stringify(candidate.text)).join(' ')}`);
        from = index + 1;
        assert.ok(
          token.scopes.some((candidate) => candidate === `${scope}.darkprint-topology`),
          `"${text}" has ${token.scopes.join(' ')}, not ${scope}`,
        );
      }
    });
  }
});

// The slice of vscode-textmate / vscode-oniguruma this test uses (their types are not installed here).
interface TextMateModule {
  readonly INITIAL: unknown;
  Registry: new (options: {
    onigLib: Promise<{ createOnigScanner(patterns: string[]): unknown; createOnigString(text: string): unknown }>;
    loadGrammar(scopeName: string): Promise<unknown>;
  }) => { loadGrammar(scopeName: string): Promise<Grammar | null> };
  parseRawGrammar(content: string, filePath: string): unknown;
}

interface Grammar {
  tokenizeLine(line: string, state: unknown): { tokens: { startIndex: number; endIndex: number; scopes: string[] }[] };
}

interface OnigurumaModule {
  loadWASM(data: ArrayBuffer): Promise<void>;
  OnigScanner: new (patterns: string[]) => unknown;
  OnigString: new (text: string) => unknown;
}
