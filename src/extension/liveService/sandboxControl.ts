/**
 * The extension's calls of a sandbox's control endpoint for the live-service features: the inspecting
 * proxy, recordings, replay and breakpoints (docs/live-service.md). Plain data over the one transport;
 * no `vscode`, so it is tested on plain Node. Credentials handed to the proxy travel over loopback
 * only and stay in the sandbox's memory.
 */
import { sendRequest } from '../../client/transport';
import type { HeldRequest, Breakpoint, BreakpointSpec, HoldDecision } from '../../emulator/breakpoints/breakpoints';
import type { ProxyInfo } from '../../emulator/proxy/proxy';
import type { ReplayInfo, ReplayMode } from '../../emulator/replay/replayer';

export type { HeldRequest, Breakpoint, BreakpointSpec, HoldDecision, ProxyInfo, ReplayInfo, ReplayMode };

/** What the proxy is started with (the control endpoint's `POST /__admin/proxy` body). */
export interface ProxyStart {
	upstream: string;
	port?: number;
	namespace?: string;
	postingPath?: string;
	/** PEM text of an extra CA certificate. */
	ca?: string;
	via?: string;
	timeoutMs?: number;
	credentials?: { apiKey?: string; password?: string };
}

/** A control call the sandbox refused, with its message (what to do). */
export class ControlCallError extends Error {
	override readonly name = 'ControlCallError';
	constructor(
		readonly status: number,
		message: string,
	) {
		super(message);
	}
}

const MAX_ANSWER_BYTES = 64 * 1024 * 1024;

export class SandboxControl {
	constructor(
		readonly baseUrl: string,
		private readonly timeoutMs = 30_000,
	) {}

	private async call<T>(
		method: string,
		path: string,
		body?: unknown,
		signal?: AbortSignal,
		waitSeconds = 0,
	): Promise<T> {
		const url = `${this.baseUrl.replace(/\/+$/, '')}${path}`;
		const text = body === undefined ? '' : JSON.stringify(body);
		const result = await sendRequest(
			{
				method,
				url,
				headers: { accept: 'application/json', ...(text ? { 'content-type': 'application/json' } : {}) },
				body: new TextEncoder().encode(text),
			},
			{ timeoutMs: this.timeoutMs + waitSeconds * 1000, maxBodyBytes: MAX_ANSWER_BYTES, signal },
		);
		if (!result.response) {
			throw new ControlCallError(
				0,
				`The sandbox at ${this.baseUrl} did not answer (${result.failure?.kind ?? 'no answer'}).`,
			);
		}
		const answer = Buffer.from(result.response.body).toString('utf8');
		let data: unknown;
		try {
			data = answer ? JSON.parse(answer) : {};
		} catch {
			throw new ControlCallError(
				result.response.status,
				`${url} did not answer JSON: is it a Multiposting sandbox?`,
			);
		}
		if (result.response.status >= 400) {
			const error = (data as { error?: string }).error;
			throw new ControlCallError(
				result.response.status,
				error ??
					`${url} answered HTTP ${result.response.status}${result.response.status === 404 ? ': is it a Multiposting sandbox of this version?' : ''}.`,
			);
		}
		return data as T;
	}

	async proxy(): Promise<ProxyInfo | undefined> {
		return (await this.call<{ proxy: ProxyInfo | null }>('GET', '/__admin/proxy')).proxy ?? undefined;
	}

	async startProxy(options: ProxyStart): Promise<ProxyInfo> {
		return (await this.call<{ proxy: ProxyInfo }>('POST', '/__admin/proxy', options)).proxy;
	}

	async stopProxy(): Promise<boolean> {
		return (await this.call<{ stopped: boolean }>('DELETE', '/__admin/proxy')).stopped;
	}

	/** A recording of these exchanges, as its file's text; refused (409) when one cannot be recorded. */
	async recording(ids: readonly number[]): Promise<{ text: string; exchanges: number; upstream: string | null }> {
		return this.call('POST', '/__admin/recordings', { ids });
	}

	async replay(): Promise<(ReplayInfo & { notes: string[] }) | undefined> {
		return (
			(await this.call<{ replay: (ReplayInfo & { notes: string[] }) | null }>('GET', '/__admin/replay')).replay ??
			undefined
		);
	}

	async startReplay(
		recordings: { name: string; text: string }[],
		mode: ReplayMode,
	): Promise<ReplayInfo & { notes: string[] }> {
		return (
			await this.call<{ replay: ReplayInfo & { notes: string[] } }>('POST', '/__admin/replay', {
				mode,
				recordings,
			})
		).replay;
	}

	async stopReplay(): Promise<boolean> {
		return (await this.call<{ stopped: boolean }>('DELETE', '/__admin/replay')).stopped;
	}

	async breakpoints(): Promise<{ breakpoints: Breakpoint[]; held: HeldRequest[]; version: number }> {
		return this.call('GET', '/__admin/breakpoints');
	}

	async addBreakpoint(spec: BreakpointSpec): Promise<Breakpoint> {
		return (await this.call<{ breakpoint: Breakpoint }>('POST', '/__admin/breakpoints', spec)).breakpoint;
	}

	async clearBreakpoints(): Promise<void> {
		await this.call('DELETE', '/__admin/breakpoints');
	}

	/** The held requests once they changed since `version` (or after `waitSeconds`). */
	async held(
		version: number,
		waitSeconds: number,
		signal?: AbortSignal,
	): Promise<{ held: HeldRequest[]; version: number }> {
		return this.call('GET', `/__admin/held?after=${version}&wait=${waitSeconds}`, undefined, signal, waitSeconds);
	}

	async decide(id: number, decision: HoldDecision): Promise<void> {
		await this.call('POST', `/__admin/held/${id}`, decision);
	}
}
