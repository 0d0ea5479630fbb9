/**
 * Active scenarios and the decision, per request, of what a scenario does to it. The engine is pure
 * bookkeeping (counters, seeded draws, throttling windows); the pipeline applies what it decides
 * (pipeline/injection.ts), and the delivery scheduler and web pages ask it about standing states.
 */
import type { BindingName } from '../../protocol/bindings/types';
import type { AnyParams, Endpoint, OperationName } from '../../protocol/catalogue';
import type { Fault } from '../../protocol/faults';
import { WRITING_OPERATIONS } from '../domain/handlers';
import { mulberry32 } from '../domain/seed';
import type { Latency, Scenario, ScenarioEffect, ScenarioRule } from './format';

/** A request as far as scenarios look at it (decoded, before it is handled). */
export interface ScenarioRequest {
	operation: OperationName;
	binding: BindingName;
	endpoint: Endpoint;
	params: AnyParams;
}

/** How the answer fails, as the pipeline applies it. */
export type Failure =
	| { kind: 'fault'; fault: Fault }
	| { kind: 'unavailable'; retryAfterSeconds?: number }
	| { kind: 'reset' | 'empty' | 'truncated' }
	| { kind: 'garbage'; bytes: Uint8Array };

/** What the engine decided for one request. */
export interface Injection {
	/** `<scenario>/<rule>`: the X-Sandbox-Injected header and the access log's mark. */
	mark: string;
	/** Delay before the answer, or between its chunks. */
	delayMs?: number;
	chunks?: number;
	failure?: Failure;
	/** The request runs and commits first; then `failure` replaces its answer. */
	afterCommit: boolean;
	/** Changes the handler's result before it is encoded (domain states seen through reads). */
	rewrite?: (result: unknown) => unknown;
	/** A standing state the handler itself answered from (quota): what the mark says of it. */
	state?: string;
}

/** What the VS Code view, the CLI and the control endpoint show of an active scenario. */
export interface ActiveScenarioInfo {
	name: string;
	title: string;
	source: string;
	activatedAt: string;
	rules: { name: string; effect: string; injected: number }[];
}

/** Standing states asked for outside requests. */
export type DeliveryOverride = { outcome: 'rejected' | 'noAnswer'; message: string; mark: string };

interface RuleState {
	rule: ScenarioRule;
	matched: number;
	injected: number;
	/** Throttling: start of the current interval and requests let through in it. */
	intervalStart: number;
	intervalCount: number;
}

interface Active {
	scenario: Scenario;
	activatedAt: number;
	random: () => number;
	rules: RuleState[];
}

export interface ScenarioEngineOptions {
	/** The time (ms) of the emulator's wall clock; default Date.now. */
	now?: () => number;
	/** Called when a scenario with an application burst is turned on. */
	onBurst?: (count: number, advertId: number | undefined, mark: string) => void;
	/** Called whenever the set of active scenarios changes. */
	onChange?: (active: ActiveScenarioInfo[]) => void;
}

/** A board's rejection in the words the demo boards use (DELIVERY_ERRORS). */
const DEFAULT_REJECTION = 'Rejected: location could not be mapped to a board region.';

export class ScenarioEngine {
	private readonly active = new Map<string, Active>();
	private readonly now: () => number;

	constructor(private readonly options: ScenarioEngineOptions = {}) {
		this.now = options.now ?? Date.now;
	}

	/** Whether any scenario is on (the answer cache stands aside then). */
	get isActive(): boolean {
		return this.active.size > 0;
	}

	/** Turns a scenario on (again: its counters start over). */
	activate(scenario: Scenario): void {
		this.active.delete(scenario.name);
		this.active.set(scenario.name, {
			scenario,
			activatedAt: this.now(),
			random: mulberry32(scenario.seed),
			rules: scenario.rules.map((rule) => ({
				rule,
				matched: 0,
				injected: 0,
				intervalStart: -Infinity,
				intervalCount: 0,
			})),
		});
		for (const rule of scenario.rules) {
			if (rule.effect?.kind === 'applicationBurst') {
				this.options.onBurst?.(rule.effect.count, rule.effect.advertId, `${scenario.name}/${rule.name}`);
			}
		}
		this.changed();
	}

	/** Turns one scenario off, or all of them without a name. Returns whether anything was on. */
	deactivate(name?: string): boolean {
		const had = name === undefined ? this.active.size > 0 : this.active.has(name);
		if (name === undefined) this.active.clear();
		else this.active.delete(name);
		if (had) this.changed();
		return had;
	}

	list(): ActiveScenarioInfo[] {
		return [...this.active.values()].map(({ scenario, activatedAt, rules }) => ({
			name: scenario.name,
			title: scenario.title,
			source: scenario.source,
			activatedAt: new Date(activatedAt).toISOString(),
			rules: rules.map(({ rule, injected }) => ({ name: rule.name, effect: describeRule(rule), injected })),
		}));
	}

	/** What happens to this request: the first rule that applies, in order of activation and of the file. */
	decide(request: ScenarioRequest): Injection | undefined {
		if (this.active.size === 0) return undefined;
		const now = this.now();
		for (const active of this.active.values()) {
			for (const state of active.rules) {
				const injection = this.apply(active, state, request, now);
				if (injection) {
					state.injected++;
					return injection;
				}
			}
		}
		return undefined;
	}

	/** A job board's answer overridden by a scenario (rejected, or never answering). */
	deliveryOverride(feedId: number): DeliveryOverride | undefined {
		const found = this.standing((effect) => effect.kind === 'deliveries' && effect.feedId === feedId);
		if (!found || found.effect.kind !== 'deliveries') return undefined;
		return { outcome: found.effect.outcome, message: found.effect.message ?? DEFAULT_REJECTION, mark: found.mark };
	}

	/** Feeds whose boards never answer now (their postings stay Pending). */
	silentFeedIds(): number[] {
		const ids: number[] = [];
		for (const { rule } of this.standingRules()) {
			if (rule.effect?.kind === 'deliveries' && rule.effect.outcome === 'noAnswer') ids.push(rule.effect.feedId);
		}
		return ids;
	}

	/** A feed's quota as a scenario holds it now (exhausted or nearly), if one does. */
	quotaState(feedId: number): 'exhausted' | 'nearlyExhausted' | undefined {
		const found = this.standing((effect) => effect.kind === 'quota' && effect.feedId === feedId);
		return found?.effect.kind === 'quota' ? found.effect.state : undefined;
	}

	/** The scenario/rule that makes login links expired, if one is on. */
	loginLinkExpired(): string | undefined {
		return this.standing((effect) => effect.kind === 'loginLinkExpired')?.mark;
	}

	private changed(): void {
		this.options.onChange?.(this.list());
	}

	private *standingRules(): Generator<{ rule: ScenarioRule; mark: string }> {
		const now = this.now();
		for (const active of this.active.values()) {
			for (const { rule } of active.rules) {
				if (inWindow(rule, now - active.activatedAt)) {
					yield { rule, mark: `${active.scenario.name}/${rule.name}` };
				}
			}
		}
	}

	private standing(test: (effect: ScenarioEffect) => boolean): { effect: ScenarioEffect; mark: string } | undefined {
		for (const { rule, mark } of this.standingRules()) {
			if (rule.effect && test(rule.effect)) return { effect: rule.effect, mark };
		}
		return undefined;
	}

	private apply(active: Active, state: RuleState, request: ScenarioRequest, now: number): Injection | undefined {
		const { rule } = state;
		const effect = rule.effect;
		if (effect && STANDING_ONLY.has(effect.kind) && !rule.latency) return undefined;
		if (!matchesRequest(rule, request) || !inWindow(rule, now - active.activatedAt)) return undefined;
		// A truncated answer needs the real one: a write runs only when the rule says so.
		if (effect?.kind === 'truncated' && WRITING_OPERATIONS[request.operation] && !rule.afterCommit) {
			return undefined;
		}
		const domain = effect ? domainFailure(effect, request) : undefined;
		if (effect && DOMAIN_KINDS.has(effect.kind) && !domain) return undefined;
		state.matched++;
		const calls = rule.match.calls;
		if (calls) {
			const n = state.matched;
			if ((calls.from !== undefined && n < calls.from) || (calls.to !== undefined && n > calls.to)) {
				return undefined;
			}
			if (calls.every !== undefined && (n - (calls.from ?? 1)) % calls.every !== 0) return undefined;
		}
		if (rule.match.share !== undefined && !(active.random() < rule.match.share)) return undefined;
		const mark = `${active.scenario.name}/${rule.name}`;
		const injection: Injection = { mark, afterCommit: rule.afterCommit };
		if (rule.latency) {
			injection.delayMs = drawDelay(rule.latency, active.random);
			if (rule.latency.where === 'chunks') injection.chunks = rule.latency.chunks;
		}
		if (effect?.kind === 'throttle') {
			if (now - state.intervalStart >= effect.intervalMs) {
				state.intervalStart = now;
				state.intervalCount = 0;
			}
			state.intervalCount++;
			if (state.intervalCount <= effect.limit) return rule.latency ? injection : undefined;
			const left = Math.ceil((state.intervalStart + effect.intervalMs - now) / 1000);
			injection.failure = {
				kind: 'unavailable',
				retryAfterSeconds: effect.retryAfterSeconds ?? Math.max(1, left),
			};
			return injection;
		}
		if (domain) Object.assign(injection, domain);
		else if (effect) injection.failure = failureOf(effect, active.random);
		return injection;
	}
}

/** Effects that only change standing states (deliveries, login links, bursts); they never answer a request. */
const STANDING_ONLY = new Set(['deliveries', 'applicationBurst', 'loginLinkExpired']);
/** Effects that answer only the requests their domain state concerns. */
const DOMAIN_KINDS = new Set(['quota', 'advertWithdrawn']);

function matchesRequest(rule: ScenarioRule, request: ScenarioRequest): boolean {
	const { operations, bindings, endpoints, params } = rule.match;
	if (operations && !operations.includes(request.operation)) return false;
	if (bindings && !bindings.includes(request.binding)) return false;
	if (endpoints && !endpoints.includes(request.endpoint)) return false;
	if (params) {
		for (const [name, wanted] of Object.entries(params)) {
			const have = paramTexts(request.params[name]);
			const options = Array.isArray(wanted) ? wanted : [wanted];
			if (!have.some((value) => options.includes(value))) return false;
		}
	}
	return true;
}

function inWindow(rule: ScenarioRule, sinceActivation: number): boolean {
	const window = rule.match.window;
	if (!window) return true;
	return sinceActivation >= (window.fromMs ?? 0) && (window.toMs === undefined || sinceActivation < window.toMs);
}

/** A parameter's value as the texts a rule compares with (a CSV or a list gives each item). */
function paramTexts(value: AnyParams[string]): string[] {
	if (value === undefined) return [];
	if (Array.isArray(value)) return value.map(String);
	const text = String(value);
	return text.includes(',') ? [text, ...text.split(',').map((item) => item.trim())] : [text];
}

function drawDelay(latency: Latency, random: () => number): number {
	if (latency.ms !== undefined) return latency.ms;
	const min = latency.minMs ?? 0;
	return Math.round(min + random() * ((latency.maxMs ?? min) - min));
}

function failureOf(effect: ScenarioEffect, random: () => number): Failure | undefined {
	switch (effect.kind) {
		case 'fault':
			return {
				kind: 'fault',
				fault: { code: effect.code, subcode: effect.subcode, message: effect.message, detail: effect.detail },
			};
		case 'unavailable':
			return { kind: 'unavailable', retryAfterSeconds: effect.retryAfterSeconds };
		case 'reset':
		case 'empty':
		case 'truncated':
			return { kind: effect.kind };
		case 'garbage':
			return { kind: 'garbage', bytes: garbageBytes(random) };
		default:
			return undefined;
	}
}

/** Bytes no XML parser accepts: binary noise that starts with what no XML document starts with. */
function garbageBytes(random: () => number): Uint8Array {
	const bytes = new Uint8Array(256);
	for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(random() * 256);
	bytes[0] = 0x00;
	bytes[1] = 0xff;
	return bytes;
}

/** Operations that name an application's advert: their handlers say "not an advert of your organisation". */
const APPLICATION_OPERATIONS = new Set<OperationName>([
	'ApplicationScore',
	'AddAdvertCandidateNote',
	'ApplicationProgress',
	'GetApplicationsPaged',
]);

/** What a domain state does to this request, in the words the handlers use for the real state. */
function domainFailure(effect: ScenarioEffect, request: ScenarioRequest): Partial<Injection> | undefined {
	if (effect.kind === 'advertWithdrawn') {
		if (!paramTexts(request.params.sAdvertID).includes(String(effect.advertId))) return undefined;
		const message = APPLICATION_OPERATIONS.has(request.operation)
			? `sAdvertID ${effect.advertId} is not an advert of your organisation.`
			: request.operation === 'ExpressPostAdvert'
				? 'No advert matches the given sAdvertID, sAdvertIdentifier or sAdvertReference within sSearchDays and your scope.'
				: `sAdvertID ${effect.advertId} is not an advert within your scope.`;
		return { failure: { kind: 'fault', fault: { code: 'Client', subcode: 'NotFound', message } } };
	}
	if (effect.kind !== 'quota') return undefined;
	// The handlers and the completion page read the state itself (quotaState): the answer is the service's
	// own, marked as shaped by the scenario where the state concerns it.
	const concerns =
		request.operation === 'UserFeedsAndQuotaWithDestinations'
			? paramTexts(request.params.Destinations)
			: request.operation === 'ExpressPostAdvert'
				? paramTexts(request.params.DestinationsAsCSV)
				: undefined;
	if (concerns === undefined || (concerns.length > 0 && !concerns.includes(String(effect.feedId)))) return undefined;
	return {
		state: `quota ${effect.state === 'exhausted' ? 'exhausted' : 'nearly exhausted'} on feed ${effect.feedId}`,
	};
}

function describeRule(rule: ScenarioRule): string {
	const parts: string[] = [];
	if (rule.latency) {
		const delay =
			rule.latency.ms !== undefined ? `${rule.latency.ms} ms` : `${rule.latency.minMs}–${rule.latency.maxMs} ms`;
		parts.push(
			rule.latency.where === 'chunks' ? `${delay} between ${rule.latency.chunks} chunks` : `${delay} delay`,
		);
	}
	if (rule.effect) parts.push(rule.effect.kind);
	if (rule.afterCommit) parts.push('after commit');
	return parts.join(', ');
}
