// The interop row of Cline's CLI in ACP mode (`cline --acp`, npm `cline`; CURRENT_AGENT_PACKAGES in
// test/harness/realAgents.mjs; settings in currentAgentsPiCline.mjs), offline through the installed .vsix
// in the real workbench against the loopback Chat Completions stub, as an `openai-compatible` provider
// (what `cline auth` writes) with CLINE_API_KEY and CLINE_PROVIDER set, without which its ACP mode asks for
// one of its online sign-ins. The cells are interopChatStubRow.mjs's: Cline asks before each tool (allow
// once, in the panel), writes the files itself through apply_patch and sends no diff; it keeps the
// client's MCP servers and never starts them.
import { clineWithModelStub } from '../harness/currentAgentsPiCline.mjs';
import { chatStubRow } from './interopChatStubRow.mjs';

chatStubRow({
  pkgKey: 'cline',
  key: 'cline',
  label: 'Cline (model stub)',
  agent: clineWithModelStub,
  // Cline offers the model `apply_patch` (the freeform patch grammar) for GPT-style models: one patch, both files.
  writes: (newFile, existing, content, from, to) => [
    {
      call: {
        name: 'apply_patch',
        arguments: { input: `*** Begin Patch\n*** Add File: ${newFile}\n${content.replace(/^/gm, '+').replace(/\+$/, '')}*** Update File: ${existing}\n@@\n-${from}\n+${to}\n kept line\n*** End Patch` },
      },
    },
  ],
  asks: true,
  diffs: false,
  turnNote: 'no diff in the tool call (Cline sends none); the Changes list has both files',
  mcpReason: /never started: Cline in ACP mode keeps the MCP servers it is given but never starts them/,
  mcpLimitation: "Cline's ACP mode keeps the client's MCP servers and never starts them; the panel says so",
});
