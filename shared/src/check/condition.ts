/**
 * Attractor's edge-condition language (docs/compatibility.md#condition-grammar, Attractor spec
 * §10), read for the lint and for completion. It is parsed, never evaluated: a guard runs on
 * someone else's machine against data this engine never sees, so nothing here answers whether an
 * edge is taken.
 *
 *   Expr    ::= Clause ( "&&" Clause )*
 *   Clause  ::= Key Op Literal
 *   Key     ::= "outcome" | "preferred_label" | "context." Path
 *   Path    ::= Ident ( "." Ident )*          Ident ::= [A-Za-z_][A-Za-z0-9_]*
 *   Op      ::= "=" | "!="
 *   Literal ::= String | Bare                 Bare  ::= one word of [A-Za-z0-9_.:+-]
 *
 * Problems follow DarkPrint's lint: a blank expression, an unterminated string or any parenthesis stop the
 * check with one problem; otherwise each clause between `&&`s reports at most one problem, the
 * first that applies in the order of `ConditionProblemKind` below.
 */

export type ConditionProblemKind =
  | 'empty-expression'
  | 'unterminated-string'
  | 'parenthesis'
  | 'empty-clause'
  | 'future-operator'
  | 'unknown-operator'
  | 'bare-key'
  | 'missing-operator'
  | 'missing-key'
  | 'bad-key'
  | 'unknown-key'
  | 'missing-literal'
  | 'bad-literal';

export interface ConditionProblem {
  readonly problem: ConditionProblemKind;
  /** A sentence naming what is wrong and ending with what to write instead. */
  readonly message: string;
  /** Offsets inside the condition value (UTF-16), `end` exclusive. */
  readonly start: number;
  readonly end: number;
}

export type ConditionTokenKind = 'word' | 'string' | 'operator' | 'and' | 'open' | 'close' | 'other';

export interface ConditionToken {
  readonly kind: ConditionTokenKind;
  readonly start: number;
  readonly end: number;
  /** The source text. */
  readonly text: string;
  /** For strings: the content with `\n`, `\t` resolved and any other `\x` read as `x`; otherwise the text. */
  readonly value: string;
  /** False for a string whose closing `"` is missing (it then runs to the end). */
  readonly terminated: boolean;
}

export type ConditionKeyKind = 'outcome' | 'preferred_label' | 'context';

export interface ConditionClause {
  readonly key: string;
  readonly keyKind: ConditionKeyKind;
  readonly operator: '=' | '!=';
  /** The literal, unquoted. */
  readonly value: string;
  readonly quoted: boolean;
  readonly start: number;
  readonly end: number;
}

/** What completion offers for a key; `context.` is followed by a dotted path of identifiers. */
export const conditionKeys: readonly string[] = Object.freeze(['outcome', 'preferred_label', 'context.']);
export const conditionOperators: readonly string[] = Object.freeze(['=', '!=']);
export const conditionConjunction = '&&';
/** The statuses a node's outcome can have (Attractor spec §10.3). */
export const outcomeValues: readonly string[] = Object.freeze(['success', 'partial_success', 'retry', 'fail']);

/** Operators Attractor's spec lists as possible later additions (§10.7), with what they would mean. */
const futureOperators: ReadonlyMap<string, string> = new Map([
  ['>', 'numeric comparison'],
  ['<', 'numeric comparison'],
  ['>=', 'numeric comparison'],
  ['<=', 'numeric comparison'],
  ['||', 'disjunction'],
  ['!', 'negation'],
]);
const futureWordOperators: ReadonlyMap<string, string> = new Map([
  ['contains', 'substring or membership test'],
  ['matches', 'pattern matching'],
  ['or', 'disjunction'],
  ['not', 'negation'],
]);

function isWordChar(c: number): boolean {
  return (
    (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) ||
    c === 95 /* _ */ || c === 46 /* . */ || c === 58 /* : */ || c === 43 /* + */ || c === 45 /* - */
  );
}

function isOperatorChar(c: number): boolean {
  return c === 61 /* = */ || c === 33 /* ! */ || c === 60 /* < */ || c === 62 /* > */ || c === 124 /* | */;
}

/** Splits a condition into tokens (docs/compatibility.md#condition-grammar). Never fails: an unterminated string is the last token. */
export function tokenizeCondition(value: string): ConditionToken[] {
  const tokens: ConditionToken[] = [];
  const length = value.length;
  let i = 0;
  const run = (kind: ConditionTokenKind, test: (c: number) => boolean): void => {
    const start = i;
    while (i < length && test(value.charCodeAt(i))) i++;
    const text = value.slice(start, i);
    tokens.push({ kind, start, end: i, text, value: text, terminated: true });
  };
  while (i < length) {
    const c = value.charCodeAt(i);
    if (c === 32 || c === 9 || c === 10 || c === 13) {
      i++;
      continue;
    }
    if (c === 34 /* " */) {
      const start = i;
      i++;
      let content = '';
      let terminated = false;
      while (i < length) {
        const d = value.charCodeAt(i);
        if (d === 92 /* \ */) {
          if (i + 1 >= length) {
            i++;
            continue;
          }
          const escaped = value[i + 1];
          content += escaped === 'n' ? '\n' : escaped === 't' ? '\t' : escaped;
          i += 2;
          continue;
        }
        i++;
        if (d === 34) {
          terminated = true;
          break;
        }
        content += value[i - 1];
      }
      tokens.push({ kind: 'string', start, end: i, text: value.slice(start, i), value: content, terminated });
      continue;
    }
    if (c === 38 /* & */ && value.charCodeAt(i + 1) === 38) {
      tokens.push({ kind: 'and', start: i, end: i + 2, text: '&&', value: '&&', terminated: true });
      i += 2;
      continue;
    }
    if (c === 40 /* ( */ || c === 41 /* ) */) {
      const text = value[i];
      tokens.push({ kind: c === 40 ? 'open' : 'close', start: i, end: i + 1, text, value: text, terminated: true });
      i++;
      continue;
    }
    if (isOperatorChar(c)) {
      run('operator', isOperatorChar);
      continue;
    }
    if (isWordChar(c)) {
      run('word', isWordChar);
      continue;
    }
    // One code point per `other` token, so an astral character is not split.
    const width = c >= 0xd800 && c <= 0xdbff && i + 1 < length ? 2 : 1;
    const text = value.slice(i, i + width);
    tokens.push({ kind: 'other', start: i, end: i + width, text, value: text, terminated: true });
    i += width;
  }
  return tokens;
}

/** Which key form `key` is, or undefined when it is none of `outcome`, `preferred_label`, `context.<path>`. */
export function conditionKeyKind(key: string): ConditionKeyKind | undefined {
  if (key === 'outcome') return 'outcome';
  if (key === 'preferred_label') return 'preferred_label';
  if (!key.startsWith('context.')) return undefined;
  const path = key.slice('context.'.length);
  if (path.length === 0) return undefined;
  return path.split('.').every(isIdentifier) ? 'context' : undefined;
}

export function checkCondition(value: string): ConditionProblem[] {
  return parseCondition(value).problems;
}

/** The clauses of a well-formed condition, or the problems of a broken one (never both). */
export function parseCondition(value: string): { clauses: ConditionClause[]; problems: ConditionProblem[] } {
  if (value.trim().length === 0) {
    return only({
      problem: 'empty-expression',
      message: 'The condition is empty, and a runner treats an edge with an empty condition as unguarded; write a guard such as `outcome=success`, or remove the attribute.',
      start: 0,
      end: value.length,
    });
  }
  const tokens = tokenizeCondition(value);
  const open = tokens.find((t) => t.kind === 'string' && !t.terminated);
  if (open !== undefined) {
    return only({
      problem: 'unterminated-string',
      message: 'This quoted value is never closed; add the closing `"` (inside a DOT attribute it is written `\\"`).',
      start: open.start,
      end: open.end,
    });
  }
  const bracket = tokens.find((t) => t.kind === 'open' || t.kind === 'close');
  if (bracket !== undefined) {
    const opens = tokens.filter((t) => t.kind === 'open').length;
    const closes = tokens.filter((t) => t.kind === 'close').length;
    return only({
      problem: 'parenthesis',
      message: opens === closes
        ? 'Conditions have no parentheses: clauses are only ever joined by `&&` and read left to right; remove the parentheses.'
        : 'This parenthesis is unbalanced, and conditions have no parentheses at all; remove it and join the clauses with `&&`.',
      start: bracket.start,
      end: bracket.end,
    });
  }

  const clauses: ConditionClause[] = [];
  const problems: ConditionProblem[] = [];
  let segment: ConditionToken[] = [];
  let previousAnd: ConditionToken | undefined;
  const finish = (nextAnd: ConditionToken | undefined): void => {
    const result = readClause(value, segment, previousAnd, nextAnd);
    if ('problem' in result) problems.push(result);
    else clauses.push(result);
  };
  for (const token of tokens) {
    if (token.kind !== 'and') {
      segment.push(token);
      continue;
    }
    finish(token);
    segment = [];
    previousAnd = token;
  }
  finish(undefined);
  return problems.length > 0 ? { clauses: [], problems } : { clauses, problems };
}

function only(problem: ConditionProblem): { clauses: ConditionClause[]; problems: ConditionProblem[] } {
  return { clauses: [], problems: [problem] };
}

function spanOf(tokens: readonly ConditionToken[]): { start: number; end: number } {
  return { start: tokens[0].start, end: tokens[tokens.length - 1].end };
}

/** The source text the tokens cover, as written. */
function textOf(source: string, tokens: readonly ConditionToken[]): string {
  return source.slice(tokens[0].start, tokens[tokens.length - 1].end);
}

/** One clause; at most one problem, the first that applies (in DarkPrint's order). */
function readClause(source: string, tokens: readonly ConditionToken[], before: ConditionToken | undefined, after: ConditionToken | undefined): ConditionClause | ConditionProblem {
  if (tokens.length === 0) {
    const and = after ?? before;
    return {
      problem: 'empty-clause',
      message: 'This `&&` has no clause on one side; write the missing comparison, or remove the `&&`.',
      start: and?.start ?? 0,
      end: and?.end ?? 0,
    };
  }

  for (const token of tokens) {
    if (token.kind !== 'operator' || token.text === '=' || token.text === '!=') continue;
    const future = futureOperators.get(token.text);
    if (future !== undefined) {
      return {
        problem: 'future-operator',
        message: `\`${token.text}\` (${future}) is only a possible future addition to Attractor's conditions, and runners reject it today; rewrite the clause as \`key=value\` or \`key!=value\`.`,
        start: token.start,
        end: token.end,
      };
    }
    return {
      problem: 'unknown-operator',
      message: token.text === '=='
        ? '`==` is not a condition operator; write a single `=`.'
        : `\`${token.text}\` is not a condition operator; use \`=\` or \`!=\`.`,
      start: token.start,
      end: token.end,
    };
  }

  const operatorIndex = tokens.findIndex((t) => t.kind === 'operator');
  if (operatorIndex < 0) {
    const word = tokens.find((t) => t.kind === 'word' && futureWordOperators.has(t.text.toLowerCase()));
    if (word !== undefined) {
      return {
        problem: 'future-operator',
        message: `\`${word.text}\` (${futureWordOperators.get(word.text.toLowerCase()) ?? ''}) is only a possible future addition to Attractor's conditions, and runners reject it today; rewrite the guard with \`=\`, \`!=\` and \`&&\`.`,
        start: word.start,
        end: word.end,
      };
    }
    if (tokens.length === 1 && tokens[0].kind === 'word') {
      const key = tokens[0].text;
      const suggestion = conditionKeyKind(key) === undefined ? `context.${key}=true` : `${key}=success`;
      return {
        problem: 'bare-key',
        message: `\`${key}\` is a key with no comparison; compare it with a value, e.g. \`${suggestion}\`.`,
        start: tokens[0].start,
        end: tokens[0].end,
      };
    }
    return {
      problem: 'missing-operator',
      message: `\`${textOf(source, tokens)}\` has no operator; write the key, then \`=\` or \`!=\`, then the value.`,
      ...spanOf(tokens),
    };
  }

  const operator = tokens[operatorIndex];
  const keySide = tokens.slice(0, operatorIndex);
  const literalSide = tokens.slice(operatorIndex + 1);
  if (keySide.length === 0) {
    return {
      problem: 'missing-key',
      message: `Nothing stands before \`${operator.text}\`; start the clause with \`outcome\`, \`preferred_label\` or \`context.<name>\`.`,
      start: operator.start,
      end: operator.end,
    };
  }
  if (keySide.length > 1 || keySide[0].kind !== 'word') {
    return {
      problem: 'bad-key',
      message: `\`${textOf(source, keySide)}\` is not a key: a key is one unquoted word; use \`outcome\`, \`preferred_label\` or \`context.<name>\`.`,
      ...spanOf(keySide),
    };
  }
  const key = keySide[0];
  const keyKind = conditionKeyKind(key.text);
  if (keyKind === undefined) {
    return {
      problem: 'unknown-key',
      message: key.text.startsWith('context.')
        ? `\`${key.text}\` is not a valid context key: after \`context.\` come names of letters, digits and \`_\` (not starting with a digit) joined by \`.\`; rename it, e.g. \`${suggestContextKey(key.text)}\`.`
        : `\`${key.text}\` is not a condition key; use \`outcome\`, \`preferred_label\`, or a context value such as \`context.${suggestPath(key.text)}\`.`,
      start: key.start,
      end: key.end,
    };
  }
  if (literalSide.length === 0) {
    return {
      problem: 'missing-literal',
      message: `Nothing follows \`${key.text}${operator.text}\`; write the value to compare with, in double quotes if it contains spaces.`,
      start: operator.start,
      end: operator.end,
    };
  }
  const literal = literalSide[0];
  if (literalSide.length > 1 || (literal.kind !== 'word' && literal.kind !== 'string')) {
    return {
      problem: 'bad-literal',
      message: `\`${textOf(source, literalSide)}\` is not a single value; put it between double quotes, e.g. \`${key.text}${operator.text}"${textOf(source, literalSide).replace(/"/g, '\\"')}"\`.`,
      ...spanOf(literalSide),
    };
  }
  return {
    key: key.text,
    keyKind,
    operator: operator.text === '=' ? '=' : '!=',
    value: literal.value,
    quoted: literal.kind === 'string',
    start: tokens[0].start,
    end: tokens[tokens.length - 1].end,
  };
}

function isIdentifier(part: string): boolean {
  if (part.length === 0) return false;
  for (let i = 0; i < part.length; i++) {
    const c = part.charCodeAt(i);
    const letter = (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
    if (!letter && !(i > 0 && c >= 48 && c <= 57)) return false;
  }
  return true;
}

/** `loop-state` -> `loop_state`, `2nd` -> `_2nd`: a path Attractor accepts, for messages. */
function suggestPath(raw: string): string {
  const parts = raw.split('.').filter((p) => p.length > 0).map((p) => {
    const cleaned = p.replace(/[^A-Za-z0-9_]/g, '_');
    return /^[0-9]/.test(cleaned) ? `_${cleaned}` : cleaned;
  });
  return parts.length > 0 ? parts.join('.') : 'name';
}

function suggestContextKey(key: string): string {
  return `context.${suggestPath(key.slice('context.'.length))}`;
}
