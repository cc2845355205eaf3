// The worker's entry: Node 20 does not pass tsx's loader on to worker threads, so the worker registers it before loading the TypeScript.
import { register } from 'tsx/esm/api';

register();
await import('./worker.ts');
