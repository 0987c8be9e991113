#!/usr/bin/env node
// The solc executable forge calls (foundry.toml `solc`): forge cannot download native solc here,
// so this answers forge's two calls (`--version`, `--standard-json`) with solcjs, the npm
// WebAssembly build.
//
// Two quirks of solcjs shape this file:
// - a Standard JSON input that carries ~1.3 MB of source text inline crashes the wasm build with
//   "memory access out of bounds"; the same sources handed over through the import callback compile.
//   So every inline source is turned into a `urls` entry served from memory.
// - one call is single-threaded (a clean build took 184 s), so a large input is split: each chunk is
//   compiled in its own child process with all sources but an outputSelection naming only its share
//   of files, two children at a time, and the outputs are merged. Source ids stay consistent because
//   every chunk sees the same sources.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { spawn } = require('node:child_process');

const CHUNKS = 4;
const PARALLEL = Math.max(1, Math.min(2, require('node:os').availableParallelism?.() ?? 2));

const args = process.argv.slice(2);
if (args.includes('--version')) {
  const solc = require('solc');
  process.stdout.write(`solc, the solidity compiler commandline interface\nVersion: ${solc.version()}\n`);
  process.exit(0);
}
if (!args.includes('--standard-json')) {
  process.stderr.write('script/solc.cjs supports only --version and --standard-json\n');
  process.exit(1);
}

const baseIdx = args.indexOf('--base-path');
const base = baseIdx >= 0 ? args[baseIdx + 1] : process.cwd();

function readStdin() {
  return new Promise((resolve) => {
    const chunks = [];
    process.stdin.on('data', (c) => chunks.push(c));
    process.stdin.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

function compileHere(raw) {
  const solc = require('solc');
  const input = JSON.parse(raw);
  const inline = new Map();
  for (const [name, source] of Object.entries(input.sources ?? {})) {
    if (typeof source.content === 'string') {
      inline.set(name, source.content);
      input.sources[name] = { urls: [name] };
    }
  }
  const findImports = (p) => {
    if (inline.has(p)) return { contents: inline.get(p) };
    for (const candidate of [path.resolve(base, p), path.resolve(p)]) {
      if (fs.existsSync(candidate)) return { contents: fs.readFileSync(candidate, 'utf8') };
    }
    return { error: `File not found: ${p}` };
  };
  return solc.compile(JSON.stringify(input), { import: findImports });
}

function compileInChild(input) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [__filename, ...args, '--single'], { stdio: ['pipe', 'pipe', 'inherit'] });
    const out = [];
    child.stdout.on('data', (c) => out.push(c));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`solc chunk exited with ${code}`));
      resolve(JSON.parse(Buffer.concat(out).toString('utf8')));
    });
    child.stdin.end(input);
  });
}

async function main() {
  const raw = await readStdin();
  const input = JSON.parse(raw);
  const selection = input.settings?.outputSelection ?? {};
  const files = selection['*'] ? Object.keys(input.sources ?? {}) : Object.keys(selection);
  if (args.includes('--single') || files.length < 2 * CHUNKS) {
    process.stdout.write(compileHere(raw));
    return;
  }
  const perFile = (f) => ({ ...(selection['*'] ?? {}), ...(selection[f] ?? {}) });
  const chunks = Array.from({ length: CHUNKS }, (_, c) => files.filter((_, i) => i % CHUNKS === c));

  const results = new Array(chunks.length);
  let next = 0;
  const worker = async () => {
    while (next < chunks.length) {
      const i = next++;
      const outputSelection = Object.fromEntries(chunks[i].map((f) => [f, perFile(f)]));
      results[i] = await compileInChild(JSON.stringify({ ...input, settings: { ...input.settings, outputSelection } }));
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));

  const merged = { sources: {}, contracts: {}, errors: [] };
  const seen = new Set();
  for (const r of results) {
    Object.assign(merged.sources, r.sources ?? {});
    for (const [file, contracts] of Object.entries(r.contracts ?? {})) {
      merged.contracts[file] = { ...(merged.contracts[file] ?? {}), ...contracts };
    }
    for (const e of r.errors ?? []) {
      // Analysis diagnostics repeat in every chunk; keep each once.
      const key = e.formattedMessage ?? e.message;
      if (seen.has(key)) continue;
      seen.add(key);
      merged.errors.push(e);
    }
  }
  process.stdout.write(JSON.stringify(merged));
}

main().catch((err) => {
  process.stdout.write(JSON.stringify({ errors: [{ severity: 'error', type: 'InternalCompilerError', component: 'general', message: String(err), formattedMessage: String(err) }] }));
});
