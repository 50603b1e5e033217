/**
 * POSIX path operations in plain TypeScript, for the paths the web build makes of URIs
 * (./client-files.ts), where there is no `node:path`. They answer as Node's `path.posix` does for
 * absolute paths (a test compares them: server/test/posix-paths.test.ts); a relative path is
 * taken relative to `/`.
 */
import type { Paths } from './files';

export const posixPaths: Paths = {
  sep: '/',
  join: (...parts) => {
    const joined = parts.filter((part) => part !== '').join('/');
    return joined === '' ? '.' : normalize(joined);
  },
  resolve: (...parts) => {
    let resolved = '';
    for (let i = parts.length - 1; i >= 0 && !resolved.startsWith('/'); i--) {
      if (parts[i] !== '') resolved = resolved === '' ? parts[i] : `${parts[i]}/${resolved}`;
    }
    return normalize(resolved.startsWith('/') ? resolved : `/${resolved}`, 'trim');
  },
  relative: (from, to) => {
    const a = segments(posixPaths.resolve(from));
    const b = segments(posixPaths.resolve(to));
    let common = 0;
    while (common < a.length && common < b.length && a[common] === b[common]) common++;
    return [...a.slice(common).map(() => '..'), ...b.slice(common)].join('/');
  },
  dirname: (file) => {
    if (file === '') return '.';
    const trimmed = file.length > 1 ? file.replace(/\/+$/, '') || '/' : file;
    const at = trimmed.lastIndexOf('/');
    if (at < 0) return '.';
    if (at === 0) return '/';
    return trimmed.slice(0, at).replace(/\/+$/, '') || '/';
  },
  basename: (file) => {
    const trimmed = file.replace(/\/+$/, '');
    return trimmed.slice(trimmed.lastIndexOf('/') + 1);
  },
  isAbsolute: (file) => file.startsWith('/'),
};

function segments(absolute: string): string[] {
  return absolute.split('/').filter((part) => part !== '');
}

/** `.` and `..` taken out, repeated slashes made one; a trailing slash kept unless `trim`. */
function normalize(file: string, trim?: 'trim'): string {
  const absolute = file.startsWith('/');
  const out: string[] = [];
  for (const part of file.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (out.length > 0 && out[out.length - 1] !== '..') out.pop();
      else if (!absolute) out.push('..');
    } else out.push(part);
  }
  let normalized = (absolute ? '/' : '') + out.join('/');
  if (normalized === '') normalized = absolute ? '/' : '.';
  if (trim === undefined && file.endsWith('/') && !normalized.endsWith('/')) normalized += '/';
  return normalized;
}
