/**
 * Driving the VS Code workbench in a browser page, the way a person does: Quick Open, the command
 * palette, Go to Line, the Problems panel, hovers, suggestions and code actions. Every step waits
 * for the UI state it needs (a selector, or a DOM condition polled by Playwright); none sleeps.
 */
import type { Locator, Page } from 'playwright-core';

export interface Workbench {
  readonly page: Page;
  /** How long any single UI step may take before the test fails. */
  readonly stepTimeoutMs: number;
}

export async function openWorkbench(page: Page, url: string, stepTimeoutMs: number): Promise<Workbench> {
  await page.goto(url);
  await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: stepTimeoutMs * 4 });
  await page.locator('.explorer-folders-view .monaco-list-row').first().waitFor({ state: 'visible', timeout: stepTimeoutMs * 4 });
  return { page, stepTimeoutMs };
}

/** Opens a workspace file with Quick Open and waits until its editor is active with the given language. */
export async function openFile(workbench: Workbench, relativePath: string, languageName?: string): Promise<void> {
  const { page } = workbench;
  await quickInput(workbench, 'Control+P');
  // Quick Open reads `@` as "go to symbol", so type the path only up to it.
  await page.keyboard.insertText(relativePath.split('@')[0]!);
  const fileName = relativePath.split('/').pop() ?? relativePath;
  const description = relativePath.includes('/') ? relativePath.slice(0, relativePath.lastIndexOf('/')) : '';
  const row = page
    .locator('.quick-input-widget .quick-input-list .monaco-list-row')
    .filter({ has: page.locator('.label-name', { hasText: exactText(fileName) }) })
    .filter({ hasText: description });
  await row.first().waitFor({ state: 'visible', timeout: workbench.stepTimeoutMs });
  await row.first().click();
  await page
    .locator('.tabs-container .tab.active')
    .filter({ has: page.locator('.label-name', { hasText: exactText(fileName) }) })
    .waitFor({ state: 'visible', timeout: workbench.stepTimeoutMs });
  if (languageName !== undefined) await waitForStatus(workbench, 'status.editor.mode', languageName);
  await activeEditor(workbench).locator('.view-lines').waitFor({ state: 'visible', timeout: workbench.stepTimeoutMs });
}

/** Runs a command from the palette (F1) by its full title. */
export async function runCommand(workbench: Workbench, title: string): Promise<void> {
  const { page } = workbench;
  await quickInput(workbench, 'F1');
  await page.keyboard.insertText(title);
  const row = page.locator('.quick-input-widget .quick-input-list .monaco-list-row').filter({ has: page.locator('.label-name', { hasText: exactText(title) }) });
  await row.first().waitFor({ state: 'visible', timeout: workbench.stepTimeoutMs });
  await row.first().click();
  await page.locator('.quick-input-widget .quick-input-list .monaco-list-row').filter({ hasText: title }).first().waitFor({ state: 'hidden', timeout: workbench.stepTimeoutMs });
}

/** Puts the cursor at a 1-based line and column with Go to Line. */
export async function goTo(workbench: Workbench, line: number, column: number): Promise<void> {
  const { page } = workbench;
  await quickInput(workbench, 'Control+G');
  await page.keyboard.insertText(`${line}:${column}`);
  await page.keyboard.press('Enter');
  await waitForStatus(workbench, 'status.editor.selection', `Ln ${line}, Col ${column}`);
}

/** The active editor group's text editor. */
export function activeEditor(workbench: Workbench): Locator {
  return workbench.page.locator('.editor-group-container.active .editor-instance .monaco-editor').first();
}

/** The rendered text of the active editor's visible lines, top to bottom. */
export async function visibleLines(workbench: Workbench, editor: Locator = activeEditor(workbench)): Promise<string[]> {
  return editor.locator('.view-lines').evaluate((element) =>
    Array.from(element.querySelectorAll<HTMLElement>('.view-line'))
      .map((line) => ({ top: Number.parseFloat(line.style.top || '0'), text: (line.textContent ?? '').replace(/\u00a0/g, ' ') }))
      .sort((left, right) => left.top - right.top)
      .map((line) => line.text),
  );
}

export interface TextExpectation {
  /** Strings that must all appear in the visible text. */
  readonly includes?: readonly string[];
  /** Regular expression sources that must not match any visible line. */
  readonly excludes?: readonly string[];
}

const activeEditorSelector = '.editor-group-container.active .editor-instance .monaco-editor';

/** Waits (polling the DOM) until the active editor's visible lines meet the expectation; resolves to them. */
export async function waitForLines(workbench: Workbench, expectation: TextExpectation): Promise<string[]> {
  try {
    await workbench.page.waitForFunction(
      ({ selector, includes, excludes }) => {
        const editor = document.querySelector(selector);
        if (editor === null) return false;
        const lines = Array.from(editor.querySelectorAll<HTMLElement>('.view-lines .view-line')).map((line) => (line.textContent ?? '').replace(/\u00a0/g, ' '));
        const text = lines.join('\n');
        return includes.every((needle) => text.includes(needle)) && !excludes.some((source) => lines.some((line) => new RegExp(source).test(line)));
      },
      { selector: activeEditorSelector, includes: [...(expectation.includes ?? [])], excludes: [...(expectation.excludes ?? [])] },
      { timeout: workbench.stepTimeoutMs, polling: 100 },
    );
  } catch (error) {
    throw new Error(`The editor never showed ${JSON.stringify(expectation)}. It shows:\n${(await visibleLines(workbench)).join('\n')}`);
  }
  return visibleLines(workbench);
}

/**
 * Waits (polling the DOM) for a squiggle of one severity on the line whose text contains `needle`;
 * resolves to how many there are. Squiggles and lines are matched by their vertical position.
 */
export async function waitForSquiggle(workbench: Workbench, severity: 'error' | 'warning' | 'info', needle: string): Promise<number> {
  try {
    const handle = await workbench.page.waitForFunction(
      ({ selector, severity, needle }) => {
        const editor = document.querySelector(selector);
        if (editor === null) return false;
        const line = Array.from(editor.querySelectorAll<HTMLElement>('.view-lines .view-line')).find((candidate) =>
          (candidate.textContent ?? '').replace(/\u00a0/g, ' ').includes(needle),
        );
        if (line === undefined) return false;
        const count = Array.from(editor.querySelectorAll<HTMLElement>(`.view-overlays .squiggly-${severity}`)).filter(
          (squiggle) => squiggle.parentElement?.style.top === line.style.top,
        ).length;
        return count > 0 ? count : false;
      },
      { selector: activeEditorSelector, severity, needle },
      { timeout: workbench.stepTimeoutMs, polling: 100 },
    );
    return Number(await handle.jsonValue());
  } catch {
    throw new Error(`No ${severity} squiggle appeared on the line containing "${needle}".`);
  }
}

/** Opens the Problems panel and waits (polling the DOM) until its rows mention every needle; resolves to the rows' labels. */
export async function problems(workbench: Workbench, needles: readonly string[]): Promise<string[]> {
  const { page } = workbench;
  const panel = page.locator('.markers-panel');
  if (!(await panel.isVisible())) {
    await page.keyboard.press('Control+Shift+M');
    await panel.waitFor({ state: 'visible', timeout: workbench.stepTimeoutMs });
  }
  const rows = (): Promise<string[]> =>
    panel.locator('.monaco-list-row').evaluateAll((elements) => elements.map((element) => element.getAttribute('aria-label') ?? element.textContent ?? ''));
  try {
    await page.waitForFunction(
      (needles) => {
        const labels = Array.from(document.querySelectorAll('.markers-panel .monaco-list-row')).map((row) => row.getAttribute('aria-label') ?? row.textContent ?? '');
        return needles.every((needle) => labels.some((label) => label.includes(needle)));
      },
      [...needles],
      { timeout: workbench.stepTimeoutMs, polling: 100 },
    );
  } catch {
    throw new Error(`The Problems panel never mentioned all of ${needles.join(', ')}. Its rows:\n${(await rows()).join('\n')}`);
  }
  return rows();
}

/** Shows the hover at the cursor (editor.action.showHover) and resolves to its text. */
export async function hoverAtCursor(workbench: Workbench, contains: string): Promise<string> {
  const { page } = workbench;
  await page.keyboard.press('Control+K');
  await page.keyboard.press('Control+I');
  const hover = page.locator('.monaco-hover:not(.hidden) .hover-contents').filter({ hasText: contains });
  await hover.first().waitFor({ state: 'visible', timeout: workbench.stepTimeoutMs });
  return (await page.locator('.monaco-hover:not(.hidden)').first().innerText()).trim();
}

/** Triggers suggestions (Ctrl+Space) and waits (polling the DOM) until every expected label is listed; resolves to the labels. */
export async function suggestions(workbench: Workbench, expected: readonly string[]): Promise<string[]> {
  const { page } = workbench;
  await page.keyboard.press('Control+Space');
  const widget = page.locator('.editor-widget.suggest-widget.visible');
  await widget.waitFor({ state: 'visible', timeout: workbench.stepTimeoutMs });
  const labels = (): Promise<string[]> =>
    widget.locator('.monaco-list-row .label-name').evaluateAll((elements) => elements.map((element) => (element.textContent ?? '').trim()));
  try {
    await page.waitForFunction(
      (expected) => {
        const shown = Array.from(document.querySelectorAll('.suggest-widget.visible .monaco-list-row .label-name')).map((element) => (element.textContent ?? '').trim());
        return expected.every((label) => shown.includes(label));
      },
      [...expected],
      { timeout: workbench.stepTimeoutMs, polling: 100 },
    );
  } catch {
    throw new Error(`The suggestions never listed all of ${expected.join(', ')}. They were: ${(await labels()).join(', ')}`);
  }
  return labels();
}

/**
 * Opens the code actions at the cursor (Ctrl+.), moves the keyboard focus to the one whose title
 * contains `title` and applies it with Enter. Resolves to every title the menu offered.
 */
export async function applyCodeAction(workbench: Workbench, title: string): Promise<string[]> {
  const { page } = workbench;
  await page.keyboard.press('Control+.');
  const menu = page.locator('.action-widget');
  await menu.waitFor({ state: 'visible', timeout: workbench.stepTimeoutMs });
  const rows = menu.locator('.monaco-list-row.action');
  await rows.first().waitFor({ state: 'visible', timeout: workbench.stepTimeoutMs });
  const titles = await rows.evaluateAll((elements) => elements.map((element) => element.getAttribute('aria-label') ?? (element.textContent ?? '').trim()));
  const target = titles.findIndex((candidate) => candidate.includes(title));
  if (target < 0) throw new Error(`No code action contains "${title}". The menu offers: ${titles.join(' | ')}`);
  for (let step = 0; step <= titles.length; step += 1) {
    const focused = menu.locator('.monaco-list-row.action.focused');
    const label = (await focused.count()) === 0 ? '' : ((await focused.first().getAttribute('aria-label')) ?? '');
    if (label.includes(title)) break;
    await page.keyboard.press('ArrowDown');
    await page.waitForFunction(
      (previous) => (document.querySelector('.action-widget .monaco-list-row.action.focused')?.getAttribute('aria-label') ?? '') !== previous,
      label,
      { timeout: workbench.stepTimeoutMs, polling: 50 },
    );
  }
  await page.keyboard.press('Enter');
  await menu.waitFor({ state: 'hidden', timeout: workbench.stepTimeoutMs });
  return titles;
}

/** Searches the active editor with its find widget; resolves to the widget's count ("1 of 3"; "? of 3" when the cursor is on no match; "No results"). */
export async function findInEditor(workbench: Workbench, text: string, expectFound: boolean): Promise<string> {
  const { page } = workbench;
  await page.keyboard.press('Control+F');
  const widget = page.locator('.editor-group-container.active .find-widget.visible');
  await widget.waitFor({ state: 'visible', timeout: workbench.stepTimeoutMs });
  const input = widget.locator('.find-part .input');
  await input.fill(text);
  const count = widget.locator('.matchesCount', { hasText: expectFound ? /^(\d+|\?) of \d+$/ : /^No results$/ });
  try {
    await count.waitFor({ state: 'visible', timeout: workbench.stepTimeoutMs });
  } catch {
    const shown = (await widget.locator('.matchesCount').innerText()).trim();
    throw new Error(`Searching for "${text}" shows "${shown}", not ${expectFound ? 'a match' : 'no results'}.`);
  }
  const shown = (await count.innerText()).trim();
  await page.keyboard.press('Escape');
  await widget.waitFor({ state: 'hidden', timeout: workbench.stepTimeoutMs });
  return shown;
}

/** Waits for a status bar entry (by its id) whose text contains `text`; resolves to its text. */
export async function waitForStatus(workbench: Workbench, id: string, text: string): Promise<string> {
  const entry = workbench.page.locator(`[id="${id}"]`).filter({ hasText: text });
  await entry.first().waitFor({ state: 'visible', timeout: workbench.stepTimeoutMs });
  return (await entry.first().innerText()).trim();
}

/** A visible notification toast whose message contains `text`. */
export async function notification(workbench: Workbench, text: string): Promise<string> {
  const toast = workbench.page.locator('.notification-toast .notification-list-item-message').filter({ hasText: text });
  await toast.first().waitFor({ state: 'visible', timeout: workbench.stepTimeoutMs });
  return (await toast.first().innerText()).trim();
}

/** Closes every editor, answering "Don't Save" for edited ones, so one test's edits never leak into the next. */
export async function revertAndCloseAll(workbench: Workbench): Promise<void> {
  const { page } = workbench;
  await page.keyboard.press('Escape');
  const tabs = page.locator('.editor-group-container .tabs-container .tab');
  if ((await tabs.count()) === 0) return;
  await runCommand(workbench, 'View: Close All Editors');
  await page.waitForFunction(
    () => document.querySelector('.monaco-dialog-box') !== null || document.querySelectorAll('.editor-group-container .tabs-container .tab').length === 0,
    undefined,
    { timeout: workbench.stepTimeoutMs, polling: 100 },
  );
  const dialog = page.locator('.monaco-dialog-box');
  if ((await dialog.count()) > 0) {
    await dialog.locator('.monaco-button', { hasText: "Don't Save" }).click();
    await dialog.waitFor({ state: 'detached', timeout: workbench.stepTimeoutMs });
  }
  await tabs.first().waitFor({ state: 'detached', timeout: workbench.stepTimeoutMs });
}

async function quickInput(workbench: Workbench, key: string): Promise<void> {
  const { page } = workbench;
  const widget = page.locator('.quick-input-widget');
  await page.keyboard.press(key);
  await widget.waitFor({ state: 'visible', timeout: workbench.stepTimeoutMs });
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Backspace');
  // Clearing the box also clears the mode prefix the key put there.
  const prefix = key === 'F1' ? '>' : key === 'Control+G' ? ':' : '';
  if (prefix !== '') await page.keyboard.insertText(prefix);
}

function exactText(text: string): RegExp {
  return new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
}
