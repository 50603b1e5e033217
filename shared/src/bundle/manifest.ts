/**
 * The manifest (`blueprint.yaml`, docs/compatibility.md#manifest): slug, title, summary,
 * description?, category?, tags[]. Without one, a stub is derived from the folder name.
 */
import { isMap, isScalar, isSeq, parseDocument, type Document } from 'yaml';
import { maximumYamlDepth, yamlDepthProblem, yamlSource } from '../syntax/yaml';
import type { Diagnostic } from '../diagnostics';
import type { Manifest, SourceFile } from './model';

export function slugify(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

export function stubManifest(folderName: string): Manifest {
  return { slug: slugify(folderName) || 'untitled-blueprint', title: folderName, summary: '', tags: [] };
}

/** Reads `blueprint.yaml` over the stub; fields of the wrong shape keep the stub's value and are reported. */
export function readManifest(file: SourceFile | undefined, folderName: string): { manifest: Manifest; diagnostics: Diagnostic[] } {
  const stub = stubManifest(folderName);
  if (!file) return { manifest: stub, diagnostics: [] };
  const diagnostics: Diagnostic[] = [];
  // Refused unread when it nests absurdly deep (the `yaml` package would exhaust the heap or the stack).
  const tooDeep = yamlDepthProblem(file.text);
  let doc: Document;
  try {
    if (tooDeep) throw new RangeError(tooDeep.message);
    doc = parseDocument(yamlSource(file.text), { prettyErrors: false, uniqueKeys: false });
  } catch {
    diagnostics.push({
      code: 'card/parse-error',
      severity: 'error',
      message: tooDeep
        ? `${file.path} nests more than ${maximumYamlDepth} levels deep, more than any reader can hold; flatten the structure.`
        : `${file.path} nests too deeply to be read; flatten the structure.`,
      location: { file: file.path, span: tooDeep ? tooDeep.span : { start: 0, end: Math.min(file.text.length, 1) } },
    });
    return { manifest: stub, diagnostics };
  }
  for (const e of doc.errors) {
    diagnostics.push({
      code: 'card/parse-error',
      severity: 'error',
      message: `${file.path} is not valid YAML: ${e.message.replace(/\s+/g, ' ').replace(/\.?$/, '.')} Fix the syntax at this position.`,
      location: { file: file.path, span: clampSpan(e.pos[0], e.pos[1], file.text.length) },
    });
  }
  if (doc.errors.length > 0 || !isMap(doc.contents)) {
    if (doc.errors.length === 0 && doc.contents !== null) {
      diagnostics.push({
        code: 'card/bad-type',
        severity: 'error',
        message: `${file.path} must be a mapping of manifest fields (slug, title, summary, tags); write it as \`key: value\` lines.`,
        location: { file: file.path, span: { start: 0, end: Math.min(file.text.length, 1) } },
      });
    }
    return { manifest: stub, diagnostics };
  }
  const fields = new Map<string, unknown>();
  for (const pair of doc.contents.items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : undefined;
    if (key === undefined) continue;
    const value = pair.value;
    if (isScalar(value)) fields.set(key, value.value);
    else if (isSeq(value)) fields.set(key, value.items.map((i) => (isScalar(i) ? i.value : undefined)));
    else fields.set(key, undefined);
  }
  const text = (key: string): string | undefined => {
    const v = fields.get(key);
    return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined;
  };
  const tagsValue = fields.get('tags');
  const tags = Array.isArray(tagsValue) ? tagsValue.filter((t): t is string => typeof t === 'string') : stub.tags;
  const manifest: Manifest = {
    slug: text('slug') ?? stub.slug,
    title: text('title') ?? stub.title,
    summary: text('summary') ?? stub.summary,
    tags,
    ...(text('description') !== undefined ? { description: text('description') } : {}),
    ...(text('category') !== undefined ? { category: text('category') } : {}),
    ...(text('author') !== undefined ? { author: text('author') } : {}),
  };
  return { manifest, diagnostics };
}

/** A reader's error position kept inside the text (yaml reports a missing `}` one past the end). */
function clampSpan(start: number, end: number, length: number): { start: number; end: number } {
  const from = Math.max(0, Math.min(start, length));
  return { start: from, end: Math.max(from, Math.min(end, length)) };
}
