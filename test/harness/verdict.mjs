// What makes a tier fail beyond its failed tests (test/harness/test-all.mjs; proven in
// test/e2e/harness.test.mjs): a tier that ran no test; without --grep, one that ran fewer
// than its floor; on Linux, one with a skipped (pending) test — skips are allowed only behind
// a platform guard (the lint acp/no-unguarded-skip), and Linux is where every test must run.

/**
 * @param {string} tier
 * @param {{ passed: number, failed: number, skipped: number }} counts
 * @param {{ grep?: string, floors: Record<string, number>, platform?: string }} options (floors: TIER_FLOORS in test/harness/test-all.mjs)
 * @returns {string[]} why the tier fails besides its failed tests, one line each (each counts as a failure)
 */
export function tierProblems(tier, counts, { grep, floors, platform = process.platform }) {
  /** @type {string[]} */
  const problems = [];
  const ran = counts.passed + counts.failed;
  if (ran === 0) problems.push(`${tier}: ran no test — counted as a failure`);
  else if (!grep && ran < (floors[tier] ?? 0)) problems.push(`${tier}: ran ${ran} tests, fewer than its floor of ${floors[tier]} (TIER_FLOORS in test/harness/test-all.mjs) — counted as a failure`);
  if (counts.skipped > 0 && platform === 'linux') problems.push(`${tier}: ${counts.skipped} test(s) skipped on Linux, where every test must run (see the lines marked "- … (skipped)" or "pending") — counted as a failure`);
  return problems;
}
