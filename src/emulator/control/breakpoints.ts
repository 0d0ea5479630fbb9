/**
 * Breakpoints' control routes: set and clear them, list and long-poll the held requests, decide one
 * (send on, edited or not; answer with a fault; release). See docs/live-service.md.
 */
import type { FaultCode } from '../../protocol/faults';
import type { Breakpoints, HoldDecision } from '../breakpoints/breakpoints';
import { MAX_WAIT_SECONDS } from './requests';
import { ControlError, type ControlRouter } from './router';

function objectOf(body: string, hint: string): Record<string, unknown> {
	try {
		const data: unknown = JSON.parse(body);
		if (typeof data === 'object' && data !== null && !Array.isArray(data)) return data as Record<string, unknown>;
	} catch {
		// Said below.
	}
	throw new ControlError(400, `The body must be a JSON object: ${hint}.`);
}

const FAULT_CODES: readonly FaultCode[] = ['Client', 'Server'];

/** The decision a POST body says. */
export function decisionOfBody(body: string): HoldDecision {
	const data = objectOf(body, '{"action": "send" | "fault" | "release", …}');
	if (data.action === 'release') return { action: 'release' };
	if (data.action === 'send') {
		const decision: HoldDecision = { action: 'send' };
		for (const field of ['query', 'body'] as const) {
			if (data[field] === undefined) continue;
			if (typeof data[field] !== 'string') throw new ControlError(400, `${field} must be text.`);
			decision[field] = data[field] as string;
		}
		return decision;
	}
	if (data.action === 'fault') {
		const fault = data.fault as Record<string, unknown> | undefined;
		if (typeof fault !== 'object' || fault === null) {
			throw new ControlError(400, 'fault must be {"code": "Client" | "Server", "subcode"?, "message"}.');
		}
		if (!FAULT_CODES.includes(fault.code as FaultCode)) {
			throw new ControlError(400, 'fault.code must be Client or Server.');
		}
		if (typeof fault.message !== 'string' || fault.message === '') {
			throw new ControlError(400, 'fault.message must be text.');
		}
		if (fault.subcode !== undefined && (typeof fault.subcode !== 'string' || !/^\w{1,64}$/.test(fault.subcode))) {
			throw new ControlError(400, 'fault.subcode must be a word (letters, digits, _).');
		}
		return {
			action: 'fault',
			fault: {
				code: fault.code as FaultCode,
				message: fault.message,
				...(fault.subcode ? { subcode: fault.subcode as string } : {}),
			},
		};
	}
	throw new ControlError(400, 'action must be send, fault or release.');
}

/** Registers `/__admin/breakpoints` and `/__admin/held`. */
export function registerBreakpointRoutes(router: ControlRouter, breakpoints: Breakpoints): void {
	const state = () => ({ breakpoints: breakpoints.list(), held: breakpoints.held(), version: breakpoints.version });
	router
		.add('GET', '/__admin/breakpoints', () => ({ body: state() }))
		.add('POST', '/__admin/breakpoints', ({ body }) => {
			const data = objectOf(body, '{"operation": "AddAdvert"} or {"filter": "op:GetCurrency client:127.0.0.1"}');
			const text = (name: string): string | undefined => {
				if (data[name] === undefined) return undefined;
				if (typeof data[name] !== 'string') throw new ControlError(400, `${name} must be text.`);
				return data[name] as string;
			};
			if (data.holdMs !== undefined && !Number.isInteger(data.holdMs)) {
				throw new ControlError(400, 'holdMs must be a whole number of milliseconds.');
			}
			try {
				const breakpoint = breakpoints.add({
					operation: text('operation'),
					filter: text('filter'),
					holdMs: data.holdMs as number | undefined,
				});
				return { status: 201, body: { breakpoint, ...state() } };
			} catch (error) {
				throw new ControlError(400, error instanceof Error ? error.message : String(error));
			}
		})
		.add('DELETE', '/__admin/breakpoints', () => {
			breakpoints.clear();
			return { body: state() };
		})
		.add('DELETE', '/__admin/breakpoints/:id', ({ params }) => {
			if (!breakpoints.remove(Number(params.id))) throw new ControlError(404, `No breakpoint ${params.id}.`);
			return { body: state() };
		})
		.add('GET', '/__admin/held', async ({ query, signal }) => {
			const after = query.get('after');
			const wait = Number(query.get('wait') ?? 0);
			if (after !== null && Number.isInteger(Number(after)) && wait > 0) {
				await breakpoints.waitForChange(Number(after), Math.min(wait, MAX_WAIT_SECONDS) * 1000, signal);
			}
			return { body: { held: breakpoints.held(), version: breakpoints.version } };
		})
		.add('GET', '/__admin/held/:id', ({ params }) => {
			const held = breakpoints.get(Number(params.id));
			if (!held) {
				throw new ControlError(404, `Request ${params.id} is not held (decided, or released by its timeout).`);
			}
			return { body: held };
		})
		.add(
			'POST',
			'/__admin/held/:id',
			({ params, body }) => {
				if (!breakpoints.decide(Number(params.id), decisionOfBody(body))) {
					throw new ControlError(
						404,
						`Request ${params.id} is not held any more (decided, or released unchanged by its timeout).`,
					);
				}
				return { body: { decided: Number(params.id), ...state() } };
			},
			{ maxBodyBytes: 8 * 1024 * 1024 },
		);
}
