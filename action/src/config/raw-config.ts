/**
 * perf-gate.yml as YAML holds it once the JSON Schema
 * (schemas/perf-gate-config.schema.json) accepted it: the keys as written,
 * before defaults and paths are applied.
 */
import type { Direction } from '../model/index.js';
import type { ProfilerChoice } from './config-types.js';

export interface RawAb {
  rounds?: number;
  'max-rounds'?: number;
  step?: number;
  confirm?: boolean;
  'confirm-rounds'?: number;
  pin?: string;
  seed?: number;
}

export interface RawSuite {
  name: string;
  build?: string;
  run?: string;
  commands?: Record<string, string>;
  measure?: 'time' | 'counts' | ('time' | 'counts')[];
  runs?: number;
  warmup?: number;
  counter?: 'cachegrind' | 'perf';
  'count-repeat'?: number;
  format?: string | { name: string; [key: string]: unknown };
  timeout?: string;
  env?: Record<string, string | number | boolean>;
  workdir?: string;
  repeat?: number;
  params?: Record<string, (string | number | boolean)[]>;
  ab?: RawAb;
  confirm?: 'interleaved' | 'off';
  profile?: ProfilerChoice;
  'profile-command'?: string;
  filter?: string;
}

export interface RawDerived {
  expr: string;
  unit?: string;
  direction?: Direction;
  benchmarks?: string;
}

export interface RawHistory {
  folder?: string;
  branch?: string;
  remote?: string;
  'drift-runs'?: number;
}

export interface RawConfig {
  version: 1;
  budgets?: string;
  baselines?: string;
  history?: string | RawHistory;
  suites: RawSuite[];
  derived?: Record<string, string | RawDerived>;
  ab?: RawAb;
  confirm?: 'interleaved' | 'off';
  'confirm-time-cap'?: string;
  'profile-time-cap'?: string;
  toolchain?: string[];
}
