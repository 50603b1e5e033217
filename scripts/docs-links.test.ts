/**
 * The repository explains itself: comments and docs point at files of the repository
 * (docs/compatibility.md for DarkPrint's behaviour, docs/architecture.md for the design,
 * docs/diagnostics.md for a code), never at notes a person who clones it does not have, nor at
 * numbers of the tracker's issues (a comment says the reason instead).
 *
 * Two checks:
 * - no source comment (TypeScript and JavaScript, read with TypeScript's own scanner so that
 *   strings and regular expressions are left alone) and no Markdown page cites those notes'
 *   section marks or file names, or an issue by number;
 * - every `docs/<page>.md#<anchor>` written anywhere in the sources and docs, and every link from
 *   one docs page to another's heading (`[…](graph.md#the-model)`, `[…](#cycles)`), names a
 *   heading of that page, by the anchor GitHub derives from the heading's text.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const root = path.resolve(__dirname, '..');

/** Folders whose sources are scanned, relative to the repository root. */
const sourceFolders = ['shared', 'server', 'client', 'scripts', 'e2e', 'bin'];
/** Markdown read besides the sources. */
const markdownFiles = (): string[] => ['README.md', ...listFiles('docs', /\.md$/)];
/** Build output, dependencies and other people's files: never scanned. */
const skippedFolders = new Set(['node_modules', 'out', 'dist', 'coverage']);
const sourceFile = /\.(ts|mts|cts|js|mjs|cjs)$/;

/**
 * What a comment or page may not cite, each with why (written so that this file does not match
 * itself). The patterns are kept narrow: a lowercase `spec` (Attractor's public specification,
 * cited as "Attractor spec §n", see docs/compatibility.md#the-attractor-specification) is fine.
 */
const forbidden: readonly { readonly pattern: RegExp; readonly why: string }[] = [
  { pattern: new RegExp('\\bE' + '§'), why: 'a section of the DarkPrint notes outside the repository: cite docs/compatibility.md#<anchor>' },
  { pattern: new RegExp('\\b' + 'SPEC' + '\\b'), why: 'the product notes outside the repository: cite docs/compatibility.md#<anchor> or docs/architecture.md' },
  { pattern: new RegExp('darkprint' + '-engine'), why: 'the DarkPrint notes outside the repository: cite docs/compatibility.md#<anchor>' },
  { pattern: new RegExp('\\b' + 'STYLE' + '\\.md'), why: 'the team\'s style notes outside the repository: cite docs/architecture.md#<anchor>' },
  { pattern: new RegExp('\\bissues?\\s+#?' + '[0-9]+', 'i'), why: 'an issue number: say what the reason was instead' },
];

function listFiles(folder: string, name: RegExp): string[] {
  const out: string[] = [];
  const walk = (relative: string): void => {
    const absolute = path.join(root, relative);
    if (!existsSync(absolute)) return;
    for (const entry of readdirSync(absolute, { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      const child = `${relative}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!skippedFolders.has(entry.name)) walk(child);
      } else if (entry.isFile() && name.test(entry.name)) {
        out.push(child);
      }
    }
  };
  walk(folder);
  return out.sort();
}

function sourceFiles(): string[] {
  return sourceFolders.flatMap((folder) => listFiles(folder, sourceFile));
}

function read(relative: string): string {
  return readFileSync(path.join(root, relative), 'utf8');
}

/** 1-based line of an offset. */
function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

export interface Comment {
  readonly text: string;
  /** Offset of the comment in its file. */
  readonly start: number;
}

/** Every comment of a TypeScript or JavaScript text, found by TypeScript's scanner. */
export function commentsOf(text: string): Comment[] {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, false, ts.LanguageVariant.Standard, text);
  const out: Comment[] = [];
  const templates: number[] = [];
  let previous: ts.SyntaxKind = ts.SyntaxKind.Unknown;
  for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) {
    if (kind === ts.SyntaxKind.SingleLineCommentTrivia || kind === ts.SyntaxKind.MultiLineCommentTrivia) {
      out.push({ text: scanner.getTokenText(), start: scanner.getTokenStart() });
      continue;
    }
    if (kind === ts.SyntaxKind.WhitespaceTrivia || kind === ts.SyntaxKind.NewLineTrivia || kind === ts.SyntaxKind.ShebangTrivia) continue;
    // a `/` where an expression starts is a regular expression, not a division
    if ((kind === ts.SyntaxKind.SlashToken || kind === ts.SyntaxKind.SlashEqualsToken) && startsExpression(previous)) {
      kind = scanner.reScanSlashToken();
    }
    // template literals: `${` opens an expression whose closing `}` resumes the template
    if (kind === ts.SyntaxKind.TemplateHead) templates.push(0);
    else if (kind === ts.SyntaxKind.OpenBraceToken && templates.length > 0) templates[templates.length - 1]++;
    else if (kind === ts.SyntaxKind.CloseBraceToken && templates.length > 0) {
      if (templates[templates.length - 1] === 0) {
        kind = scanner.reScanTemplateToken(false);
        if (kind === ts.SyntaxKind.TemplateTail) templates.pop();
      } else {
        templates[templates.length - 1]--;
      }
    }
    previous = kind;
  }
  return out;
}

/** True when a `/` after a token of this kind begins a regular expression. */
function startsExpression(previous: ts.SyntaxKind): boolean {
  switch (previous) {
    case ts.SyntaxKind.Identifier:
    case ts.SyntaxKind.NumericLiteral:
    case ts.SyntaxKind.BigIntLiteral:
    case ts.SyntaxKind.StringLiteral:
    case ts.SyntaxKind.NoSubstitutionTemplateLiteral:
    case ts.SyntaxKind.TemplateTail:
    case ts.SyntaxKind.RegularExpressionLiteral:
    case ts.SyntaxKind.CloseParenToken:
    case ts.SyntaxKind.CloseBracketToken:
    case ts.SyntaxKind.CloseBraceToken:
    case ts.SyntaxKind.PlusPlusToken:
    case ts.SyntaxKind.MinusMinusToken:
    case ts.SyntaxKind.ThisKeyword:
    case ts.SyntaxKind.SuperKeyword:
    case ts.SyntaxKind.TrueKeyword:
    case ts.SyntaxKind.FalseKeyword:
    case ts.SyntaxKind.NullKeyword:
    case ts.SyntaxKind.UndefinedKeyword:
      return false;
    default:
      return true;
  }
}

/**
 * The anchor GitHub gives a heading: its text as rendered (inline code, emphasis and link
 * markup dropped), lowercased, every character but letters, digits, spaces, `-` and `_`
 * removed, spaces made `-`; a repeated anchor gets `-1`, `-2`, … in order.
 */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fence: string | undefined;
  for (const line of markdown.split(/\r?\n/)) {
    const opening = /^ {0,3}(```+|~~~+)/.exec(line);
    if (opening) {
      if (fence === undefined) fence = opening[1][0];
      else if (opening[1][0] === fence) fence = undefined;
      continue;
    }
    if (fence !== undefined) continue;
    const heading = /^ {0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/.exec(line);
    if (!heading) continue;
    const base = slug(heading[1]);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

export function slug(headingText: string): string {
  const rendered = headingText
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/[`*]/g, '');
  return rendered
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

interface Link {
  readonly file: string;
  readonly line: number;
  readonly page: string;
  readonly anchor: string;
}

/** `docs/<page>.md#<anchor>` anywhere in a text (a path, a URL, a Markdown link). */
function repositoryLinks(file: string, text: string): Link[] {
  const out: Link[] = [];
  for (const m of text.matchAll(/\bdocs\/([A-Za-z0-9_-]+\.md)#([A-Za-z0-9_\p{L}-]+)/gu)) {
    out.push({ file, line: lineOf(text, m.index), page: `docs/${m[1]}`, anchor: m[2] });
  }
  return out;
}

/** Links of a docs page to a heading of its own (`(#x)`) or of a page beside it (`(graph.md#x)`). */
function relativeLinks(file: string, text: string): Link[] {
  const out: Link[] = [];
  for (const m of text.matchAll(/\]\((?:\.\/)?([A-Za-z0-9_-]+\.md)?#([^)\s]+)\)/g)) {
    const page = m[1] === undefined ? file : path.posix.join(path.posix.dirname(file), m[1]);
    out.push({ file, line: lineOf(text, m.index), page, anchor: m[2] });
  }
  return out;
}

describe('docs links', () => {
  describe('comments and docs cite the repository, not notes outside it', () => {
    it('in source comments', () => {
      const problems: string[] = [];
      for (const file of sourceFiles()) {
        const text = read(file);
        for (const comment of commentsOf(text)) {
          for (const { pattern, why } of forbidden) {
            const m = pattern.exec(comment.text);
            if (m) problems.push(`${file}:${lineOf(text, comment.start + m.index)}: \`${m[0]}\` cites ${why}`);
          }
        }
      }
      assert.deepEqual(problems, []);
    });

    it('in the README and docs/', () => {
      const problems: string[] = [];
      for (const file of markdownFiles()) {
        const text = read(file);
        for (const { pattern, why } of forbidden) {
          const global = new RegExp(pattern.source, `${pattern.flags}g`);
          for (const m of text.matchAll(global)) problems.push(`${file}:${lineOf(text, m.index)}: \`${m[0]}\` cites ${why}`);
        }
      }
      assert.deepEqual(problems, []);
    });
  });

  it('every docs/<page>.md#<anchor> names a heading of that page', () => {
    const anchorsOf = new Map<string, Set<string> | undefined>();
    const anchors = (page: string): Set<string> | undefined => {
      if (!anchorsOf.has(page)) anchorsOf.set(page, existsSync(path.join(root, page)) ? headingAnchors(read(page)) : undefined);
      return anchorsOf.get(page);
    };
    const links: Link[] = [];
    for (const file of [...sourceFiles(), ...markdownFiles()]) {
      const text = read(file);
      links.push(...repositoryLinks(file, text));
      if (file.startsWith('docs/')) links.push(...relativeLinks(file, text));
    }
    const broken = links
      .filter((l) => !anchors(l.page)?.has(l.anchor))
      .map((l) => `${l.file}:${l.line}: ${l.page}#${l.anchor} ${anchors(l.page) ? 'names no heading of that page' : 'is no file of the repository'}`);
    assert.ok(links.length > 0, 'no docs link found: the scan is broken');
    assert.deepEqual(broken, []);
  });

  describe('the helpers', () => {
    it('finds comments, and not comment-like text in strings, templates or regular expressions', () => {
      const text = [
        'const a = "// not a comment"; // one',
        "const b = `${'/*'} still code ${x /* two */}`;",
        'const c = /\\/\\/ not either/.test(a) ? 1 / 2 : 3; /* three */',
      ].join('\n');
      assert.deepEqual(
        commentsOf(text).map((c) => c.text),
        ['// one', '/* two */', '/* three */'],
      );
    });

    it('derives anchors as GitHub does', () => {
      const anchors = headingAnchors(
        ['# Title', '## Nodes, edges and defaults', '### `dot/parse-error`', '```', '# not a heading', '```', '## Title', '## Où ça?'].join('\n'),
      );
      assert.deepEqual([...anchors], ['title', 'nodes-edges-and-defaults', 'dotparse-error', 'title-1', 'où-ça']);
    });

    it('catches the citations it is meant to', () => {
      const samples = ['(E' + '§8)', 'SP' + 'EC §5', 'see darkprint' + '-engine.md', '(issue' + ' 4)', 'Issue' + ' #12'];
      for (const sample of samples) assert.ok(forbidden.some((f) => f.pattern.test(sample)), sample);
      for (const sample of ['Attractor spec §2.8', 'an issue note', 'specs', 'Specification']) {
        assert.ok(!forbidden.some((f) => f.pattern.test(sample)), sample);
      }
    });
  });
});
