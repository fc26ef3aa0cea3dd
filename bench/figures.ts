// figure() of bench/budgets.mjs for the benchmarks written in TypeScript (built to CommonJS, which
// cannot load that ES module synchronously): records one figure for `npm run bench -- --check`.
// The name must be one of bench/budgets.mjs's BUDGETS (--check fails a figure it has no budget for).
import * as fs from 'node:fs';

export function figure(name: string, value: number): void {
  const file = process.env.ACP_BENCH_FIGURES;
  if (file) fs.appendFileSync(file, `${JSON.stringify({ name, value })}\n`);
}
