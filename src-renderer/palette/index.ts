export { CommandPalette } from './CommandPalette';
export { baseCommands, detectRecordId, filterCommands, fuzzyScore, isTypingTarget, insideMonaco, shortcuts } from './commands';
export type { ActionId, PaletteCommand } from './commands';
