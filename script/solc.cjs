#!/usr/bin/env node
// The solc executable forge calls (foundry.toml `solc`): forge cannot download native solc here,
// so this answers forge's two calls with solcjs, the npm WebAssembly build.
'use strict';
const solc = require('solc');

const args = process.argv.slice(2);
if (args.includes('--version')) {
  process.stdout.write(`solc, the solidity compiler commandline interface\nVersion: ${solc.version()}\n`);
  process.exit(0);
}
if (!args.includes('--standard-json')) {
  process.stderr.write('script/solc.cjs supports only --version and --standard-json\n');
  process.exit(1);
}
const fs = require('node:fs');
const path = require('node:path');
const baseIdx = args.indexOf('--base-path');
const base = baseIdx >= 0 ? args[baseIdx + 1] : process.cwd();
const chunks = [];
process.stdin.on('data', (c) => chunks.push(c));
process.stdin.on('end', () => {
  const input = Buffer.concat(chunks).toString('utf8');
  const findImports = (p) => {
    for (const candidate of [path.resolve(base, p), path.resolve(p)]) {
      if (fs.existsSync(candidate)) return { contents: fs.readFileSync(candidate, 'utf8') };
    }
    return { error: `File not found: ${p}` };
  };
  process.stdout.write(solc.compile(input, { import: findImports }));
});
