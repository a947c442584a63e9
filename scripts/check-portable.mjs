#!/usr/bin/env node
// Fails when portable package source (browser + Workers + Node) uses Node-only or eval APIs.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = new URL('..', import.meta.url).pathname;
const PORTABLE = ['packages/core/src', 'packages/ai/src', 'packages/react/src'];
const RULES = [
  [/\bfrom\s+['"]node:|\brequire\(\s*['"]node:|\bimport\(\s*['"]node:/, 'imports a node: module'],
  [/\bAsyncLocalStorage\b/, 'uses AsyncLocalStorage'],
  [/\bnew\s+Function\s*\(/, 'uses new Function'],
  [/(^|[^.\w$])eval\s*\(/, 'uses eval'],
];

function* files(dir) {
  let entries;
  try {
    entries = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of entries) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else if (/\.(ts|tsx|js|mjs)$/.test(name) && !/\.test(-d)?\.tsx?$/.test(name)) yield path;
  }
}

const problems = [];
let checked = 0;
for (const dir of PORTABLE) {
  for (const file of files(join(ROOT, dir))) {
    checked++;
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (/^\s*(\/\/|\*)/.test(line)) return;
        for (const [re, what] of RULES) if (re.test(line)) problems.push(`${relative(ROOT, file)}:${i + 1} ${what}: ${line.trim()}`);
      });
  }
}
if (problems.length) {
  console.error(`Portable packages must run in browsers and Workers:\n${problems.join('\n')}`);
  process.exit(1);
}
console.log(`check:portable: ${checked} source files free of node:, AsyncLocalStorage, eval and new Function`);
