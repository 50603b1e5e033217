/**
 * The entry VS Code loads with `--extensionTestsPath`: runs the mocha suite inside the extension
 * host and rejects when a test fails, which makes the run fail.
 *
 * Results are printed one plain line per event through `console.log`, each starting with
 * `resultMarker`, and end with `<marker> N passing, M failing`: a terminal shows them as they
 * are, and the code-server runner (run-vscode.ts --code-server) reads them from the browser console.
 */
import Mocha from 'mocha';
import { registerExtensionSuite } from './extension.test';

export const resultMarker = '[darkprint-api]';

export function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'bdd', timeout: 60_000, reporter: PlainReporter });
  mocha.suite.emit('pre-require', globalThis, 'extension.test', mocha);
  registerExtensionSuite();
  return new Promise((resolve, reject) => {
    mocha.run((failures) => (failures > 0 ? reject(new Error(`${failures} test(s) failed`)) : resolve()));
  });
}

class PlainReporter extends Mocha.reporters.Base {
  constructor(runner: Mocha.Runner, options?: Mocha.MochaOptions) {
    super(runner, options);
    const { EVENT_SUITE_BEGIN, EVENT_TEST_PASS, EVENT_TEST_FAIL, EVENT_RUN_END } = Mocha.Runner.constants;
    let passing = 0;
    let failing = 0;
    const say = (line: string): void => console.log(`${resultMarker} ${line}`);
    runner.on(EVENT_SUITE_BEGIN, (suite: Mocha.Suite) => {
      if (suite.title !== '') say(suite.title);
    });
    runner.on(EVENT_TEST_PASS, (test: Mocha.Test) => {
      passing += 1;
      say(`  ✔ ${test.title} (${test.duration ?? 0}ms)`);
    });
    runner.on(EVENT_TEST_FAIL, (test: Mocha.Test, error: Error) => {
      failing += 1;
      say(`  ${failing}) ${test.title}`);
      for (const line of (error.stack ?? error.message).split('\n').slice(0, 12)) say(`       ${line}`);
    });
    runner.once(EVENT_RUN_END, () => say(`${passing} passing, ${failing} failing`));
  }
}
