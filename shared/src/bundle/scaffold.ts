/**
 * A new bundle, as the editor's "New Bundle…" command writes it: `topology.dot`, `blueprint.yaml`
 * and two cards, a drafter whose `draft` (Markdown) feeds a reviewer, that validates with no error
 * and no warning, for the user to grow from. Files as `{ path, text }`; the caller writes them.
 */
import type { SourceFile } from './model';
import { slugify } from './manifest';

/** The files of a new bundle titled `title` (a blank title reads as "New blueprint"). */
export function newBundleFiles(title: string): SourceFile[] {
  const shown = title.trim().replace(/\s+/g, ' ') || 'New blueprint';
  const slug = slugify(shown) || 'new-blueprint';
  const graphName = slug.replace(/-/g, '_').replace(/^(?=[0-9])/, 'g_');
  return [
    {
      path: 'blueprint.yaml',
      text: [`slug: ${slug}`, `title: ${JSON.stringify(shown)}`, 'summary: A drafter writes a document from a brief and a reviewer reports what should change.', 'tags: []', ''].join('\n'),
    },
    {
      path: 'topology.dot',
      text: [
        `digraph ${graphName} {`,
        '  drafter  [card="drafter@1.0.0"];',
        '  reviewer [card="reviewer@1.0.0"];',
        '',
        '  drafter -> reviewer [label="draft"];',
        '}',
        '',
      ].join('\n'),
    },
    {
      path: 'cards/drafter@1.0.0.yaml',
      text: [
        'id: drafter',
        'name: Drafter',
        'type: agent',
        'phase: implementation',
        'action: draft',
        'spec: >-',
        '  Write the first draft of the document the brief asks for, in Markdown, and',
        '  leave out anything the brief does not ask for.',
        'inputs: []',
        'outputs:',
        '  - name: draft',
        '    type: markdown',
        'version: 1.0.0',
        '',
      ].join('\n'),
    },
    {
      path: 'cards/reviewer@1.0.0.yaml',
      text: [
        'id: reviewer',
        'name: Reviewer',
        'type: agent',
        'phase: testing',
        'action: review',
        'spec: >-',
        '  Read the draft against the brief and write a report of what should change,',
        '  quoting the passages each point is about.',
        'inputs:',
        '  - name: draft',
        '    type: markdown',
        'outputs:',
        '  - name: report',
        '    type: report',
        'dependencies: [drafter]',
        'version: 1.0.0',
        '',
      ].join('\n'),
    },
  ];
}
