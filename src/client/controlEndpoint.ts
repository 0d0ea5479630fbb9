/**
 * Calls of a sandbox's control endpoint (`/__admin/*`) for the request-file runner's `scenario:` and
 * `replay:` lines, over the one transport, and the sandbox's refusals turned into what to do.
 */
import type { Dispatcher } from 'undici';
import { sendPrepared } from './sendPrepared';

const TIMEOUT_MS = 10_000;

export interface ControlAnswer {
	status: number;
	/** The sandbox's `{ "error": … }`, when it said one. */
	error?: string;
}

/** One call; rejects only when the sandbox could not be reached. */
export async function controlCall(
	method: string,
	target: string,
	body: string,
	options: { signal?: AbortSignal; dispatcher?: Dispatcher },
): Promise<ControlAnswer> {
	const captured = await sendPrepared(
		{
			method,
			url: target,
			headers: body ? [['content-type', 'application/json']] : [],
			body: new TextEncoder().encode(body),
		},
		{ timeoutMs: TIMEOUT_MS, signal: options.signal, dispatcher: options.dispatcher, maxBodyBytes: 1024 * 1024 },
	);
	if (!captured.response) {
		throw new Error(`could not reach the sandbox's control endpoint ${target}: ${captured.error ?? 'no answer'}`);
	}
	const text = new TextDecoder().decode(captured.response.body);
	let error: string | undefined;
	try {
		error = (JSON.parse(text) as { error?: string }).error;
	} catch {
		// Not the sandbox: said by status.
	}
	return { status: captured.response.status, error };
}

/** A refusal as an error that says what to do; `what` names the feature ("scenarios", "replay"). */
export function controlRefusal(status: number, error: string | undefined, target: string, what: string): Error {
	if (status === 403) {
		return new Error(
			`${target} refused the call (403): the control endpoint answers this machine only (loopback).`,
		);
	}
	if (status === 404 && error === undefined) {
		return new Error(
			`${target} answered 404: ${what} need the Multiposting sandbox (its control endpoint), not a real service.`,
		);
	}
	return new Error(error ?? `${target} answered HTTP ${status}.`);
}
