/**
 * The session's own header: commands, modes, config options, title, usage and
 * models. Owns its state; nothing else of the transcript reads or writes it.
 */
import type * as acp from '@agentclientprotocol/sdk';
import type { DecodedUpdate } from '../../acp/decode';
import type { ConfigOptionView, HeaderState } from '../../shared/transcriptTypes';

export type HeaderUpdate = Extract<DecodedUpdate, { sessionUpdate: 'available_commands_update' | 'current_mode_update' | 'config_option_update' | 'session_info_update' | 'usage_update' }>;

function flattenOptions(o: acp.SessionConfigOption): ConfigOptionView['options'] {
  if (o.type !== 'select') return [];
  const out: { value: string; name: string; group?: string }[] = [];
  for (const x of o.options as (acp.SessionConfigSelectOption | acp.SessionConfigSelectGroup)[]) {
    if ('group' in x) for (const y of x.options) out.push({ value: y.value, name: y.name, group: x.name });
    else out.push({ value: x.value, name: x.name });
  }
  return out;
}

function configOptionViews(options: readonly acp.SessionConfigOption[]): ConfigOptionView[] {
  return options.map((o) => ({
    id: o.id,
    name: o.name,
    category: o.category ?? null,
    type: o.type === 'boolean' ? 'boolean' : 'select',
    currentValue: o.currentValue as string | boolean,
    options: flattenOptions(o),
  }));
}

export class TranscriptHeader {
  /** One object for the session's life: its fields are replaced, never it. */
  readonly state: HeaderState = { configOptions: [], commands: [] };

  /** Applies a header update; false when it changed nothing (a session_info_update without a title). */
  apply(update: HeaderUpdate): boolean {
    const h = this.state;
    switch (update.sessionUpdate) {
      case 'available_commands_update':
        h.commands = update.availableCommands.map((c) => ({ name: c.name, description: c.description, ...(c.input && 'hint' in c.input ? { hint: c.input.hint } : {}) }));
        break;
      case 'current_mode_update':
        if (h.modes) h.modes = { ...h.modes, currentModeId: update.currentModeId };
        else h.modes = { currentModeId: update.currentModeId, availableModes: [] };
        // Agents with config options report modes there too.
        h.configOptions = h.configOptions.map((o) => (o.category === 'mode' && o.type === 'select' ? { ...o, currentValue: update.currentModeId } : o));
        break;
      case 'config_option_update':
        h.configOptions = configOptionViews(update.configOptions);
        break;
      case 'session_info_update': {
        const u = update as { title?: string | null };
        if (u.title === undefined) return false;
        h.title = u.title ?? undefined;
        break;
      }
      case 'usage_update':
        h.usage = { used: update.used, size: update.size, cost: update.cost ?? null };
        break;
    }
    return true;
  }

  setModels(models: NonNullable<HeaderState['models']>): void {
    this.state.models = { currentModelId: models.currentModelId, availableModels: models.availableModels.map((m) => ({ ...m })) };
  }

  setModes(modes: HeaderState['modes'] | undefined, configOptions: readonly acp.SessionConfigOption[] | undefined): void {
    if (modes) this.state.modes = modes;
    if (configOptions) this.state.configOptions = configOptionViews(configOptions);
  }
}
