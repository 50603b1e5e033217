/**
 * `npm run test:vscode`: the extension's behaviours through the VS Code API (client/test/suite),
 * run inside a real VS Code extension host.
 *
 * - Default: `@vscode/test-electron` downloads VS Code (`DARKPRINT_VSCODE_VERSION`, default
 *   `stable`; `1.100.3` matches the e2e) and runs the suite in it. Needs Microsoft's update
 *   service, which CI machines here cannot reach, so CI does not run this.
 * - `npm run test:vscode -- --code-server`: the same suite in code-server 4.100.3 (installed as
 *   for the e2e), loading the extension from this checkout as a development extension and the
 *   suite through the web workbench's `payload` (extensionDevelopmentPath, extensionTestsPath).
 *   Works offline; the results are read from the browser console.
 *
 * Both build the bundles, bundle the suite with esbuild and copy the fixture bundles into a
 * scratch workspace first. Exit code 0 when every test passed.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { build } from 'esbuild';
import { runTests } from '@vscode/test-electron';
import { chromium } from 'playwright-core';
import { createScratch, installPrerequisites, startCodeServer, writeUserSettings } from '../../e2e/support/code-server';

const root = path.resolve(__dirname, '..', '..');
/** Printed by the suite's reporter (client/test/suite/index.ts) before every result line. */
const resultMarker = '[darkprint-api]';

async function main(): Promise<number> {
  const built = spawnSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
  if (built.status !== 0) return 1;
  const suite = path.join(root, 'out', 'vscode-test', 'suite.js');
  await build({
    entryPoints: [path.join(root, 'client', 'test', 'suite', 'index.ts')],
    outfile: suite,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    external: ['vscode', 'mocha'],
    sourcemap: true,
    logLevel: 'warning',
  });
  return process.argv.includes('--code-server') ? runInCodeServer(suite) : runInElectron(suite);
}

async function runInElectron(suite: string): Promise<number> {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'darkprint-vscode-test-'));
  const workspace = copyFixtures(path.join(scratch, 'workspace'));
  try {
    await runTests({
      version: process.env.DARKPRINT_VSCODE_VERSION ?? 'stable',
      extensionDevelopmentPath: root,
      extensionTestsPath: suite,
      extensionTestsEnv: { DARKPRINT_TEST_WORKSPACE: workspace },
      launchArgs: [workspace, '--disable-extensions', '--disable-workspace-trust', '--user-data-dir', path.join(scratch, 'user-data')],
    });
    return 0;
  } catch (error) {
    console.error(`The VS Code test run failed: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}

async function runInCodeServer(suite: string): Promise<number> {
  const entry = installPrerequisites((line) => console.log(line));
  const scratch = createScratch();
  writeUserSettings(scratch);
  copyFixtures(scratch.workspace);
  const server = await startCodeServer(entry, scratch, 120_000);
  const browser = await chromium.launchPersistentContext(scratch.browserProfile, {
    executablePath: process.env.DARKPRINT_E2E_CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  let passed = false;
  try {
    const page = browser.pages()[0] ?? (await browser.newPage());
    const remote = (file: string): string => `vscode-remote://127.0.0.1:${server.port}${file}`;
    const payload = [
      ['extensionDevelopmentPath', remote(root)],
      ['extensionTestsPath', remote(suite)],
    ];
    const summary = new Promise<string>((resolve) => {
      page.on('console', (message) => {
        const text = message.text();
        const at = text.indexOf(resultMarker);
        if (at < 0) return;
        const line = text.slice(at + resultMarker.length + 1);
        console.log(line);
        if (/^\d+ passing, \d+ failing$/.test(line)) resolve(line);
      });
    });
    await page.goto(`${server.url}/?folder=${encodeURIComponent(scratch.workspace)}&payload=${encodeURIComponent(JSON.stringify(payload))}`);
    const timeout = new Promise<string>((resolve) => setTimeout(() => resolve('timeout'), 10 * 60_000).unref());
    const result = await Promise.race([summary, timeout]);
    if (result === 'timeout') console.error('The suite did not finish within 10 minutes.');
    passed = /^\d+ passing, 0 failing$/.test(result);
  } finally {
    await browser.close();
    await server.stop();
  }
  if (!passed) console.error(`Kept the scratch folder: ${scratch.root} (code-server log: ${server.log}).`);
  else if (process.env.DARKPRINT_E2E_ARTIFACTS === undefined) fs.rmSync(scratch.root, { recursive: true, force: true });
  return passed ? 0 : 1;
}

function copyFixtures(workspace: string): string {
  fs.cpSync(path.join(root, 'test-fixtures', 'example'), path.join(workspace, 'example'), { recursive: true });
  fs.cpSync(path.join(root, 'test-fixtures', 'e2e', 'broken'), path.join(workspace, 'broken'), { recursive: true });
  return workspace;
}

void main().then((code) => {
  process.exitCode = code;
});
