/**
 * Writing a file the way `darkprint export --out` does (shared/src/cli.ts): a temporary file beside
 * the target, then a rename, so that a reader sees the old file or the whole new one. A file
 * written over keeps its permission bits, a symbolic link is written through (its target gets the
 * new file, the link stays a link), and anything but a regular file (a folder, a device) is
 * refused. Node's `fs` only (no `vscode`), for `file:` targets.
 */
import { randomBytes } from 'crypto';
import { promises as fs } from 'fs';
import * as path from 'path';

export async function writeFileAtomically(file: string, bytes: Uint8Array): Promise<string> {
  const target = await realTarget(file);
  const folder = path.dirname(target.path);
  const temp = path.join(folder, `.${path.basename(target.path).slice(0, 64)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    await fs.writeFile(temp, bytes, { flag: 'wx', mode: target.mode ?? 0o666 });
    // (the mode given to open is narrowed by the umask: set it exactly)
    if (target.mode !== undefined) await fs.chmod(temp, target.mode);
    await fs.rename(temp, target.path);
  } catch (error) {
    await fs.rm(temp, { force: true });
    throw error;
  }
  return target.path;
}

/** The real file behind `file` (every link followed, the file itself perhaps not there yet) and its mode when it exists. */
async function realTarget(file: string): Promise<{ path: string; mode?: number }> {
  let current = path.resolve(file);
  for (let hops = 0; hops <= 40; hops++) {
    const folder = await fs.realpath(path.dirname(current));
    current = path.join(folder, path.basename(current));
    const stat = await fs.lstat(current).catch(() => undefined);
    if (stat === undefined) return { path: current };
    if (stat.isSymbolicLink()) {
      current = path.resolve(folder, await fs.readlink(current));
      continue;
    }
    if (!stat.isFile()) throw new Error(`${file} is not a regular file, and is never replaced; choose a file`);
    return { path: current, mode: stat.mode & 0o7777 };
  }
  throw new Error(`${file}: its symbolic links go round in a loop; choose the file itself`);
}
