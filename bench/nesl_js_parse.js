// The nesl-js side of the whole-process benchmark (bench/process_benchmark.cpp): reads one
// file and parses it with nesl-js's parseNesl, as a program using the npm package would.
// Usage: node nesl_js_parse.js NESL_PACKAGE_DIR FILE
// Prints one line: the blocks and errors nesl-js found, and its parse time alone.
'use strict';
const fs = require('fs');
const path = require('path');
const { parseNesl } = require(path.resolve(process.argv[2])); // a directory, not a package name

const text = fs.readFileSync(process.argv[3], 'utf8');
const start = process.hrtime.bigint();
const result = parseNesl(text);
const ms = Number(process.hrtime.bigint() - start) / 1e6;
console.log(`${result.blocks.length} blocks ${result.errors.length} errors parse ${ms.toFixed(1)} ms`);
