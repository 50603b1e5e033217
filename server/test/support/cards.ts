/**
 * The two cards most server tests build on, as fixture text (`//- path` sections, see
 * shared/test/support/fixture.ts): a writer whose `draft` output feeds a reviewer. Each test
 * varies what it needs through the options; the rest stays one spelling.
 */

export interface WriterOptions {
  /** Type of the `draft` output. */
  readonly outputType?: string;
  /** Lines (each ending in a newline) placed just before `version:`. */
  readonly extra?: string;
}

export function writerCard(options: WriterOptions = {}): string {
  return `//- cards/writer@1.0.0.yaml
id: writer
name: Writer
type: agent
phase: implementation
action: write
spec: Writes the draft of the document from the brief it is given.
inputs: []
outputs:
  - name: draft
    type: ${options.outputType ?? 'markdown'}
${options.extra ?? ''}version: 1.0.0
`;
}

export interface ReviewerOptions {
  /** Type of the `draft` input. */
  readonly inputType?: string;
  /** The `dependencies` value as written. */
  readonly dependencies?: string;
  /** Lines (each ending in a newline) placed just after `dependencies:`, before `version:`. */
  readonly extra?: string;
}

export function reviewerCard(options: ReviewerOptions = {}): string {
  return `//- cards/reviewer@1.0.0.yaml
id: reviewer
name: Reviewer
type: agent
phase: testing
action: review
spec: Reviews the draft and writes a report of what should change.
inputs:
  - name: draft
    type: ${options.inputType ?? 'markdown'}
outputs:
  - name: report
    type: report
dependencies: ${options.dependencies ?? '[writer]'}
${options.extra ?? ''}version: 1.0.0
`;
}
