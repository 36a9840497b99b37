import type { SandboxRequest, SandboxResponse } from '../../router.js';
import type { SandboxState } from '../../state.js';

/** LinkedIn's error answer: `{status, serviceErrorCode, code, message}`. */
export const error = (status: number, message: string, code = 'BAD_REQUEST'): SandboxResponse => ({ status, body: { status, serviceErrorCode: 100, code, message } });

/** The checks every `/rest` call gets: a version header, and Rest.li 2.0 on writes. */
export function versioned(handler: (req: SandboxRequest, state: SandboxState) => SandboxResponse | Promise<SandboxResponse>) {
  return (req: SandboxRequest, state: SandboxState): SandboxResponse | Promise<SandboxResponse> => {
    if (!/^\d{6}$/.test(String(req.headers['linkedin-version'] ?? ''))) {
      return error(400, 'A version must be present. Please specify a version by adding the LinkedIn-Version header.', 'VERSION_MISSING');
    }
    if (req.method !== 'GET' && req.headers['x-restli-protocol-version'] !== '2.0.0') return error(400, 'X-Restli-Protocol-Version 2.0.0 is required');
    return handler(req, state);
  };
}
