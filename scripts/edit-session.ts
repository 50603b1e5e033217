/**
 * A long editing session in one process, for bench-deopt.ts (run under `node --trace-deopt`): a
 * generated bundle of `NODES` nodes (2,000 unless set) is loaded into the server's database and
 * publisher, then each phase edits one file back and forth `EDITS` times (100 unless set),
 * publishing after each edit as the server does. Before each publication it prints
 * `EDIT <phase> <n>` on stdout, where V8 writes its deopt trace too, so the benchmark can tell in which
 * edit each deopt happened. Phases: a card's input type broken and fixed; a node added before the
 * topology's closing brace and removed.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { generateBundle } from '../shared/test/support/generate-bundle';
import { addBundle, createDatabase, setOpenDocument } from '../server/src/database';
import { createPublisher } from '../server/src/publish';
import { defaultSettings } from '../server/src/settings';
import { docsLinker, fullSupport, type ClientSupport } from '../server/src/convert';

const docsLink = docsLinker('file:///docs/diagnostics.md');

const nodes = Number(process.env.NODES ?? 2000);
const edits = Number(process.env.EDITS ?? 100);
const root = path.resolve('/workspace/bundle');
const files = generateBundle({ nodes });
const db = createDatabase((file) => pathToFileURL(file).href);
const bundle = addBundle(db, root, new Map(files.map((f) => [f.path, f.text] as const)));
const support: ClientSupport = { ...fullSupport, documentChanges: false, renameFiles: false, hierarchicalSymbols: false };
let published = 0;
const publisher = createPublisher({
  db,
  send: (_params, json) => {
    published += json().length;
  },
  settings: () => ({ ...defaultSettings, debounceMs: 0 }),
  support: () => support,
  docsLink: () => docsLink,
  log: (message) => process.stderr.write(`${message}\n`),
});

const text = (relative: string): string => files.find((f) => f.path === relative)!.text;
const topology = text('topology.dot');
const cardPath = `cards/builder-${Math.floor(nodes / 20)}@1.0.0.yaml`;
const card = text(cardPath);
const brokenCard = card.replace(/(inputs:\n {2}- name: plan\n {4}type: )plan/, '$1code');
const closing = topology.lastIndexOf('}');
const grownTopology = `${topology.slice(0, closing)}  session_extra [card="missing-card@1.0.0"];\n${topology.slice(closing)}`;
if (brokenCard === card) throw new Error('edit-session: the generated card has no `plan` input to break');

let version = 1;
const open = (relative: string, content: string): void => {
  const file = path.join(root, ...relative.split('/'));
  setOpenDocument(db, file, { uri: pathToFileURL(file).href, version: version++, text: content });
};
open('topology.dot', topology);
open(cardPath, card);
publisher.publish(bundle);

const phases: readonly { readonly name: string; readonly file: string; readonly variant: string; readonly original: string }[] = [
  { name: 'card', file: cardPath, variant: brokenCard, original: card },
  { name: 'topology', file: 'topology.dot', variant: grownTopology, original: topology },
];
for (const phase of phases) {
  for (let n = 0; n < edits; n++) {
    open(phase.file, n % 2 === 0 ? phase.variant : phase.original);
    process.stdout.write(`EDIT ${phase.name} ${n}\n`);
    publisher.publish(bundle);
  }
}
process.stdout.write(`DONE ${published}\n`);
