#!/usr/bin/env node
// The `sitegate` command: runs the TypeScript entry through tsx so that no build step is needed.
import { register } from 'tsx/esm/api';
register();
await import('../src/main.ts');
