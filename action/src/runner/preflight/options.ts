/** Thresholds and expectations of the preflight checks, with documented defaults. */
export interface PreflightOptions {
  /** The 1-minute load average per online CPU above which `load` warns. Default 0.5. */
  maxLoadPerCpu: number;
  /** The ASLR setting the project expects: "on", "off", or "any" (only report it). Default "any". */
  aslr: 'on' | 'off' | 'any';
  /** The noise probe's coefficient of variation above which the machine is too noisy to gate on. Default 0.05. */
  maxProbeCv: number;
}

export const DEFAULT_PREFLIGHT_OPTIONS: PreflightOptions = { maxLoadPerCpu: 0.5, aslr: 'any', maxProbeCv: 0.05 };
