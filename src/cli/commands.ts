// Further `sitegate` commands; each area adds its own (idp, pair, tools, call, admin…).
import type { Command } from 'commander';

export type AddCommand = (program: Command) => void;

export const COMMANDS: AddCommand[] = [];
