/**
 * A private code-server (VS Code 1.100.3 served to a browser) for the end-to-end suite: installs
 * what is missing (e2e/install.sh), packages the extension, installs the .vsix into its own
 * extensions folder, and runs it on a free loopback port with no auth, in its own process group,
 * with HOME and the XDG folders pointed into a scratch folder. Nothing here touches the user's
 * own VS Code or code-server.
 */
import { spawn, spawnSync, type ChildProcess } from 'child_process';
import * as fs from 'fs';
import * as net from 'net';
import * as path from 'path';

export const repositoryRoot = path.resolve(__dirname, '..', '..');

export interface Scratch {
  readonly root: string;
  readonly home: string;
  readonly userData: string;
  readonly extensions: string;
  readonly workspace: string;
  readonly browserProfile: string;
  readonly screenshots: string;
}

export interface RunningCodeServer {
  readonly url: string;
  readonly port: number;
  readonly log: string;
  stop(): Promise<void>;
}

/** Runs e2e/install.sh (apt packages, code-server into the cache); resolves to code-server's entry script. */
export function installPrerequisites(log: (line: string) => void): string {
  const result = spawnSync('bash', [path.join(repositoryRoot, 'e2e', 'install.sh')], {
    cwd: repositoryRoot,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 64 * 1024 * 1024,
  });
  for (const line of result.stderr.split('\n')) if (line.startsWith('[e2e install]')) log(line);
  if (result.status !== 0) throw new Error(`e2e/install.sh failed (exit ${result.status}):\n${tail(result.stderr)}`);
  const entry = result.stdout.trim().split('\n').pop() ?? '';
  if (!fs.existsSync(entry)) throw new Error(`e2e/install.sh did not name code-server's entry script (got ${JSON.stringify(entry)})`);
  return entry;
}

/** `npm run package` at the repository root; resolves to the .vsix it wrote. */
export function packageExtension(): string {
  const manifest = JSON.parse(fs.readFileSync(path.join(repositoryRoot, 'package.json'), 'utf8')) as { name: string; version: string };
  const vsix = path.join(repositoryRoot, `${manifest.name}-${manifest.version}.vsix`);
  fs.rmSync(vsix, { force: true });
  const result = spawnSync('npm', ['run', 'package', '--silent'], { cwd: repositoryRoot, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0 || !fs.existsSync(vsix)) {
    throw new Error(`npm run package failed (exit ${result.status}):\n${tail(result.stdout + result.stderr)}`);
  }
  return vsix;
}

/**
 * The test variant of the .vsix for the web worker extension host: the files `npm run package`
 * packs (run it first: this reads its build), with a manifest that has only the `browser` entry.
 * code-server runs an extension that has `main` in its Node extension host, and one with only
 * `browser` in its web worker host, as vscode.dev and github.dev do. Packed by vsce itself from a
 * staging folder; resolves to the .vsix written in `folder`.
 */
export function packageWebOnlyExtension(folder: string): string {
  const staging = path.join(folder, 'web-only-extension');
  fs.rmSync(staging, { recursive: true, force: true });
  fs.mkdirSync(staging, { recursive: true });
  for (const entry of ['README.md', 'CHANGELOG.md', '.vscodeignore', 'images', 'syntaxes', 'docs', 'client/out', 'server/out']) {
    const from = path.join(repositoryRoot, entry);
    if (fs.existsSync(from)) fs.cpSync(from, path.join(staging, entry), { recursive: true });
  }
  const manifest = JSON.parse(fs.readFileSync(path.join(repositoryRoot, 'package.json'), 'utf8')) as Record<string, unknown> & { name: string; version: string; scripts?: Record<string, string> };
  if (typeof manifest.browser !== 'string') throw new Error('package.json has no `browser` entry to run in the web worker extension host');
  delete manifest.main;
  // (the build already ran: the staging folder packs what it wrote)
  delete manifest.scripts;
  fs.writeFileSync(path.join(staging, 'package.json'), `${JSON.stringify(manifest, undefined, 2)}\n`);
  const vsix = path.join(folder, `${manifest.name}-${manifest.version}-web.vsix`);
  const vsce = path.join(repositoryRoot, 'node_modules', '@vscode', 'vsce', 'vsce');
  const result = spawnSync(process.execPath, [vsce, 'package', '--no-dependencies', '--skip-license', '--allow-missing-repository', '--no-rewrite-relative-links', '--out', vsix], {
    cwd: staging,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status !== 0 || !fs.existsSync(vsix)) throw new Error(`vsce package of the web-only variant failed (exit ${result.status}):\n${tail(result.stdout + result.stderr)}`);
  return vsix;
}

export function createScratch(): Scratch {
  const base = process.env.DARKPRINT_E2E_ARTIFACTS ?? fs.mkdtempSync(path.join(process.env.TMPDIR ?? '/tmp', 'darkprint-e2e-'));
  const folder = (name: string): string => {
    const target = path.join(base, name);
    fs.rmSync(target, { recursive: true, force: true });
    fs.mkdirSync(target, { recursive: true });
    return target;
  };
  return {
    root: base,
    home: folder('home'),
    userData: folder('user-data'),
    extensions: folder('extensions'),
    workspace: folder('workspace'),
    browserProfile: folder('browser-profile'),
    screenshots: folder('screenshots'),
  };
}

/** The environment code-server and its extension hosts run with: every per-user folder in the scratch. */
export function scratchEnvironment(scratch: Scratch): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    LANG: 'C.UTF-8',
    HOME: scratch.home,
    XDG_CONFIG_HOME: path.join(scratch.home, '.config'),
    XDG_DATA_HOME: path.join(scratch.home, '.local', 'share'),
    XDG_CACHE_HOME: path.join(scratch.home, '.cache'),
    XDG_STATE_HOME: path.join(scratch.home, '.local', 'state'),
    TMPDIR: process.env.TMPDIR ?? '/tmp',
  };
}

export function installExtension(entry: string, vsix: string, scratch: Scratch): void {
  const result = spawnSync(
    process.execPath,
    [entry, '--user-data-dir', scratch.userData, '--extensions-dir', scratch.extensions, '--install-extension', vsix, '--force'],
    { env: scratchEnvironment(scratch), encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 },
  );
  if (result.status !== 0 || !/successfully installed/i.test(result.stdout + result.stderr)) {
    throw new Error(`code-server --install-extension failed (exit ${result.status}):\n${tail(result.stdout + result.stderr)}`);
  }
}

/** User settings that keep the workbench quiet and predictable for a test. */
export function writeUserSettings(scratch: Scratch, extra: Record<string, unknown> = {}): void {
  const settings = {
    'workbench.startupEditor': 'none',
    'workbench.welcomePage.walkthroughs.openOnInstall': false,
    'workbench.tips.enabled': false,
    'workbench.enableExperiments': false,
    'workbench.colorTheme': 'Default Dark Modern',
    'security.workspace.trust.enabled': false,
    'telemetry.telemetryLevel': 'off',
    'update.mode': 'none',
    'extensions.autoCheckUpdates': false,
    'extensions.autoUpdate': false,
    'extensions.ignoreRecommendations': true,
    'git.enabled': false,
    'git.autoRepositoryDetection': false,
    'editor.minimap.enabled': false,
    'editor.accessibilitySupport': 'off',
    'editor.hover.delay': 200,
    'editor.quickSuggestions': { other: 'off', comments: 'off', strings: 'off' },
    'editor.suggestOnTriggerCharacters': false,
    'editor.wordBasedSuggestions': 'off',
    'files.autoSave': 'off',
    'files.simpleDialog.enable': true,
    'chat.commandCenter.enabled': false,
    'chat.disableAIFeatures': true,
    'window.commandCenter': false,
    ...extra,
  };
  const folder = path.join(scratch.userData, 'User');
  fs.mkdirSync(folder, { recursive: true });
  fs.writeFileSync(path.join(folder, 'settings.json'), `${JSON.stringify(settings, undefined, 2)}\n`);
}

export async function startCodeServer(entry: string, scratch: Scratch, openTimeoutMs: number): Promise<RunningCodeServer> {
  const port = await freePort();
  const config = path.join(scratch.root, 'code-server.yaml');
  fs.writeFileSync(
    config,
    [`bind-addr: 127.0.0.1:${port}`, 'auth: none', 'cert: false', 'disable-telemetry: true', 'disable-update-check: true', 'disable-workspace-trust: true', ''].join('\n'),
  );
  const log = path.join(scratch.root, 'code-server.log');
  const output = fs.openSync(log, 'w');
  const child: ChildProcess = spawn(
    process.execPath,
    [entry, '--config', config, '--user-data-dir', scratch.userData, '--extensions-dir', scratch.extensions, '--disable-getting-started-override', scratch.workspace],
    { env: scratchEnvironment(scratch), stdio: ['ignore', output, output], detached: true },
  );
  fs.closeSync(output);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const stop = async (): Promise<void> => {
    if (child.pid === undefined || child.exitCode !== null) return;
    killGroup(child.pid, 'SIGTERM');
    const timer = setTimeout(() => killGroup(child.pid!, 'SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
    // Extension hosts and the language server run in the same group and may outlive the parent.
    killGroup(child.pid, 'SIGKILL');
  };
  const deadline = Date.now() + openTimeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`code-server exited (${child.exitCode}) before it answered:\n${tail(fs.readFileSync(log, 'utf8'))}`);
    if (await healthy(url)) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`code-server did not answer ${url}/healthz within ${openTimeoutMs} ms:\n${tail(fs.readFileSync(log, 'utf8'))}`);
    }
    await new Promise<void>((resolve) => setTimeout(resolve, 200));
  }
  return { url, port, log, stop };
}

/** Copies a folder of the repository into the workspace; resolves to the copy. */
export function copyIntoWorkspace(scratch: Scratch, from: string, name: string): string {
  const target = path.join(scratch.workspace, name);
  fs.cpSync(path.join(repositoryRoot, from), target, { recursive: true });
  return target;
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is already gone.
  }
}

async function healthy(url: string): Promise<boolean> {
  try {
    const response = await fetch(`${url}/healthz`);
    return response.ok;
  } catch {
    return false;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function tail(text: string, lines = 40): string {
  return text.trimEnd().split('\n').slice(-lines).join('\n');
}
