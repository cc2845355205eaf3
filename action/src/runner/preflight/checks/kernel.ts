import { bootParams } from '../boot-params.js';
import { unknownFinding, type Finding } from '../finding.js';
import type { SystemFiles } from '../system-files.js';

const OSRELEASE = '/proc/sys/kernel/osrelease';

/** The kernel release, e.g. "6.8.0-45-generic", or null. */
export function readKernel(files: SystemFiles): string | null {
  return files.read(OSRELEASE) ?? null;
}

/**
 * The kernel release and its `mitigations=` boot parameter: speculative-
 * execution mitigations change the cost of every system call, so results from
 * different kernels or mitigation settings are not comparable.
 */
export function checkKernel(files: SystemFiles): Finding {
  const kernel = readKernel(files);
  if (kernel === null) return unknownFinding('kernel', 'Kernel release', [OSRELEASE]);
  const mitigations = bootParams(files)?.get('mitigations') ?? null;
  return {
    check: 'kernel',
    status: 'info',
    message: `Kernel ${kernel}${mitigations !== null ? `, mitigations=${mitigations}` : ''}`,
    observed: { kernel, mitigations },
  };
}
