/**
 * Version strings, compared one way: the registry's update check and the
 * quirks table's version ranges. No `vscode` import.
 */

/** Compares versions: numeric parts as numbers ("1.10.0" > "1.9.2"), a pre-release below its release. */
export function compareVersions(a: string, b: string): number {
  const [ra = '', pa] = a.split(/-(.*)/s);
  const [rb = '', pb] = b.split(/-(.*)/s);
  const byParts = (x: string, y: string) => {
    const xs = x.split(/[.+]/);
    const ys = y.split(/[.+]/);
    for (let i = 0; i < Math.max(xs.length, ys.length); i++) {
      const p = xs[i] ?? '';
      const q = ys[i] ?? '';
      if (p === q) continue;
      if (/^\d+$/.test(p) && /^\d+$/.test(q)) return Number(p) - Number(q);
      return p < q ? -1 : 1;
    }
    return 0;
  };
  const release = byParts(ra, rb);
  if (release !== 0) return release;
  if (pa === undefined || pb === undefined) return pa === pb ? 0 : pa === undefined ? 1 : -1;
  return byParts(pa, pb);
}

/**
 * Whether `candidate` is a newer version than `installed`, as an update: both
 * must read as versions (digits first: "1.2.3", "1.2.3-rc.1", "2024.5.1");
 * a registry that lists a lower, equal or malformed version ("latest", "v",
 * "") offers no update.
 */
export function isNewerVersion(candidate: string, installed: string): boolean {
  const looks = (v: string) => /^\d+(\.\d+)*([-+.][0-9A-Za-z.+-]*|[a-z]+\d*(\.\w+)*)?$/.test(v) && v.length <= 100;
  return looks(candidate) && looks(installed) && compareVersions(candidate, installed) > 0;
}

/** Numeric major.minor.patch of a version string (a pre-release counts as that release); undefined when there is none. */
export function parseVersion(v: unknown): [number, number, number] | undefined {
  if (typeof v !== 'string') return undefined;
  const m = /^v?(\d{1,9})\.(\d{1,9})\.(\d{1,9})/.exec(v.trim());
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : undefined;
}

/** Whether `version` is in [from, below), by major.minor.patch (see parseVersion). An unreadable version matches nothing. */
export function inRange(version: unknown, from: string, below?: string): boolean {
  const v = parseVersion(version)?.join('.');
  const lo = parseVersion(from)?.join('.');
  if (v === undefined || lo === undefined || compareVersions(v, lo) < 0) return false;
  const hi = parseVersion(below)?.join('.');
  return hi === undefined || compareVersions(v, hi) < 0;
}
