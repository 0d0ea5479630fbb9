/**
 * The fault model shared by the four bindings. The spec shows no fault structure; faults follow the
 * ASP.NET ASMX service behind the production deployment (known facts "Behaviour"): SOAP 1.1
 * faultcode/faultstring/detail, SOAP 1.2 Code/Subcode/Reason/Detail, and for HTTP GET and POST a
 * short text/plain message.
 */

/** Who is at fault: the caller (soap:Client / env:Sender) or the service (soap:Server / env:Receiver). */
export type FaultCode = 'Client' | 'Server' | 'VersionMismatch' | 'MustUnderstand';

export interface Fault {
	code: FaultCode;
	/** A more precise, machine-readable reason (SOAP 1.2 Subcode, SOAP 1.1 detail), e.g. 'InvalidParameter'. */
	subcode?: string;
	/** Human-readable reason (faultstring / Reason / text body). */
	message: string;
	/** Extra text for the detail element. Never a stack trace. */
	detail?: string;
}

/** Stable sub-codes used by the emulator and understood by the client. */
export const FAULT_SUBCODES = [
	'InvalidParameter',
	'MissingParameter',
	'MissingFilter',
	'AuthenticationFailed',
	'AccessDenied',
	'NotFound',
	'Duplicate',
	/** A posting would spend more than the feed's quota. */
	'QuotaExceeded',
	'UnknownOperation',
	'MalformedRequest',
	'RequestTooLarge',
	'Timeout',
	'InternalError',
] as const;
export type FaultSubcode = (typeof FAULT_SUBCODES)[number];

/** An error carrying a fault; thrown by emulator handlers and by decoders of fault responses. */
export class FaultError extends Error {
	override readonly name = 'FaultError';
	constructor(readonly fault: Fault) {
		super(fault.message);
	}

	/** A fault of the caller (bad parameters, credentials, filters). */
	static client(subcode: FaultSubcode, message: string, detail?: string): FaultError {
		return new FaultError({ code: 'Client', subcode, message, detail });
	}

	/** A fault of the service itself. */
	static server(message: string, subcode: FaultSubcode = 'InternalError'): FaultError {
		return new FaultError({ code: 'Server', subcode, message });
	}
}
