/** Turns failures and exchanges into text a recruiter or an integrator can act on. */
import type { Exchange } from '../../client';
import { MultipostingError, SoapFaultError, bodyExcerpt } from '../../client';
import { PortInUseError } from '../../emulator/portHolder';
import { sentence } from '../vocabulary';

/** A one-sentence, plain-language account of a failure. */
export function describeFailure(action: string, error: unknown): string {
	if (error instanceof SoapFaultError) {
		return `${action} failed: the service refused the request (${error.fault.message.trim().replace(/\.+$/, '')}).`;
	}
	if (error instanceof MultipostingError) {
		switch (error.code) {
			case 'MP_ERR_NETWORK':
				return `${action} failed: the service could not be reached. Check the connection's address and your network.`;
			case 'MP_ERR_TIMEOUT':
				return `${action} failed: the service did not answer in time. Try again, or raise multiposting.requestTimeoutMs.`;
			case 'MP_ERR_ABORTED':
				return `${action} was cancelled.`;
			case 'MP_ERR_VALIDATION':
			case 'MP_ERR_INVALID_ARGUMENT':
				return sentence(`${action} failed: ${error.message}`);
			case 'MP_ERR_HTTP_STATUS':
			case 'MP_ERR_UNEXPECTED_RESPONSE':
				return `${action} failed: the service gave an unexpected answer. ${error.message}`;
			default:
				return sentence(`${action} failed: ${error.message}`);
		}
	}
	return sentence(`${action} failed: ${error instanceof Error ? error.message : String(error)}`);
}

/** True when the user cancelled. */
export function isCancellation(error: unknown): boolean {
	return error instanceof MultipostingError && error.code === 'MP_ERR_ABORTED';
}

/** True for failures with a notification of their own: a taken sandbox port (see sandbox/portConflict.ts). */
export function isReportedElsewhere(error: unknown): boolean {
	return error instanceof PortInUseError;
}

const BODY_LIMIT = 4096;

function bodyText(part: { body: Uint8Array } | undefined): string {
	// Only the part shown is decoded (and redacted, when the client left that to the first read):
	// a page can be megabytes, and this runs for every call.
	const { text, moreBytes } = part ? bodyExcerpt(part, BODY_LIMIT) : { text: '', moreBytes: 0 };
	if (moreBytes === 0) return text === '' ? '(empty)' : text;
	return `${text}… (${moreBytes} more bytes)`;
}

/** The one-line summary of an exchange (the exchange is already redacted by the client). */
export function exchangeSummary(exchange: Exchange): string {
	const status = exchange.response ? `HTTP ${exchange.response.status}` : 'no response';
	const outcome = exchange.error ? ` — ${exchange.error}` : '';
	return `${exchange.operation} via ${exchange.binding}: ${status} in ${Math.round(exchange.timings.totalMs)} ms${outcome}`;
}

/** The trace-level detail of an exchange: request and response bodies, each cut to a few KB. */
export function exchangeDetail(exchange: Exchange): string {
	return [
		`${exchange.request.method} ${exchange.request.url}`,
		bodyText(exchange.request),
		`Response: ${exchange.response ? exchange.response.status : 'none'}`,
		bodyText(exchange.response),
	].join('\n');
}
