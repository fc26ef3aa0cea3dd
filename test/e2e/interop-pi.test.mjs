// The interop row of pi: `pi-acp` running `pi --mode rpc` of `@earendil-works/pi-coding-agent`
// (CURRENT_AGENT_PACKAGES in test/harness/realAgents.mjs; settings in currentAgentsPiCline.mjs), offline
// through the installed .vsix in the real workbench against the loopback Chat Completions stub, pi's
// models.json pointing at it. The cells are interopChatStubRow.mjs's: pi runs its tools without asking
// (by design: "it does not ask for approval before every tool call", its docs/security.md) and writes the
// files itself, its diffs as text; pi-acp does not hand the client's MCP servers to pi (its README).
import { piWithModelStub } from '../harness/currentAgentsPiCline.mjs';
import { chatStubRow } from './interopChatStubRow.mjs';

chatStubRow({
  pkgKey: 'pi',
  key: 'pi',
  label: 'pi (model stub)',
  agent: piWithModelStub,
  // pi's own tools, as a model calls them: write (creates folders), edit (exact replacements).
  writes: (newFile, existing, content, from, to) => [
    { call: { name: 'write', arguments: { path: newFile, content } } },
    { call: { name: 'edit', arguments: { path: existing, edits: [{ oldText: from, newText: to }] } } },
  ],
  asks: false,
  // pi-acp 0.0.34 sends no ACP diff: an edit's diff comes as plain text ("-1 original line …"), a write as "Successfully wrote …".
  diffs: false,
  turnNote: 'pi asks no permission before its tools (by design) and sends its diffs as text; the Changes list has both files',
  mcpReason: /never started: pi-acp does not pass the MCP servers it is given on to pi/,
  mcpLimitation: "pi-acp does not pass the client's MCP servers on to pi (its README); the panel says so",
});
