/**
 * The picture: a drawing of a bundle. `pictureOf` turns a loaded bundle (`LoadResult`) into a
 * plain, serialisable model of what to draw (./model.ts, described in docs/graph.md): nodes with
 * their cards, types, findings and risks, edges with the ports and data they carry, the overlays
 * the analysis already found (criteria-leak routes, relays through a judge, uncapped cycles,
 * unguarded forks, entries, exits, unreachable nodes), a header, and what is still to settle.
 * `pictureDot` writes it as styled DOT, and `renderPicture` lays that out with Graphviz compiled
 * to WebAssembly into SVG whose nodes and edges carry stable ids and classes. The command line,
 * the language server and the editor's view all draw through these three.
 *
 * Must NOT know: files on disk, editors, LSP or VS Code types, how a bundle is checked (it reads
 * the findings, resolution and analysis it is handed, and decides none of them). No other folder
 * of the engine imports this one: the model reads the engine, never the reverse, and only
 * render.ts knows Graphviz (pure computation inside WebAssembly, loaded once; see
 * docs/architecture.md).
 */
export * from './model';
export { pictureOf, familyOf, type PictureOptions } from './picture';
export { pictureDot, pictureClasses, overlayClasses, textClasses } from './dot';
export { renderPicture, layoutSvg, prepareRenderer } from './render';
export { nodeKey, edgeKey, nodeIdOfKey } from './keys';
