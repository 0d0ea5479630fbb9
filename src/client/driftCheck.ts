/**
 * The drift check: every recorded read is sent again to a sandbox (never a write to anything live:
 * writes go to the sandbox only when asked) and the sandbox's answer is compared with the recorded one
 * in shape (protocol/drift.ts). The request is the recorded one, byte for byte, with the sandbox's own
 * credentials where the recording has placeholders and, when the two differ, the sandbox's namespace
 * and endpoint paths where the recording has the live service's.
 */
import type { Dispatcher } from 'undici';
import type { BindingName } from '../protocol/bindings/types';
import type { Endpoint, OperationName } from '../protocol/catalogue';
import { escapeXml } from '../protocol/codecs/xml';
import { driftOf, type AnswerText, type Drift } from '../protocol/drift';
import type { RecordedExchange, Recording } from '../protocol/recordings/format';
import { dataChangingCall } from '../protocol/requestFiles/changesData';
import { createPlaceholderRedactor } from '../protocol/requestFiles/placeholderRedactor';
import { substitutePlaceholders, type ConnectionValues } from '../protocol/requestFiles/placeholders';
import { sendPrepared } from './sendPrepared';

/** The sandbox the recorded requests are sent to. */
export interface DriftTarget {
	baseUrl: string;
	namespace: string;
	paths: Readonly<Record<Endpoint, string>>;
}

export interface DriftOptions {
	/** Also send the requests that change data (to the sandbox only). */
	writes?: boolean;
	timeoutMs?: number;
	signal?: AbortSignal;
	dispatcher?: Dispatcher;
	/** Called after each exchange (progress). */
	onExchange?: (item: DriftItem, index: number, total: number) => void;
}

/** One recorded exchange, checked. */
export interface DriftItem {
	id: number;
	operation?: OperationName;
	binding?: BindingName;
	/** same: the shapes agree; drift: they do not; notSent: a write, not sent without `writes`; error: no answer. */
	outcome: 'same' | 'drift' | 'notSent' | 'error';
	drift: Drift[];
	/** Why it was not sent or has no answer. */
	reason?: string;
	recorded: AnswerText;
	/** The sandbox's answer, redacted. */
	sandbox?: AnswerText;
	/** The request as sent to the sandbox, redacted (method and URL). */
	sent?: string;
}

export interface DriftReport {
	/** Where the answers were recorded (the live service), and the sandbox they were compared with. */
	recordedAt?: string;
	target: string;
	items: DriftItem[];
	counts: { compared: number; drifted: number; notSent: number; errors: number };
}

const SKIPPED_HEADERS = new Set(['host', 'content-length', 'connection', 'keep-alive', 'transfer-encoding', 'expect']);

/** The recorded path at the target: the recording's endpoint path replaced by the target's. */
function targetPath(path: string, recording: Recording, target: DriftTarget): string {
	for (const endpoint of ['posting', 'administration'] as const) {
		const base = recording.paths[endpoint];
		if (path.toLowerCase().startsWith(base.toLowerCase())) return target.paths[endpoint] + path.slice(base.length);
	}
	return path;
}

/** The recorded request as sent to the target. */
function preparedRequest(
	exchange: RecordedExchange,
	recording: Recording,
	target: DriftTarget,
	connection: ConnectionValues,
) {
	const { request } = exchange;
	const moveNamespace = (text: string): string =>
		recording.namespace === target.namespace ? text : text.split(recording.namespace).join(target.namespace);
	const form = (request.headers['content-type'] ?? '').toLowerCase().startsWith('application/x-www-form-urlencoded');
	const body = substitutePlaceholders(moveNamespace(request.body), connection, form ? encodeURIComponent : escapeXml);
	const query = substitutePlaceholders(request.query, connection, encodeURIComponent);
	const headers: [string, string][] = Object.entries(request.headers)
		.filter(([name]) => !SKIPPED_HEADERS.has(name))
		.map(([name, value]) => [name, moveNamespace(value)]);
	const path = targetPath(request.path, recording, target);
	return {
		method: request.method,
		url: `${target.baseUrl.replace(/\/+$/, '')}${path}${query ? `?${query}` : ''}`,
		headers,
		body: new TextEncoder().encode(body),
	};
}

/** Sends each recorded read to the target and compares the answers' shapes. */
export async function checkDrift(
	recording: Recording,
	target: DriftTarget,
	connection: ConnectionValues,
	options: DriftOptions = {},
): Promise<DriftReport> {
	const redact = createPlaceholderRedactor(connection, { echoed: true }).text;
	const items: DriftItem[] = [];
	const total = recording.exchanges.length;
	for (const [index, exchange] of recording.exchanges.entries()) {
		if (options.signal?.aborted) break;
		const recorded: AnswerText = {
			status: exchange.response.status,
			headers: exchange.response.headers,
			body: exchange.response.body,
		};
		const item: DriftItem = {
			id: exchange.id,
			operation: exchange.operation,
			binding: exchange.binding,
			outcome: 'same',
			drift: [],
			recorded,
		};
		const write = dataChangingCall(exchange.operation, [
			exchange.request.path,
			exchange.request.query,
			exchange.request.body,
		]);
		if (write && !options.writes) {
			item.outcome = 'notSent';
			item.reason = `${write} changes data: not sent (ask for writes to send it to the sandbox)`;
		} else {
			// Sent with other credentials when recorded so: wrong ones, as then.
			const credentials = exchange.otherCredentials
				? { ...connection, apiKey: 'not-the-connection-api-key', password: 'not-the-connection-password' }
				: connection;
			const prepared = preparedRequest(exchange, recording, target, credentials);
			item.sent = redact(`${prepared.method} ${prepared.url}`);
			const captured = await sendPrepared(prepared, {
				timeoutMs: options.timeoutMs ?? 30_000,
				signal: options.signal,
				dispatcher: options.dispatcher,
			});
			if (!captured.response || captured.error) {
				item.outcome = 'error';
				item.reason = redact(captured.error ?? 'no answer');
			} else {
				const headers: Record<string, string> = {};
				for (const [name, value] of captured.response.headers) headers[name.toLowerCase()] = redact(value);
				item.sandbox = {
					status: captured.response.status,
					headers,
					body: redact(new TextDecoder().decode(captured.response.body)),
				};
				const context = (namespace: string, paths: Readonly<Record<Endpoint, string>>) => ({
					operation: exchange.operation,
					binding: exchange.binding,
					codec: {
						namespace,
						endpointPath: exchange.endpoint ? paths[exchange.endpoint] : paths.posting,
					},
				});
				item.drift = driftOf(
					recorded,
					context(recording.namespace, recording.paths),
					item.sandbox,
					context(target.namespace, target.paths),
				);
				item.outcome = item.drift.length > 0 ? 'drift' : 'same';
			}
		}
		items.push(item);
		options.onExchange?.(item, index, total);
	}
	const count = (outcome: DriftItem['outcome']) => items.filter((item) => item.outcome === outcome).length;
	return {
		recordedAt: recording.upstream,
		target: target.baseUrl,
		items,
		counts: {
			compared: count('same') + count('drift'),
			drifted: count('drift'),
			notSent: count('notSent'),
			errors: count('error'),
		},
	};
}
