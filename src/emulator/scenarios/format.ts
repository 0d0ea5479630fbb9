/**
 * The scenario file format (docs/scenarios.md): a named set of rules, each saying which requests it
 * applies to and what happens to them. Parsing validates everything once, so the engine never meets a
 * bad value; every error names the file, the rule and the field.
 */
import { BINDING_NAMES, type BindingName } from '../../protocol/bindings/types';
import { OPERATIONS, type Endpoint, type OperationName } from '../../protocol/catalogue';

/** Which requests a rule applies to; every given condition must hold. */
export interface ScenarioMatch {
	operations?: OperationName[];
	bindings?: BindingName[];
	endpoints?: Endpoint[];
	/** Parameter values as text; a list value matches when any of its items does. */
	params?: Record<string, string | string[]>;
	/** Share of the (otherwise matching) requests, 0 to 1, drawn from the scenario's seeded generator. */
	share?: number;
	/** Counts the matching requests from 1: `{ from: 3, to: 3 }` is the third call only. */
	calls?: { from?: number; to?: number; every?: number };
	/** Time since the scenario was turned on, in ms: the rule applies from `fromMs` until `toMs`. */
	window?: { fromMs?: number; toMs?: number };
}

export interface Latency {
	/** A fixed delay, or a range drawn from the seeded generator. */
	ms?: number;
	minMs?: number;
	maxMs?: number;
	/** 'answer' (default): before the answer; 'chunks': the answer is sent in `chunks` pieces with the delay between them. */
	where?: 'answer' | 'chunks';
	chunks?: number;
}

export type ScenarioEffect =
	/** A fault in the binding's own format (SOAP 1.1, SOAP 1.2, or the text/plain of GET and POST). */
	| { kind: 'fault'; code: 'Client' | 'Server'; subcode?: string; message: string; detail?: string }
	/** 503 as IIS answers when the application pool is down; Retry-After when given. */
	| { kind: 'unavailable'; retryAfterSeconds?: number }
	/** Connection-level failures. */
	| { kind: 'reset' }
	| { kind: 'empty' }
	| { kind: 'truncated' }
	| { kind: 'garbage' }
	/** After `limit` matching requests within `intervalMs`, refuse with 503 as a busy service would. */
	| { kind: 'throttle'; limit: number; intervalMs: number; retryAfterSeconds?: number }
	/** Domain states. */
	| { kind: 'quota'; feedId: number; state: 'exhausted' | 'nearlyExhausted' }
	| { kind: 'deliveries'; feedId: number; outcome: 'rejected' | 'noAnswer'; message?: string }
	| { kind: 'applicationBurst'; count: number; advertId?: number }
	| { kind: 'advertWithdrawn'; advertId: number }
	| { kind: 'loginLinkExpired' };

export type EffectKind = ScenarioEffect['kind'];

export interface ScenarioRule {
	name: string;
	match: ScenarioMatch;
	latency?: Latency;
	effect?: ScenarioEffect;
	/** The request runs and commits; then the failure replaces its answer ("the write happened, the answer was lost"). */
	afterCommit: boolean;
}

export interface Scenario {
	name: string;
	title: string;
	description: string;
	/** What a correct client does about it. */
	expectation: string;
	/** Seed of the generator behind `share`, latency ranges and garbage bytes (default 1). */
	seed: number;
	rules: ScenarioRule[];
	/** Where it was read from: a library name or a file path. */
	source: string;
}

/** Effects that answer instead of the service, so the request has no effect unless afterCommit. */
export const FAILURE_KINDS: readonly EffectKind[] = [
	'fault',
	'unavailable',
	'reset',
	'empty',
	'truncated',
	'garbage',
	'throttle',
];

/** A scenario file that does not follow the format; the message names file, rule and field. */
export class ScenarioFormatError extends Error {
	override readonly name = 'ScenarioFormatError';
}

const EFFECT_FIELDS: Readonly<Record<EffectKind, readonly string[]>> = {
	fault: ['code', 'subcode', 'message', 'detail'],
	unavailable: ['retryAfterSeconds'],
	reset: [],
	empty: [],
	truncated: [],
	garbage: [],
	throttle: ['limit', 'intervalMs', 'retryAfterSeconds'],
	quota: ['feedId', 'state'],
	deliveries: ['feedId', 'outcome', 'message'],
	applicationBurst: ['count', 'advertId'],
	advertWithdrawn: ['advertId'],
	loginLinkExpired: [],
};
const ENDPOINTS: readonly Endpoint[] = ['posting', 'administration'];
const NAME_PATTERN = /^[a-z0-9][a-z0-9-]{0,63}$/;
const MAX_RULES = 100;

type Json = Record<string, unknown>;

/** Reads and validates a scenario from JSON text; `source` names the file in errors. */
export function parseScenario(text: string, source: string): Scenario {
	let data: unknown;
	try {
		data = JSON.parse(text);
	} catch (error) {
		throw new ScenarioFormatError(`${source}: not valid JSON (${(error as Error).message}).`);
	}
	return readScenario(data, source);
}

/** Validates an already parsed scenario (a control endpoint body, a library entry). */
export function readScenario(data: unknown, source: string): Scenario {
	const top = new Fields(source, '', data);
	top.only(['$schema', 'name', 'title', 'description', 'expectation', 'seed', 'rules']);
	const name = top.text('name', { pattern: NAME_PATTERN, hint: 'lower-case letters, digits and dashes' });
	const rulesData = top.value('rules');
	if (!Array.isArray(rulesData) || rulesData.length === 0 || rulesData.length > MAX_RULES) {
		throw top.error('rules', `must be a list of 1 to ${MAX_RULES} rules`);
	}
	const names = new Set<string>();
	const rules = rulesData.map((ruleData: unknown, index) => {
		const rule = readRule(source, index, ruleData);
		if (names.has(rule.name)) {
			throw new ScenarioFormatError(`${source}: rules[${index}]: name "${rule.name}" is used twice.`);
		}
		names.add(rule.name);
		return rule;
	});
	return {
		name: name!,
		title: top.text('title', { optional: true }) ?? name!,
		description: top.text('description', { optional: true }) ?? '',
		expectation: top.text('expectation', { optional: true }) ?? '',
		seed: top.number('seed', { optional: true, integer: true, min: 0, max: 2 ** 31 - 1 }) ?? 1,
		rules,
		source,
	};
}

function readRule(source: string, index: number, data: unknown): ScenarioRule {
	const probe = typeof data === 'object' && data !== null ? (data as Json).name : undefined;
	const where = typeof probe === 'string' ? `rule "${probe}" (rules[${index}])` : `rules[${index}]`;
	const rule = new Fields(source, where, data);
	rule.only(['name', 'match', 'latency', 'effect', 'afterCommit']);
	const name = rule.text('name', { pattern: NAME_PATTERN, hint: 'lower-case letters, digits and dashes' })!;
	const match = readMatch(rule.child('match'));
	const latency = rule.has('latency') ? readLatency(rule.child('latency')) : undefined;
	const effect = rule.has('effect') ? readEffect(rule.child('effect')) : undefined;
	const afterCommit = rule.boolean('afterCommit') ?? false;
	if (!latency && !effect) throw rule.error('effect', 'a rule needs an effect, a latency or both');
	if (afterCommit && (!effect || !FAILURE_KINDS.includes(effect.kind) || effect.kind === 'throttle')) {
		throw rule.error(
			'afterCommit',
			'applies only to the effects fault, unavailable, reset, empty, truncated and garbage',
		);
	}
	return { name, match, latency, effect, afterCommit };
}

function readMatch(match: Fields): ScenarioMatch {
	if (match.absent) return {};
	match.only(['operations', 'bindings', 'endpoints', 'params', 'share', 'calls', 'window']);
	const result: ScenarioMatch = {};
	const operations = match.list('operations', Object.keys(OPERATIONS));
	if (operations) result.operations = operations as OperationName[];
	const bindings = match.list('bindings', BINDING_NAMES);
	if (bindings) result.bindings = bindings as BindingName[];
	const endpoints = match.list('endpoints', ENDPOINTS);
	if (endpoints) result.endpoints = endpoints as Endpoint[];
	if (match.has('params')) {
		const params = match.child('params');
		const values: Record<string, string | string[]> = {};
		for (const key of params.keys()) {
			const value = params.value(key);
			const ok =
				typeof value === 'string' ||
				typeof value === 'number' ||
				(Array.isArray(value) &&
					value.length > 0 &&
					value.every((v) => typeof v === 'string' || typeof v === 'number'));
			if (!ok) throw params.error(key, 'must be a value or a list of values (text or numbers)');
			values[key] = Array.isArray(value) ? value.map(String) : String(value);
		}
		result.params = values;
	}
	const share = match.number('share', { optional: true, min: 0, max: 1 });
	if (share !== undefined) result.share = share;
	if (match.has('calls')) {
		const calls = match.child('calls');
		calls.only(['from', 'to', 'every']);
		result.calls = {
			from: calls.number('from', { optional: true, integer: true, min: 1 }),
			to: calls.number('to', { optional: true, integer: true, min: 1 }),
			every: calls.number('every', { optional: true, integer: true, min: 1 }),
		};
	}
	if (match.has('window')) {
		const window = match.child('window');
		window.only(['fromMs', 'toMs']);
		result.window = {
			fromMs: window.number('fromMs', { optional: true, min: 0 }),
			toMs: window.number('toMs', { optional: true, min: 0 }),
		};
	}
	return result;
}

const MAX_DELAY_MS = 10 * 60_000;

function readLatency(latency: Fields): Latency {
	latency.only(['ms', 'minMs', 'maxMs', 'where', 'chunks']);
	const ms = latency.number('ms', { optional: true, min: 0, max: MAX_DELAY_MS });
	const minMs = latency.number('minMs', { optional: true, min: 0, max: MAX_DELAY_MS });
	const maxMs = latency.number('maxMs', { optional: true, min: 0, max: MAX_DELAY_MS });
	if (ms === undefined && (minMs === undefined || maxMs === undefined)) {
		throw latency.error('ms', 'give ms, or minMs and maxMs');
	}
	if (ms !== undefined && (minMs !== undefined || maxMs !== undefined)) {
		throw latency.error('ms', 'give ms or a range (minMs, maxMs), not both');
	}
	if (minMs !== undefined && maxMs !== undefined && minMs > maxMs) {
		throw latency.error('maxMs', 'must not be below minMs');
	}
	const where = latency.text('where', { optional: true, oneOf: ['answer', 'chunks'] }) as Latency['where'];
	const chunks = latency.number('chunks', { optional: true, integer: true, min: 2, max: 100 });
	return { ms, minMs, maxMs, where: where ?? 'answer', chunks: where === 'chunks' ? (chunks ?? 4) : undefined };
}

function readEffect(effect: Fields): ScenarioEffect {
	const kind = effect.text('kind', { oneOf: Object.keys(EFFECT_FIELDS) }) as EffectKind;
	effect.only(['kind', ...EFFECT_FIELDS[kind]]);
	const id = (name: string, optional = false) =>
		effect.number(name, { optional, integer: true, min: 1, max: 2 ** 31 - 1 });
	const retryAfterSeconds = () =>
		effect.number('retryAfterSeconds', { optional: true, integer: true, min: 0, max: 86_400 });
	switch (kind) {
		case 'fault':
			return {
				kind,
				code: effect.text('code', { oneOf: ['Client', 'Server'] }) as 'Client' | 'Server',
				subcode: effect.text('subcode', {
					optional: true,
					pattern: /^[A-Za-z][A-Za-z0-9]{0,63}$/,
					hint: 'a name like AuthenticationFailed',
				}),
				message: effect.text('message')!,
				detail: effect.text('detail', { optional: true }),
			};
		case 'unavailable':
			return { kind, retryAfterSeconds: retryAfterSeconds() };
		case 'throttle':
			return {
				kind,
				limit: effect.number('limit', { integer: true, min: 0, max: 1_000_000 })!,
				intervalMs: effect.number('intervalMs', { integer: true, min: 1, max: 86_400_000 })!,
				retryAfterSeconds: retryAfterSeconds(),
			};
		case 'quota':
			return {
				kind,
				feedId: id('feedId')!,
				state: effect.text('state', { oneOf: ['exhausted', 'nearlyExhausted'] }) as
					| 'exhausted'
					| 'nearlyExhausted',
			};
		case 'deliveries':
			return {
				kind,
				feedId: id('feedId')!,
				outcome: effect.text('outcome', { oneOf: ['rejected', 'noAnswer'] }) as 'rejected' | 'noAnswer',
				message: effect.text('message', { optional: true }),
			};
		case 'applicationBurst':
			return {
				kind,
				count: effect.number('count', { integer: true, min: 1, max: 1000 })!,
				advertId: id('advertId', true),
			};
		case 'advertWithdrawn':
			return { kind, advertId: id('advertId')! };
		case 'reset':
		case 'empty':
		case 'truncated':
		case 'garbage':
		case 'loginLinkExpired':
			return { kind };
	}
}

/** Typed reading of one object of the file, with errors that say where. */
class Fields {
	private readonly data: Json | undefined;
	constructor(
		private readonly source: string,
		private readonly where: string,
		data: unknown,
		private readonly prefix = '',
	) {
		if (data !== undefined && (typeof data !== 'object' || data === null || Array.isArray(data))) {
			throw this.error('', 'must be an object');
		}
		this.data = data as Json | undefined;
	}

	get absent(): boolean {
		return this.data === undefined;
	}

	error(field: string, problem: string): ScenarioFormatError {
		const path = [this.prefix, field].filter(Boolean).join('.');
		const place = [this.where, path ? `field ${path}` : ''].filter(Boolean).join(', ');
		return new ScenarioFormatError(`${this.source}: ${place ? `${place}: ` : ''}${problem}.`);
	}

	keys(): string[] {
		return Object.keys(this.data ?? {});
	}

	has(field: string): boolean {
		return this.data?.[field] !== undefined;
	}

	value(field: string): unknown {
		return this.data?.[field];
	}

	child(field: string): Fields {
		return new Fields(this.source, this.where, this.value(field), [this.prefix, field].filter(Boolean).join('.'));
	}

	only(allowed: readonly string[]): void {
		for (const key of this.keys()) {
			if (!allowed.includes(key)) throw this.error(key, `is not a known field (known: ${allowed.join(', ')})`);
		}
	}

	text(
		field: string,
		options: { optional?: boolean; oneOf?: readonly string[]; pattern?: RegExp; hint?: string } = {},
	): string | undefined {
		const value = this.value(field);
		if (value === undefined) {
			if (options.optional) return undefined;
			throw this.error(field, options.oneOf ? `is missing (one of ${options.oneOf.join(', ')})` : 'is missing');
		}
		if (typeof value !== 'string' || value.length > 2000) {
			throw this.error(field, 'must be text (up to 2000 characters)');
		}
		if (options.oneOf && !options.oneOf.includes(value)) {
			throw this.error(field, `must be one of ${options.oneOf.join(', ')}, not "${value}"`);
		}
		if (options.pattern && !options.pattern.test(value)) {
			throw this.error(field, `"${value}" is not allowed: ${options.hint ?? String(options.pattern)}`);
		}
		return value;
	}

	number(
		field: string,
		options: { optional?: boolean; integer?: boolean; min?: number; max?: number } = {},
	): number | undefined {
		const value = this.value(field);
		if (value === undefined) {
			if (options.optional) return undefined;
			throw this.error(field, 'is missing');
		}
		const { min = -Infinity, max = Infinity } = options;
		if (
			typeof value !== 'number' ||
			!Number.isFinite(value) ||
			(options.integer && !Number.isInteger(value)) ||
			value < min ||
			value > max
		) {
			const range = max === Infinity ? `at least ${min}` : `from ${min} to ${max}`;
			throw this.error(field, `must be ${options.integer ? 'a whole number' : 'a number'} ${range}`);
		}
		return value;
	}

	boolean(field: string): boolean | undefined {
		const value = this.value(field);
		if (value === undefined) return undefined;
		if (typeof value !== 'boolean') throw this.error(field, 'must be true or false');
		return value;
	}

	list(field: string, allowed: readonly string[]): string[] | undefined {
		const value = this.value(field);
		if (value === undefined) return undefined;
		if (!Array.isArray(value) || value.length === 0) throw this.error(field, 'must be a non-empty list');
		for (const item of value) {
			if (typeof item !== 'string' || !allowed.includes(item)) {
				throw this.error(field, `"${String(item)}" is not one of ${allowed.join(', ')}`);
			}
		}
		return value as string[];
	}
}
