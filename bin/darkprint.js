#!/usr/bin/env node
'use strict';
// The `darkprint` command: a shim over the bundled CLI (built by `npm run build`, which `npm ci` runs).
const cli = require('../shared/out/cli.js');
cli.quietOnClosedStdout();
cli.main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
