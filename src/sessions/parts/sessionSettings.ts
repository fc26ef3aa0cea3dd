/**
 * The session's settings the agent offers: modes (`session/set_mode`), config
 * options (`session/set_config_option`) and the legacy model picker
 * (`session/set_model`). Shown in the panel's header; a change the agent
 * refuses is said, and the header shows the value it still has. No `vscode` import.
 */
import type * as acp from '@agentclientprotocol/sdk';
import * as l10n from '@vscode/l10n';
import { decodeModels, decodeModes, decodeSessionUpdate } from '../../acp/decode';
import { errorText } from '../../acp/errors';
import type { AgentRuntime } from '../../agents/agentRuntime';
import type { SessionCore, SessionPart } from '../sessionCore';

export class SessionSettings implements SessionPart {
  constructor(private readonly core: SessionCore) {}

  /** What the agent said when the session opened (or after a change): its models, modes and config options. */
  opened(r: { modes?: unknown; configOptions?: unknown; models?: unknown } | null | undefined): void {
    const { core } = this;
    const models = decodeModels(r?.models, [], 'models');
    if (models) core.emit(core.transcript().setModels(models));
    const modes = decodeModes(r?.modes, [], 'modes');
    const config = Array.isArray(r?.configOptions) ? (decodeSessionUpdate({ sessionUpdate: 'config_option_update', configOptions: r.configOptions }, []) as { configOptions?: acp.SessionConfigOption[] }).configOptions : undefined;
    if (modes || config) core.emit(core.transcript().setModes(modes ? { currentModeId: modes.currentModeId, availableModes: modes.availableModes.map((m) => ({ id: m.id, name: m.name, description: m.description ?? null })) } : undefined, config));
  }

  async setConfigOption(configId: string, value: string | boolean): Promise<void> {
    await this.change((e) => l10n.t('Changing "{0}" failed: {1}', configId, e), async (rt, sessionId) => {
      const r = await rt.connection.setConfigOption(typeof value === 'boolean' ? ({ sessionId, configId, type: 'boolean', value } as acp.SetSessionConfigOptionRequest) : { sessionId, configId, value });
      this.opened({ configOptions: (r as { configOptions?: unknown })?.configOptions });
    });
  }

  async setMode(modeId: string): Promise<void> {
    await this.change((e) => l10n.t('Changing the mode failed: {0}', e), async (rt, sessionId) => {
      await rt.connection.setMode(sessionId, modeId);
      this.core.emit(this.core.transcript().apply({ sessionUpdate: 'current_mode_update', currentModeId: modeId }));
    });
  }

  /** The legacy model picker (no model config option): `session/set_model`. */
  async setModel(modelId: string): Promise<void> {
    await this.change((e) => l10n.t('Changing the model failed: {0}', e), async (rt, sessionId) => {
      await rt.connection.setModel(sessionId, modelId);
      const m = this.core.transcript().header.models;
      if (m) this.core.emit(this.core.transcript().setModels({ ...m, currentModelId: modelId }));
    });
  }

  /** One change on the attached session; when it fails, the error is shown and the header again shows what the agent has. */
  private async change(failed: (error: string) => string, fn: (rt: AgentRuntime, sessionId: string) => Promise<void>): Promise<void> {
    const { core } = this;
    const rt = core.runtime();
    const sessionId = core.sessionId();
    if (!rt || !sessionId) return;
    try {
      await fn(rt, sessionId);
    } catch (err) {
      core.emit(core.transcript().addError(failed(errorText(err))));
      // Show the value the agent still has.
      core.emit([{ c: 'header' }]);
    }
  }

  dispose(): void {}
}
