// Benchmarks of the chat panel in the real host (code-server + Chromium), with
// the fake agent generating the traffic. Prints numbers; `npm run bench -- --check` compares them with bench/budgets.mjs.
//  - replay: a long past session (10,000 mixed updates, then 100,000) clicked in the Sessions view, its
//    agent not running → last message visible and input ready (agent start, initialize and
//    session/load included); the agent's pipe drained; `BENCH_PROFILE_HOST=DIR` profiles the host
//  - streaming, 5 runs: 20,000 chunks as fast as the agent can write → last chunk painted;
//    longest main-thread task and worst input-event delay while streaming
//  - the webview's JS heap after the replay; activation time; bundle sizes
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { launchBrowser, startCodeServer, workbenchUrl } from '../test/harness/codeServer.mjs';
import { ensureNode } from '../test/harness/tools.mjs';
import { ROOT, prepareWorkspace, testAgents } from '../test/harness/testEnv.mjs';
import { pick, runCommand, vsixPath, waitForWorkbench } from '../test/e2e/workbench.mjs';
import { BUDGETS, figure } from './budgets.mjs';

/**
 * What the in-frame instrumentation keeps (see instrument()).
 * @typedef {{ doneAt: number, rxAt: number, longest: number, maxInputDelay: number, maxLag: number }} BenchState
 * @typedef {Window & { __bench: BenchState }} BenchWindow
 * @typedef {Performance & { memory?: { usedJSHeapSize: number } }} ChromePerformance (Chromium's non-standard heap size)
 */

const fmt = (/** @type {number} */ n, d = 0) => Number(n).toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });

/**
 * @param {string} tmp
 * @param {string} scenario
 * @returns {any[]}
 */
function record(tmp, scenario) {
  const f = path.join(tmp, `${scenario}.jsonl`);
  return fs.existsSync(f) ? fs.readFileSync(f, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)) : [];
}

/**
 * @param {import('playwright-core').Page} page
 * @param {number} [timeoutMs]
 */
async function chatFrame(page, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    for (const f of page.frames()) {
      if (await f.$('#transcript').catch(() => null)) return f;
    }
    if (Date.now() > deadline) throw new Error('no chat webview frame');
    await page.waitForTimeout(10);
  }
}

/**
 * In-frame: notes when the marker is painted, and measures jank.
 *
 * "Painted" is when the main thread has produced the frame that first shows the
 * marker: a MutationObserver sees it reach the DOM; if that happened during a
 * frame's rendering (in an animation-frame callback), the frame is done by the
 * next task; if it happened outside one (in a message handler), it shows in the
 * next frame, so the time is taken in the task after that frame. (Polling in
 * animation frames instead would run before the view's own callback of the same
 * frame and see the marker one frame late.)
 * @param {import('playwright-core').Frame} frame
 * @param {string} marker
 */
function instrument(frame, marker) {
  return frame.evaluate((m) => {
    const w = /** @type {BenchWindow} */ (/** @type {unknown} */ (window));
    w.__bench = { doneAt: 0, rxAt: 0, longest: 0, maxInputDelay: 0, maxLag: 0 };
    let inFrame = false;
    // A message from the host is a task of its own, never inside a frame's rendering (see inFrame below).
    // Also: when the one carrying the marker reached the webview (before the view's own listener).
    window.addEventListener('message', (e) => {
      inFrame = false;
      if (!w.__bench.rxAt && e.data?.type === 'deltas' && JSON.stringify(e.data).includes(m)) w.__bench.rxAt = Date.now();
    }, true);
    try {
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) w.__bench.longest = Math.max(w.__bench.longest, e.duration);
      }).observe({ type: 'longtask', buffered: true });
    } catch {
      // no Long Tasks API
    }
    let last = performance.now();
    const lag = setInterval(() => {
      const now = performance.now();
      w.__bench.maxLag = Math.max(w.__bench.maxLag, now - last - 16);
      last = now;
    }, 16);
    const input = /** @type {HTMLTextAreaElement} */ (document.getElementById('input'));
    input.addEventListener('keydown', (e) => {
      w.__bench.maxInputDelay = Math.max(w.__bench.maxInputDelay, performance.now() - e.timeStamp);
    });
    // Whether the page is inside a frame's rendering: set by the first animation-frame
    // callback of each frame (ours re-registers itself each frame, so it runs first),
    // cleared by the first task after that frame (ours, or a host message queued before it).
    const after = new MessageChannel();
    /** @type {(() => void)[]} */
    let afterFrame = [];
    after.port1.onmessage = () => {
      inFrame = false;
      const fns = afterFrame;
      afterFrame = [];
      for (const f of fns) f();
    };
    const tick = () => {
      inFrame = true;
      after.port2.postMessage(0);
      if (!w.__bench.doneAt) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
    const transcript = /** @type {HTMLElement} */ (document.getElementById('transcript'));
    const send = /** @type {HTMLButtonElement} */ (document.getElementById('send'));
    let seen = (transcript.textContent ?? '').includes(m);
    let pending = false;
    const done = () => {
      w.__bench.doneAt = Date.now();
      clearInterval(lag);
      observer.disconnect();
    };
    const check = () => {
      if (!seen || (m === 'REPLAY-END-MARKER' && send.disabled)) return;
      pending = true;
      if (inFrame) afterFrame.push(done);
      else requestAnimationFrame(() => afterFrame.push(done));
    };
    const observer = new MutationObserver((records) => {
      if (pending) return;
      // The changed element's whole text: the marker may come in two text nodes.
      seen ||= records.some((r) => (r.type === 'characterData' || (r.type === 'childList' && r.addedNodes.length > 0)) && (r.target.textContent ?? '').includes(m));
      check();
    });
    observer.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ['disabled'] });
    check();
  }, marker);
}

/**
 * Whether the Long Tasks API reports anything in this frame: an 80 ms task of our own must show.
 * (Else "longest task: 0 ms" would only mean the browser never said.)
 * @param {import('playwright-core').Frame} frame
 * @returns {Promise<boolean>}
 */
function longTasksSeen(frame) {
  return frame.evaluate(
    () =>
      new Promise((resolve) => {
        let seen = false;
        try {
          const o = new PerformanceObserver((list) => {
            if (list.getEntries().some((e) => e.duration >= 50)) seen = true;
          });
          o.observe({ type: 'longtask' });
          setTimeout(() => {
            const t = performance.now();
            while (performance.now() - t < 80) {
              // busy on purpose
            }
            setTimeout(() => {
              o.disconnect();
              resolve(seen);
            }, 200);
          }, 0);
        } catch {
          resolve(false);
        }
      }),
  );
}

/**
 * The renderer's retained JS heap (the garbage collected first), read in the page or a frame of it.
 * @param {import('playwright-core').Page | import('playwright-core').Frame} where
 * @returns {Promise<number>}
 */
function retainedHeap(where) {
  return where.evaluate(async () => {
    globalThis.gc?.();
    await new Promise((r) => setTimeout(r, 100));
    globalThis.gc?.();
    return (/** @type {ChromePerformance} */ (performance)).memory?.usedJSHeapSize ?? 0;
  });
}

/**
 * @param {import('playwright-core').Frame} frame
 * @param {number} [timeoutMs]
 * @returns {Promise<BenchState>}
 */
async function waitDone(frame, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const b = await frame.evaluate(() => /** @type {BenchWindow} */ (/** @type {unknown} */ (window)).__bench);
    if (b.doneAt) return b;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * One seeded past session to click: its agent (a clone of the scenario's, so that each click starts
 * an agent of its own, as after a new window), its title in the Sessions view, its record file.
 * @typedef {{ key: string, agentId: string, title: string, record: string, count: number }} Replay
 */

/**
 * A long past session clicked in the Sessions view, as a user opens one: its agent is not running
 * yet (the session is in the local index from an earlier window), so the clock runs from the click
 * through the agent's start, `initialize`, `session/load` and its replay, until the last message is
 * visible and the input is ready.
 * @param {import('playwright-core').Page} page
 * @param {Replay} replay
 * @param {{ serverPid: number | undefined, profiler?: HostProfiler, detail: boolean }} opts
 * @returns {Promise<{ visibleMs: number, drainMs: number, heap: number, scriptAt: number, cpu: Record<string, number> }>}
 */
async function measureReplay(page, replay, opts) {
  const { count, key } = replay;
  const { profiler } = opts;
  await runCommand(page, 'View: Close All Editors');
  await runCommand(page, 'ACP Agents: Focus on Sessions View');
  const row = page.locator('#workbench\\.parts\\.sidebar .monaco-list-row', { hasText: replay.title }).first();
  await row.waitFor({ timeout: 30_000 });
  // The webview's frame shares its JS heap with the workbench (one renderer process): the heap before it opens.
  const heapBefore = opts.detail ? await retainedHeap(page) : 0;
  await profiler?.start();
  const cpu0 = cpuSnapshot();
  const t0 = Date.now();
  await row.click();
  const frame = await chatFrame(page);
  const frameAt = Date.now() - t0;
  await instrument(frame, 'REPLAY-END-MARKER');
  const scriptAt = (await frame.evaluate(() => performance.timeOrigin)) - t0;
  const done = await waitDone(frame, count > 50_000 ? 600_000 : 120_000);
  const replayMs = done.doneAt - t0;
  const cpu = cpuSplit(cpu0, cpuSnapshot(), opts.serverPid);
  const profile = await profiler?.stop(key);
  /** @type {{ name: string, at: number, detail: unknown, from?: number }[]} */
  const marks = await frame.evaluate(() => [
    ...(/** @type {PerformanceResourceTiming[]} */ (performance.getEntriesByType('resource'))).map((r) => ({ name: `fetched ${(r.name.split('/').pop() ?? '').split('?')[0]}`, at: performance.timeOrigin + r.responseEnd, detail: null, from: performance.timeOrigin + r.startTime })),
    ...(/** @type {PerformanceMark[]} */ (performance.getEntriesByType('mark'))).filter((m) => m.name.startsWith('acp:')).map((m) => ({ name: m.name, at: performance.timeOrigin + m.startTime, detail: m.detail })),
  ].sort((a, b) => a.at - b.at));
  // The agent's side, from its record: when it started, got session/load, finished writing.
  const rec = fs.readFileSync(replay.record, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)).filter((r) => r.t >= t0 - 50);
  const at = (/** @type {(r: any) => boolean} */ pred) => rec.find(pred)?.t;
  // The pipe drain: from the agent's session/load to its replay all written into the pipe (the agent
  // writes as fast as the extension host reads, so this is the host's reading, decoding and handling).
  const loadAt = at((r) => r.msg?.method === 'session/load' || r.msg?.method === 'session/resume');
  const writtenAt = at((r) => r.dir === 'mark' || r.mark === 'replayWritten');
  const drainMs = loadAt && writtenAt ? writtenAt - loadAt : NaN;
  const heap = opts.detail ? await retainedHeap(frame) : 0;
  const cpuLine = Object.entries(cpu).map(([k, v]) => `${k} ${fmt(v)}`).join(', ');
  if (!opts.detail) {
    console.log(`  ${replay.title.padEnd(36)} click → visible ${fmt(replayMs).padStart(6)} ms; webview document at ${fmt(scriptAt)} ms; agent started at ${fmt((at((r) => r.dir === 'start') ?? NaN) - t0)} ms; pipe drained in ${fmt(drainMs)} ms`);
    console.log(`      CPU ms meanwhile: ${cpuLine}`);
    return { visibleMs: replayMs, drainMs, heap, scriptAt, cpu };
  }
  // The panel then fetches older history in the background, a batch at a time: the heap once all of it is there.
  const tAll = Date.now();
  await frame.waitForFunction(() => document.getElementById('transcript')?.dataset.older === '0', null, { timeout: 120_000, polling: 100 });
  const allMs = Date.now() - tAll + replayMs;
  const heapAll = await retainedHeap(frame);
  const dom = await frame.evaluate(() => ({ nodes: document.getElementsByTagName('*').length, items: Number(document.getElementById('transcript')?.dataset.items ?? 0), rendered: document.querySelectorAll('#transcript .item').length, spacers: document.querySelectorAll('#transcript > .placeholder').length }));
  // Typing right after the replay.
  await frame.locator('#input').click();
  const tType = Date.now();
  await page.keyboard.type('typing works');
  await frame.waitForFunction(() => (/** @type {HTMLTextAreaElement} */ (document.getElementById('input'))).value === 'typing works');
  const typeMs = Date.now() - tType;

  console.log(`\nReplay: a past session of ${fmt(count)} mixed updates (messages, thoughts, tool calls with diffs, plans) clicked in the Sessions view, its agent not running`);
  console.log(`  click → the last message visible and the input ready      ${fmt(replayMs).padStart(7)} ms   (budget ${fmt(BUDGETS[count > 50_000 ? 'replay-100k.visibleMs' : 'replay-10k.visibleMs'].budget)})`);
  console.log(`    of which: the webview document started after              ${fmt(scriptAt).padStart(7)} ms (found by the harness at ${fmt(frameAt)} ms)`);
  for (const [name, t] of [
    ['agent process started', at((r) => r.dir === 'start')],
    ['agent got initialize', at((r) => r.msg?.method === 'initialize')],
    ['agent got session/load', loadAt],
    ['agent wrote the replay', writtenAt],
  ]) if (t) marks.push({ name, at: t, detail: null });
  marks.sort((a, b) => a.at - b.at);
  for (const m of marks) console.log(`      ${m.name.padEnd(22)} at ${fmt(m.at - t0).padStart(7)} ms${m.from ? ` (requested at ${fmt(m.from - t0)} ms)` : ''}${m.detail != null ? ` (${fmt(Number(m.detail))} items)` : ''}`);
  console.log(`  the agent's pipe drained (session/load received → the replay written)  ${fmt(drainMs).padStart(7)} ms${count > 50_000 ? '' : `   (budget ${fmt(BUDGETS['replay-10k.pipeDrainMs'].budget)})`}`);
  console.log(`  CPU time from the click to visible, by process (ms; the machine has ${os.cpus().length} cores): ${cpuLine}`);
  if (profile) console.log(`  extension host CPU profile of this replay: ${profile}`);
  console.log(`  longest task in the webview (only tasks over 50 ms count; 0: none) ${fmt(done.longest).padStart(7)} ms`);
  console.log(`  webview JS heap after the replay                          ${fmt(heap / 1e6, 1).padStart(7)} MB   (target ≤ ${count > 50_000 ? 200 : 150})`);
  console.log(`    (the renderer's heap, which the workbench and its webviews share: ${fmt(heapBefore / 1e6, 1)} MB before the panel opened, so the panel's share is about ${fmt((heap - heapBefore) / 1e6, 1)} MB)`);
  console.log(`  the whole history in the panel (fetched in the background) ${fmt(allMs).padStart(7)} ms, heap then ${fmt(heapAll / 1e6, 1)} MB`);
  console.log(`  DOM: ${fmt(dom.rendered)} of ${fmt(dom.items)} items rendered, the rest behind ${fmt(dom.spacers)} spacers; ${fmt(dom.nodes)} elements`);
  console.log(`  typing 12 characters into the composer afterwards          ${fmt(typeMs).padStart(7)} ms`);
  return { visibleMs: replayMs, drainMs, heap, scriptAt, cpu };
}

/**
 * CPU time (user + system, clock ticks) of every process, and of the whole machine.
 * @returns {{ procs: Map<number, { ticks: number, ppid: number, cmd: string }>, machine: number }}
 */
function cpuSnapshot() {
  const procs = new Map();
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const f = fs.readFileSync(`/proc/${d}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
      procs.set(Number(d), { ticks: Number(f[11]) + Number(f[12]), ppid: Number(f[1]), cmd: '' });
    } catch {
      // gone
    }
  }
  const cpu = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]?.split(/\s+/).slice(1).map(Number) ?? [];
  // user nice system idle iowait irq softirq steal: busy is all but idle and iowait.
  const machine = cpu.slice(0, 8).reduce((a, b, i) => (i === 3 || i === 4 ? a : a + b), 0);
  return { procs, machine };
}

/**
 * The CPU time spent between two snapshots (ms), by who: the extension host, the agent (its
 * children), the rest of code-server (its server, its other processes), the browser (the bench's
 * children: Chromium's processes, the renderer of the workbench and the webview among them), the
 * bench's own process (playwright polling the frame), and everything else on the machine (other
 * work on a shared machine).
 * @param {ReturnType<typeof cpuSnapshot>} a
 * @param {ReturnType<typeof cpuSnapshot>} b
 * @param {number | undefined} serverPid
 * @returns {Record<string, number>}
 */
function cpuSplit(a, b, serverPid) {
  const tick = 10; // ms: USER_HZ is 100 on Linux
  const host = findExtensionHost(serverPid);
  const under = (/** @type {number} */ pid, /** @type {number | undefined} */ ancestor) => {
    for (let p = pid, i = 0; p > 1 && i < 30; i++) {
      if (p === ancestor) return true;
      p = b.procs.get(p)?.ppid ?? a.procs.get(p)?.ppid ?? 0;
    }
    return false;
  };
  /** @type {Record<string, number>} */
  const out = { 'extension host': 0, agent: 0, 'code-server (rest)': 0, browser: 0, 'the bench (playwright)': 0, 'rest of the machine': 0 };
  let ours = 0;
  for (const [pid, p] of b.procs) {
    const d = (p.ticks - (a.procs.get(pid)?.ticks ?? 0)) * tick;
    if (d <= 0) continue;
    const who = pid === host ? 'extension host' : host !== undefined && under(pid, host) ? 'agent' : under(pid, serverPid) ? 'code-server (rest)' : pid === process.pid ? 'the bench (playwright)' : under(pid, process.pid) ? 'browser' : undefined;
    if (!who) continue;
    out[who] = (out[who] ?? 0) + d;
    ours += d;
  }
  out['rest of the machine'] = Math.max(0, (b.machine - a.machine) * tick - ours);
  return out;
}

/** How many times the 10k replay and the tiny one are clicked (each its own agent; the figures are medians). */
const REPLAY_RUNS = Number(process.env.BENCH_REPLAY_RUNS || 3);

/**
 * The past sessions the bench clicks: the 10k replay REPLAY_RUNS times, the 100k one once, and a
 * tiny one (10 updates) REPLAY_RUNS times: what opening any past session costs whatever its length
 * (the agent's start, VS Code's webview start-up).
 * @param {string} tmp
 * @param {string} nodeBin
 * @returns {{ replays: { small: Replay[], r10k: Replay[], r10kV2: Replay[], r100k: Replay }, agents: any[] }}
 */
function replaySessions(tmp, nodeBin) {
  const fakeAgent = path.join(ROOT, 'test', 'fixtures', 'agents', 'fake-agent.mjs');
  const tiny = path.join(tmp, 'replay-tiny.json');
  const scenario = JSON.parse(fs.readFileSync(path.join(ROOT, 'test', 'fixtures', 'agents', 'scenarios', 'replay-10k.json'), 'utf8'));
  scenario.on['session/load'][0].count = 9;
  fs.writeFileSync(tiny, JSON.stringify(scenario));
  /** @type {any[]} */
  const agents = [];
  const make = (/** @type {string} */ key, /** @type {string} */ scenarioArg, /** @type {number} */ i, /** @type {string} */ title, /** @type {number} */ count, v2 = false) => {
    const id = `bench-${key}-${i}`;
    const record = path.join(tmp, `${id}.jsonl`);
    agents.push({ id, name: `Bench: ${key} #${i}`, command: nodeBin, args: [fakeAgent, scenarioArg], env: { ACP_FAKE_RECORD: record }, ...(v2 ? { protocolVersion: '2' } : {}) });
    return { key, agentId: id, title, record, count };
  };
  const runs = Array.from({ length: REPLAY_RUNS }, (_, i) => i + 1);
  return {
    agents,
    replays: {
      small: runs.map((i) => make('replay-tiny', tiny, i, `Short session ${i} (10 updates)`, 10)),
      r10k: runs.map((i) => make('replay-10k', 'replay-10k', i, `Long session ${i} (10,000 updates)`, 10_000)),
      // The same conversation over ACP v2 (session/resume from the start, v2's shapes), its agents set to v2.
      r10kV2: runs.map((i) => make('replay-10k-v2', 'replay-10k', i, `Long session over ACP v2 ${i} (10,000 updates)`, 10_000, true)),
      r100k: make('replay-100k', 'replay-100k', 1, 'Long session (100,000 updates)', 100_000),
    },
  };
}

/**
 * The past sessions in the extension's index, as an earlier window left them: the Sessions view
 * lists them at start-up, and their agents are started only when one is clicked.
 * @param {string} userDataDir
 * @param {string} cwd
 * @param {Replay[]} replays
 */
function seedIndex(userDataDir, cwd, replays) {
  const dir = path.join(userDataDir, 'User', 'globalStorage', 'acp-agents.acp-agents');
  fs.mkdirSync(dir, { recursive: true });
  const now = Date.now();
  const entries = replays.map((r, i) => ({ agentId: r.agentId, sessionId: 'long-1', title: r.title, cwd, createdAt: now - 3_600_000, updatedAt: now - 60_000 * (i + 1), source: 'local' }));
  fs.writeFileSync(path.join(dir, 'sessions.json'), JSON.stringify(entries));
}

/**
 * @param {number} pid
 * @param {number | undefined} ancestor
 */
function isDescendant(pid, ancestor) {
  for (let p = pid, i = 0; p > 1 && i < 20; i++) {
    if (p === ancestor) return true;
    try {
      p = Number(fs.readFileSync(`/proc/${p}/stat`, 'utf8').replace(/^.*\) /, '').split(' ')[1]);
    } catch {
      return false;
    }
  }
  return false;
}

/**
 * The extension host of the code-server started by the bench.
 * @param {number | undefined} serverPid
 * @returns {number | undefined}
 */
function findExtensionHost(serverPid) {
  const hosts = fs
    .readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        return fs.readFileSync(`/proc/${d}/cmdline`, 'utf8').includes('--type=extensionHost');
      } catch {
        return false;
      }
    });
  return hosts.map(Number).find((p) => isDescendant(p, serverPid));
}

/**
 * `BENCH_PROFILE_HOST=DIR`: a CPU profile of the extension host over the 10k replay (from the click
 * to the last message visible), written to DIR as a .cpuprofile (open it in Chrome DevTools or VS
 * Code). The extension host's inspector is opened the way Node allows for a running process
 * (SIGUSR1, port 9229): code-server takes no `--inspect-extensions`.
 * @typedef {{ start(): Promise<void>, stop(name: string): Promise<string> }} HostProfiler
 * @param {number | undefined} serverPid
 * @param {string} dir
 * @returns {Promise<HostProfiler>}
 */
async function hostProfiler(serverPid, dir) {
  const pid = findExtensionHost(serverPid);
  if (!pid) {
    const mine = fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d) && isDescendant(Number(d), serverPid)).map((d) => { try { return `${d}: ${fs.readFileSync(`/proc/${d}/cmdline`, 'utf8').replaceAll('\0', ' ').slice(0, 200)}`; } catch { return d; } });
    throw new Error(`no extension host process found among ${serverPid}'s: ${mine.join('\n')}`);
  }
  process.kill(pid, 'SIGUSR1');
  const deadline = Date.now() + 30_000;
  /** @type {string | undefined} */
  let url;
  while (!url) {
    url = await fetch('http://127.0.0.1:9229/json/list').then((r) => r.json()).then((l) => l[0]?.webSocketDebuggerUrl, () => undefined);
    if (!url && Date.now() > deadline) throw new Error('the extension host inspector did not answer');
    if (!url) await new Promise((r) => setTimeout(r, 200));
  }
  // Node 22 and later have WebSocket; Node 20 with --experimental-websocket.
  if (typeof WebSocket === 'undefined') throw new Error('BENCH_PROFILE_HOST needs a WebSocket: Node 22, or NODE_OPTIONS=--experimental-websocket');
  const socket = new WebSocket(url);
  await new Promise((resolve, reject) => {
    socket.addEventListener('open', resolve, { once: true });
    socket.addEventListener('error', reject, { once: true });
  });
  let id = 0;
  /** @type {Map<number, (r: any) => void>} */
  const waiting = new Map();
  socket.addEventListener('message', (e) => {
    const m = JSON.parse(String(e.data));
    if (m.id !== undefined) waiting.get(m.id)?.(m.result);
  });
  const send = (/** @type {string} */ method, params = {}) =>
    new Promise((resolve) => {
      waiting.set(++id, resolve);
      socket.send(JSON.stringify({ id, method, params }));
    });
  await send('Profiler.enable');
  await send('Profiler.setSamplingInterval', { interval: 200 });
  fs.mkdirSync(dir, { recursive: true });
  return {
    start: async () => void (await send('Profiler.start')),
    stop: async (name) => {
      const r = /** @type {{ profile: unknown }} */ (await send('Profiler.stop'));
      const file = path.join(dir, `host-${name}-${Date.now()}.cpuprofile`);
      fs.writeFileSync(file, JSON.stringify(r.profile));
      return file;
    },
  };
}

async function main() {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-bench-'));
  const workspace = prepareWorkspace(tmp);
  const nodeBin = ensureNode();
  const { replays, agents: replayAgents } = replaySessions(tmp, nodeBin);
  const stream = testAgents(nodeBin, tmp).filter((a) => a.id === 'fake-stream-20k');
  // The same stream over ACP v2: acknowledged prompt, v2 chunks, ended by the idle state (its own record).
  const streamV2 = stream.map((a) => ({ ...a, id: 'fake-stream-20k-v2', name: 'ACP v2 stream: 20k', protocolVersion: '2', env: { ...a.env, ACP_FAKE_RECORD: path.join(tmp, 'stream-20k-v2.jsonl') } }));
  const agents = [...stream, ...streamV2, ...replayAgents];
  const profileDir = process.env.BENCH_PROFILE_HOST;
  const server = await startCodeServer({
    installVsix: [vsixPath()],
    userSettings: { 'acpAgents.agents': agents },
    beforeStart: ({ userDataDir }) => seedIndex(userDataDir, workspace, [...replays.small, ...replays.r10k, ...replays.r10kV2, replays.r100k]),
  });
  const browser = await launchBrowser(['--enable-precise-memory-info', '--js-flags=--expose-gc']);
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(workbenchUrl(server, workspace));
    await waitForWorkbench(page);

    // ---------------------------------------------------------------- warm-up
    // The first webview of a window waits for VS Code's webview service worker
    // (seconds on this machine); measure it once, then measure ours warm.
    await runCommand(page, 'ACP: New Session');
    await pick(page, 'Fake: stream-20k');
    const tw = Date.now();
    const wframe = await chatFrame(page, 60_000);
    await wframe.locator('.status-text', { hasText: 'Connected to' }).waitFor({ timeout: 30_000 });
    const firstWebviewMs = Date.now() - tw;
    const longTasks = await longTasksSeen(wframe);
    await runCommand(page, 'View: Close All Editors');

    console.log(`\n(The window's first webview, cold, took ${fmt(firstWebviewMs)} ms to open and connect: VS Code's webview start-up.)`);
    console.log(longTasks ? "(The Long Tasks API reports in the webview: an 80 ms task of the bench's own was seen.)" : '(The Long Tasks API reports nothing in the webview here: the "longest task" figures below mean nothing.)');
    // ---------------------------------------------------------------- replay: today's size, and ten times it
    // (After the warm-up: the extension host is running.)
    const profiler = profileDir ? await hostProfiler(server.pid, path.resolve(profileDir)) : undefined;
    const serverPid = server.pid;
    const med = (/** @type {number[]} */ xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)] ?? NaN;
    const spread = (/** @type {number[]} */ xs) => `median ${fmt(med(xs)).padStart(6)} ms  (min ${fmt(Math.min(...xs))}, max ${fmt(Math.max(...xs))}; runs ${xs.map((x) => fmt(x)).join(', ')})`;
    console.log(`\nA past session of 10 updates clicked in the Sessions view, ${REPLAY_RUNS} times (each its own agent, not running): what opening any past session costs`);
    const small = [];
    for (const r of replays.small) small.push(await measureReplay(page, r, { serverPid, detail: false }));
    const big = [await measureReplay(page, replays.r10k[0], { serverPid, profiler, detail: true })];
    if (replays.r10k.length > 1) console.log(`\nThe 10,000-update session again (another agent each time, not running)`);
    for (const r of replays.r10k.slice(1)) big.push(await measureReplay(page, r, { serverPid, detail: false }));
    console.log(`\nClick → visible, ${REPLAY_RUNS} runs each (load average ${os.loadavg().map((l) => l.toFixed(2)).join(', ')})`);
    console.log(`  10 updates:      ${spread(small.map((x) => x.visibleMs))}`);
    console.log(`  10,000 updates:  ${spread(big.map((x) => x.visibleMs))}   (budget ${fmt(BUDGETS['replay-10k.visibleMs'].budget)})`);
    console.log(`    its pipe drain ${spread(big.map((x) => x.drainMs))}   (budget ${fmt(BUDGETS['replay-10k.pipeDrainMs'].budget)})`);
    console.log(`    the webview document started at ${spread(big.map((x) => x.scriptAt))}`);
    figure('replay-small.visibleMs', med(small.map((x) => x.visibleMs)));
    figure('replay-10k.visibleMs', med(big.map((x) => x.visibleMs)));
    figure('replay-10k.pipeDrainMs', med(big.map((x) => x.drainMs)));
    figure('replay-10k.heapMB', (big[0]?.heap ?? NaN) / 1e6);
    // ACP v2: the same 10,000 updates replayed by session/resume, clicked as often; interleaving is not needed for
    // a ratio of medians taken minutes apart on an otherwise idle machine, but the load average is printed.
    console.log(`\nThe 10,000-update session over ACP v2 (session/resume from the start, v2 shapes), ${REPLAY_RUNS} times`);
    const bigV2 = [];
    for (const r of replays.r10kV2) bigV2.push(await measureReplay(page, r, { serverPid, detail: false }));
    console.log(`  10,000 updates over v2: ${spread(bigV2.map((x) => x.visibleMs))}; v2 ÷ v1 ${(med(bigV2.map((x) => x.visibleMs)) / med(big.map((x) => x.visibleMs))).toFixed(2)}× (load average ${os.loadavg().map((l) => l.toFixed(2)).join(', ')})`);
    figure('replay-10k.visibleMs.v2', med(bigV2.map((x) => x.visibleMs)));
    figure('replay-10k.visibleV2OverV1', med(bigV2.map((x) => x.visibleMs)) / med(big.map((x) => x.visibleMs)));
    if (!process.argv.includes('--quick')) {
      const r = await measureReplay(page, replays.r100k, { serverPid, detail: true });
      figure('replay-100k.visibleMs', r.visibleMs);
      figure('replay-100k.heapMB', r.heap / 1e6);
    }

    // ---------------------------------------------------------------- streaming
    // A few runs, each in a new session of the same agent: one run on 2 busy cores says little.
    const runs = Number(process.env.BENCH_STREAM_RUNS || 5);
    let emptyHeap = 0;
    /**
     * The stream, `runs` times, from the agent named `label`, recorded in `<recordName>.jsonl`.
     * @param {string} label @param {string} recordName
     */
    const measureStreams = async (label, recordName) => {
      /** @type {{ total: number, inPipe: number, queued: number, gotPrompt: number, queuedAt: number, pipeAt: number, toWebview: number, inWebview: number, longest: number, inputDelay: number, lag: number, typed: number }[]} */
      const out = [];
      for (let run = 0; run < runs; run++) {
        await runCommand(page, 'View: Close All Editors');
        await runCommand(page, 'ACP: New Session');
        await pick(page, label);
        const sframe = await chatFrame(page);
        await sframe.locator('.status-text', { hasText: 'Connected to' }).waitFor({ timeout: 30_000 });
        if (run === 0 && !emptyHeap) emptyHeap = await retainedHeap(sframe);
        await instrument(sframe, 'STREAM-END-MARKER');
        await sframe.locator('#input').fill('stream please');
        const tSend = Date.now();
        await sframe.locator('#input').press('Enter');
        // Keep typing while the answer streams in.
        await sframe.locator('#input').click();
        const typing = (async () => {
          for (let i = 0; i < 30; i++) {
            await page.keyboard.type('x');
            await page.waitForTimeout(30);
          }
        })();
        const stream = await waitDone(sframe);
        await typing;
        const rec = record(tmp, recordName).filter((r) => r.t >= tSend);
        const mark = rec.find((r) => r.dir === 'mark' && r.name === 'lastChunk');
        const prompted = rec.find((r) => r.dir === 'in' && r.msg?.method === 'session/prompt');
        if (!mark || !prompted) throw new Error('the agent did not record the prompt and the last chunk');
        const queued = mark.queued ?? mark.t;
        out.push({
          total: stream.doneAt - tSend,
          inPipe: stream.doneAt - mark.t,
          queued: stream.doneAt - queued,
          gotPrompt: prompted.t - tSend,
          queuedAt: queued - tSend,
          pipeAt: mark.t - tSend,
          toWebview: stream.rxAt - mark.t,
          inWebview: stream.doneAt - stream.rxAt,
          longest: stream.longest,
          inputDelay: stream.maxInputDelay,
          lag: stream.maxLag,
          typed: (await sframe.locator('#input').inputValue()).length,
        });
      }
      return out;
    };
    const streams = await measureStreams('Fake: stream-20k', 'stream-20k');
    const row = (/** @type {string} */ name, /** @type {(s: typeof streams[number]) => number} */ f, /** @type {string} */ note, d = 0) => {
      const xs = streams.map(f);
      console.log(`  ${name.padEnd(56)} ${fmt(med(xs), d).padStart(7)} ms  worst ${fmt(Math.max(...xs), d).padStart(6)}   ${note}`);
      console.log(`      runs: ${xs.map((x) => fmt(x, d)).join(', ')}`);
    };
    if (runs > 0) {
      console.log(`\nStreaming: 20,000 agent_message_chunk updates written as fast as the agent can (${runs} runs, median)`);
      row('Enter → the whole answer painted', (x) => x.total, '(target ≤ 3,000)');
      console.log(`      the agent got the prompt after ${streams.map((x) => fmt(x.gotPrompt)).join(', ')} ms; queued its last chunk at ${streams.map((x) => fmt(x.queuedAt)).join(', ')} ms; that chunk was in the pipe at ${streams.map((x) => fmt(x.pipeAt)).join(', ')} ms`);
      row('last chunk queued by the agent → painted', (x) => x.queued, '(target ≤ 100; 0.1.0: about 206)');
      row('last chunk written (in the pipe) → painted', (x) => x.inPipe, '');
      row('  of which: in the pipe → its message in the webview', (x) => x.toWebview, '(the extension host, then VS Code to the webview)');
      row('  of which: its message in the webview → painted', (x) => x.inWebview, '');
      row('longest task in the webview (over 50 ms count; 0: none)', (x) => x.longest, '(target ≤ 50)');
      row('worst delay of a keystroke while streaming', (x) => x.inputDelay, '(target ≤ 50)', 1);
      row('worst timer lag while streaming', (x) => x.lag, '', 1);
      console.log(`  characters typed during the stream that arrived            ${streams.map((x) => `${x.typed}/30`).join(', ')}`);
      console.log(`  (JS heap of a freshly opened, empty panel: ${fmt(emptyHeap / 1e6, 1)} MB)`);
      figure('stream-20k.enterToPaintedMs', med(streams.map((x) => x.total)));
      figure('stream-20k.pipeToPaintMs', med(streams.map((x) => x.queued)));
      figure('stream-20k.longestTaskMs', med(streams.map((x) => x.longest)));
      figure('stream-20k.keystrokeDelayMs', med(streams.map((x) => x.inputDelay)));
      // The same over ACP v2.
      const v2 = await measureStreams('ACP v2 stream: 20k', 'stream-20k-v2');
      const ratio = med(v2.map((x) => x.total)) / med(streams.map((x) => x.total));
      console.log(`  over ACP v2: Enter → the whole answer painted ${fmt(med(v2.map((x) => x.total))).padStart(7)} ms (runs ${v2.map((x) => fmt(x.total)).join(', ')}); v2 ÷ v1 ${ratio.toFixed(2)}×`);
      figure('stream-20k.enterToPaintedMs.v2', med(v2.map((x) => x.total)));
      figure('stream-20k.enterToPaintedV2OverV1', ratio);
    }

    // ---------------------------------------------------------------- activation and sizes
    /** @type {string[]} */
    const logs = [];
    const walk = (/** @type {string} */ d) => {
      for (const e of fs.readdirSync(d, { withFileTypes: true })) {
        const p = path.join(d, e.name);
        if (e.isDirectory()) walk(p);
        else if (e.name.includes('ACP Agents')) logs.push(p);
      }
    };
    walk(path.join(server.userDataDir, 'logs'));
    const act = logs.map((f) => /activated in .* \(([\d.]+) ms\)/.exec(fs.readFileSync(f, 'utf8'))).find(Boolean);
    console.log('\nExtension');
    console.log(`  activation (activate() start to end)                      ${act ? fmt(Number(act[1]), 1).padStart(7) : '      ?'} ms`);
    for (const f of ['dist/extension.js', 'dist/webview.js', 'dist/codicon.ttf', 'dist/codicon.css', 'media/chat.css']) {
      console.log(`  ${f.padEnd(56)} ${fmt(fs.statSync(path.join(ROOT, f)).size / 1024, 1).padStart(7)} KB`);
    }
    console.log(`  ${path.basename(vsixPath()).padEnd(56)} ${fmt(fs.statSync(vsixPath()).size / 1024, 1).padStart(7)} KB`);
    if (act) figure('activationMs', Number(act[1]));
  } finally {
    await browser.close().catch(() => {});
    await server.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
