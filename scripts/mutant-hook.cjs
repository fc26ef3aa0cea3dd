// Preloaded (`node --require`) into the mocha process of one unit mutant (scripts/unit-mutants.mjs):
// when the tests load the built file $ACP_MUTANT_TARGET, the mutated code in $ACP_MUTANT_CODE is
// compiled in its place. Nothing on disk changes. Says so on stdout, so that a mutant whose
// tests never load its file is an error rather than a survivor.
'use strict';
const fs = require('node:fs');
const Module = require('node:module');

const target = process.env.ACP_MUTANT_TARGET;
const code = process.env.ACP_MUTANT_CODE && fs.readFileSync(process.env.ACP_MUTANT_CODE, 'utf8');
if (target && code) {
  const load = Module._extensions['.js'];
  Module._extensions['.js'] = function (module, filename) {
    if (filename !== target) return load(module, filename);
    process.stdout.write(`acp-mutant: loaded ${filename}\n`);
    return module._compile(code, filename);
  };
}
