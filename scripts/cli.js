#!/usr/bin/env node
// `npm run cli` starts here: the CLI is compiled TypeScript, so before a build there is nothing to
// run. Say so the CLI's way (one JSON object on stderr, exit 1) rather than with a MODULE_NOT_FOUND stack.
'use strict';
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const entry = join(__dirname, '..', 'dist', 'cli', 'main.js');
if (!existsSync(entry)) {
  const error = 'dist/cli/main.js not found: build first with `npm run build` (or start the service with `npm start`)';
  process.stderr.write(`${JSON.stringify({ error })}\n`);
  process.exit(1);
}
require(entry);
