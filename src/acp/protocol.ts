/**
 * One typed `RequestType`/`NotificationType` per ACP v1 method. Shapes come from
 * the schema types of @agentclientprotocol/sdk, imported as types only (no
 * runtime dependency on it). No `vscode` import.
 */
import { NotificationType, RequestType } from 'vscode-jsonrpc/node';
import type * as acp from '@agentclientprotocol/sdk';

export type * as schema from '@agentclientprotocol/sdk';

export const PROTOCOL_VERSION = 1;

// ---------------------------------------------------------------- client → agent
export namespace InitializeRequest {
  export const method = 'initialize';
  export const type = new RequestType<acp.InitializeRequest, acp.InitializeResponse, acp.Error>(method);
}
export namespace AuthenticateRequest {
  export const method = 'authenticate';
  export const type = new RequestType<acp.AuthenticateRequest, acp.AuthenticateResponse | null, acp.Error>(method);
}
export namespace LogoutRequest {
  export const method = 'logout';
  export const type = new RequestType<acp.LogoutRequest, acp.LogoutResponse | null, acp.Error>(method);
}
/** ACP v2's `authenticate` and `logout`: the same parameters under new names. */
export namespace LoginV2Request {
  export const method = 'auth/login';
  export const type = new RequestType<acp.AuthenticateRequest, acp.AuthenticateResponse | null, acp.Error>(method);
}
export namespace LogoutV2Request {
  export const method = 'auth/logout';
  export const type = new RequestType<acp.LogoutRequest, acp.LogoutResponse | null, acp.Error>(method);
}
export namespace NewSessionRequest {
  export const method = 'session/new';
  export const type = new RequestType<acp.NewSessionRequest, acp.NewSessionResponse, acp.Error>(method);
}
export namespace LoadSessionRequest {
  export const method = 'session/load';
  export const type = new RequestType<acp.LoadSessionRequest, acp.LoadSessionResponse | null, acp.Error>(method);
}
export namespace ResumeSessionRequest {
  export const method = 'session/resume';
  export const type = new RequestType<acp.ResumeSessionRequest, acp.ResumeSessionResponse | null, acp.Error>(method);
}
export namespace CloseSessionRequest {
  export const method = 'session/close';
  export const type = new RequestType<acp.CloseSessionRequest, acp.CloseSessionResponse | null, acp.Error>(method);
}
export namespace ListSessionsRequest {
  export const method = 'session/list';
  export const type = new RequestType<acp.ListSessionsRequest, acp.ListSessionsResponse, acp.Error>(method);
}
export namespace DeleteSessionRequest {
  export const method = 'session/delete';
  export const type = new RequestType<acp.DeleteSessionRequest, acp.DeleteSessionResponse | null, acp.Error>(method);
}
export namespace SetSessionModeRequest {
  export const method = 'session/set_mode';
  export const type = new RequestType<acp.SetSessionModeRequest, acp.SetSessionModeResponse | null, acp.Error>(method);
}
/** `session/fork` (UNSTABLE in v1, widely implemented): a new session with the history of another. */
export interface ForkSessionParams {
  readonly sessionId: string;
  readonly cwd: string;
  readonly mcpServers?: acp.McpServer[];
  readonly additionalDirectories?: string[];
  readonly systemPrompt?: unknown;
  /** An agent's own extension, e.g. claude-agent-acp's `claudeCode.rewindTo` (fork at a message). */
  readonly _meta?: Record<string, unknown>;
}
export namespace ForkSessionRequest {
  export const method = 'session/fork';
  export const type = new RequestType<ForkSessionParams, { sessionId: string; modes?: unknown; configOptions?: unknown }, acp.Error>(method);
}
/**
 * `_session/steering` (an extension request, served by claude-agent-acp and codex-acp when their `initialize`
 * result's top-level `_meta.steering.supported` is true): a message put into the running turn. Always sent
 * with the `promptRequired` opt-in, so that with no turn running nothing starts and the client prompts itself.
 */
export interface SteeringParams {
  readonly sessionId: string;
  readonly prompt: acp.ContentBlock[];
  readonly _meta: { readonly steering: { readonly idleBehavior: 'promptRequired' } };
}
export namespace SteeringRequest {
  export const method = '_session/steering';
  export const type = new RequestType<SteeringParams, unknown, acp.Error>(method);
}
/** Legacy (removed from the schema on 2026-06-01, still answered by many agents): the model of a session. */
export interface SetSessionModelParams {
  readonly sessionId: string;
  readonly modelId: string;
}
export namespace SetSessionModelRequest {
  export const method = 'session/set_model';
  export const type = new RequestType<SetSessionModelParams, unknown, acp.Error>(method);
}
export namespace SetSessionConfigOptionRequest {
  export const method = 'session/set_config_option';
  export const type = new RequestType<acp.SetSessionConfigOptionRequest, acp.SetSessionConfigOptionResponse, acp.Error>(method);
}
export namespace PromptRequest {
  export const method = 'session/prompt';
  export const type = new RequestType<acp.PromptRequest, acp.PromptResponse, acp.Error>(method);
}
export namespace CancelNotification {
  export const method = 'session/cancel';
  export const type = new NotificationType<acp.CancelNotification>(method);
}

// ---------------------------------------------------------------- either direction
export namespace CancelRequestNotification {
  export const method = '$/cancel_request';
  export const type = new NotificationType<acp.CancelRequestNotification>(method);
}

// ---------------------------------------------------------------- agent → client
export namespace SessionUpdateNotification {
  export const method = 'session/update';
  /** Params are decoded tolerantly (see decode.ts), so they arrive as `unknown`. */
  export const type = new NotificationType<unknown>(method);
}
export namespace RequestPermissionRequest {
  export const method = 'session/request_permission';
  export const type = new RequestType<unknown, acp.RequestPermissionResponse, acp.Error>(method);
}
export namespace ReadTextFileRequest {
  export const method = 'fs/read_text_file';
  export const type = new RequestType<unknown, acp.ReadTextFileResponse, acp.Error>(method);
}
export namespace WriteTextFileRequest {
  export const method = 'fs/write_text_file';
  export const type = new RequestType<unknown, acp.WriteTextFileResponse, acp.Error>(method);
}
export namespace CreateTerminalRequest {
  export const method = 'terminal/create';
  export const type = new RequestType<unknown, acp.CreateTerminalResponse, acp.Error>(method);
}
export namespace TerminalOutputRequest {
  export const method = 'terminal/output';
  export const type = new RequestType<unknown, acp.TerminalOutputResponse, acp.Error>(method);
}
export namespace WaitForTerminalExitRequest {
  export const method = 'terminal/wait_for_exit';
  export const type = new RequestType<unknown, acp.WaitForTerminalExitResponse, acp.Error>(method);
}
export namespace KillTerminalRequest {
  export const method = 'terminal/kill';
  export const type = new RequestType<unknown, acp.KillTerminalResponse, acp.Error>(method);
}
export namespace ReleaseTerminalRequest {
  export const method = 'terminal/release';
  export const type = new RequestType<unknown, acp.ReleaseTerminalResponse, acp.Error>(method);
}
export namespace CreateElicitationRequest {
  export const method = 'elicitation/create';
  export const type = new RequestType<unknown, acp.CreateElicitationResponse, acp.Error>(method);
}
export namespace CompleteElicitationNotification {
  export const method = 'elicitation/complete';
  export const type = new NotificationType<unknown>(method);
}
