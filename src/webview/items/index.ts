/** The view of every kind of transcript item: a kind without one (or with the wrong one) does not build. */
import { agentMessageView } from './agentMessage';
import { compactionView } from './compaction';
import { elicitationView } from './elicitation';
import { errorView } from './error';
import { noticeView } from './notice';
import { permissionView } from './permission';
import { planView } from './plan';
import { sessionMessageView } from './sessionMessage';
import { subagentView } from './subagent';
import { toolView } from './tool';
import { turnEndView } from './turnEnd';
import type { ItemViews } from './types';
import { userMessageView } from './userMessage';

export const ITEM_VIEWS: ItemViews = {
  user: userMessageView,
  agent: agentMessageView,
  thought: agentMessageView,
  tool: toolView,
  plan: planView,
  notice: noticeView,
  'turn-end': turnEndView,
  error: errorView,
  compaction: compactionView,
  permission: permissionView,
  subagent: subagentView,
  'session-message': sessionMessageView,
  elicitation: elicitationView,
};
