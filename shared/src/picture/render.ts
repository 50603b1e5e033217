/**
 * `renderPicture`: the picture as SVG, laid out by Graphviz compiled to WebAssembly
 * (`@hpcc-js/wasm-graphviz`, whose module carries the WebAssembly inline: nothing is fetched, no
 * `dot` program is run). The module is imported when first needed and loaded once; every later
 * call reuses it. The layout itself is synchronous work inside that instance.
 *
 * The SVG is cleaned for a page or a file: the XML prologue, DOCTYPE, comments and `<title>`s
 * go (the DOCTYPE names a remote DTD; a title would show keys as tooltips), Graphviz's `&#45;`
 * reads as `-` again, the marker colours of ./dot.ts become classes, and the root gets
 * `class="dp-picture"`. What is left refers to nothing outside itself: no link, image or
 * stylesheet, only the SVG namespace name.
 */
import type { Graphviz } from '@hpcc-js/wasm-graphviz';
import type { Picture } from './model';
import { pictureDot, textClasses } from './dot';

export async function renderPicture(picture: Picture): Promise<string> {
  return layoutSvg(pictureDot(picture));
}

/** Lays out DOT text with Graphviz's `dot` engine and cleans the SVG as `renderPicture` does. Rejects when Graphviz refuses the text. */
export async function layoutSvg(dot: string): Promise<string> {
  const graphviz = await loadGraphviz();
  return cleanSvg(graphviz.layout(dot, 'svg', 'dot'));
}

/** Loads Graphviz ahead of the first drawing (a view may call it while it opens, so that its first picture does not wait for the load). */
export async function prepareRenderer(): Promise<void> {
  await loadGraphviz();
}

let loading: Promise<Graphviz> | undefined;

/** The Graphviz instance, loaded on first use; a load that failed is tried again next time. */
function loadGraphviz(): Promise<Graphviz> {
  if (loading === undefined) {
    loading = import('@hpcc-js/wasm-graphviz').then((module) => module.Graphviz.load());
    loading.catch(() => {
      loading = undefined;
    });
  }
  return loading;
}

const markerClasses: ReadonlyMap<string, { readonly shown: string; readonly className: string }> = new Map(
  Object.values(textClasses).map((entry) => [entry.marker, { shown: entry.shown, className: entry.className }] as const),
);

function cleanSvg(svg: string): string {
  const start = svg.indexOf('<svg');
  let out = (start >= 0 ? svg.slice(start) : svg)
    .replace(/<!--[\s\S]*?-->\n?/g, '')
    .replace(/<title>[^<]*<\/title>\n?/g, '')
    .replace(/&#45;/g, '-')
    .replace(/fill="(#0d0a0[0-9a-f])"/g, (whole, marker: string) => {
      const found = markerClasses.get(marker);
      return found === undefined ? whole : `class="${found.className}" fill="${found.shown}"`;
    })
    .replace('<svg ', '<svg class="dp-picture" ');
  // (the xlink namespace is declared for links, and the picture has none)
  const withoutXlink = out.replace(/ xmlns:xlink="[^"]*"/, '');
  if (!withoutXlink.includes('xlink:')) out = withoutXlink;
  return out.endsWith('\n') ? out : `${out}\n`;
}
