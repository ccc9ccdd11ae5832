export { ChatScreen } from './ChatScreen';
export { useChat, handleChatEvent, chatEvents, applyAgentEvent, startTurn, emptyChat } from './store';
export type { ChatTurn, ChatState, ToolCallView } from './store';
