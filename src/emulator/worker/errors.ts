/** Errors across the thread boundary: a port conflict keeps its class and details, others their text. */
import { PortInUseError } from '../portHolder';
import type { SerializedError } from './protocol';

export function serializeError(error: unknown): SerializedError {
	if (error instanceof PortInUseError) {
		return {
			name: error.name,
			message: error.message,
			portInUse: { host: error.host, port: error.port, holder: error.holder, suggestedPort: error.suggestedPort },
		};
	}
	if (error instanceof Error) return { name: error.name, message: error.message, stack: error.stack };
	return { name: 'Error', message: String(error) };
}

/** The error thrown in the worker, rebuilt on this side (a PortInUseError keeps its class). */
export function deserializeError(error: SerializedError): Error {
	if (error.portInUse) {
		const { host, port, holder, suggestedPort } = error.portInUse;
		return new PortInUseError(host, port, holder, suggestedPort);
	}
	const rebuilt = new Error(error.message);
	rebuilt.name = error.name;
	if (error.stack) rebuilt.stack = error.stack;
	return rebuilt;
}
