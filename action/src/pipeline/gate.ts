/**
 * Phase 3 of a run: decide. The one call of the gate for every face, and the
 * one place a refused testbed mismatch becomes unusable input (exit 2).
 */
import type { Budgets } from '../model/index.js';
import { decide, DEFAULT_GATE_OPTIONS, TestbedMismatchError, withConfirmations, type GateOptions, type GateReport } from '../gate/index.js';
import { InputError, type ResultSet } from '../model/index.js';

export { DEFAULT_GATE_OPTIONS, type GateOptions, type GateReport } from '../gate/index.js';

/** The options `compare` and the action gate with: a 95 % interval, seed 1, and the given testbed policy. */
export function gateOptions(testbedMismatch: GateOptions['testbedMismatch']): GateOptions {
  return { comparison: { confidence: 0.95, seed: 1 }, testbedMismatch };
}

export interface GateRequest {
  baseline: ResultSet | undefined;
  current: ResultSet;
  budgets: Budgets;
  options?: GateOptions;
  /** A/B confirmation rounds: facts the gate could not know, added before anything is written. */
  confirmations?: ReadonlyMap<string, 'confirmed' | 'not-confirmed'>;
  /** The flag or input that named the baseline, blamed when a testbed mismatch is refused. */
  baselineInput: string;
}

/** The gate's report for the run; a refused testbed mismatch is an InputError naming the baseline's input. */
export function gate(request: GateRequest): GateReport {
  try {
    const report = decide(request.baseline, request.current, request.budgets, request.options ?? DEFAULT_GATE_OPTIONS);
    return request.confirmations ? withConfirmations(report, request.confirmations) : report;
  } catch (error) {
    if (error instanceof TestbedMismatchError) throw new InputError(request.baselineInput, error.message);
    throw error;
  }
}
