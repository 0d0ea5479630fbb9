/**
 * Production's verdict on a journaled request, computed from the redacted entry when it is viewed
 * (or written to the journal file): what an ASP.NET ASMX service does with it (strict, as the
 * sandbox's default), what it would refuse or ignore that a loose sandbox accepted (worded as the
 * X-Sandbox-Warning leniencies), every parameter rule issue, validity against the endpoint's WSDL
 * (element and line) and the near misses.
 */
import type { BindingName, DecodedRequest } from '../../protocol/bindings/types';
import { OPERATIONS, type Endpoint } from '../../protocol/catalogue';
import type { Fault } from '../../protocol/faults';
import { checkParams } from '../../protocol/rules';
import type { SchemaProblem, XsdValidatorPort } from '../../protocol/schema/wsdlValidation';
import { MISSING_API_KEY } from '../domain/access';
import { isGiven } from '../domain/params';
import { SANDBOX_WARNING_PREFIX } from '../pipeline/context';
import { lookupPathOperation, route, type Route } from '../pipeline/dispatch';
import { classifyError, unknownOperation } from '../pipeline/errors';
import { decodeRequest } from '../pipeline/listener';
import { nearMissesOf, recordingMiss, type NearMiss } from './nearMisses';
import type { JournalEntry } from './types';

export type { NearMiss } from './nearMisses';

export interface Verdict {
	/** One sentence: accepted, refused (and why) or a document request. */
	summary: string;
	/** What production answers instead of a result, when it refuses the request. */
	refusal?: { status: number; fault: Fault };
	/** What a loose sandbox accepted and production refuses or ignores, one sentence each. */
	production: string[];
	/** Every issue of the parameter rules (production answers the first as a Client fault). */
	ruleIssues: string[];
	/** The request against its endpoint's WSDL; absent when there is no operation call to check. */
	wsdl?: { valid: boolean; problems: SchemaProblem[]; checked: string };
	nearMisses: NearMiss[];
	/** Said when the verdict could not look at everything (a body cut to head and tail). */
	note?: string;
}

export interface VerdictContext {
	namespace: string;
	paths: Readonly<Record<Endpoint, string>>;
	wsdl: Readonly<Record<Endpoint, string>>;
	maxPageSize?: number;
	/** Loads the XSD validator for the WSDL check (libxml2); without it the check is skipped. */
	validator?: () => Promise<XsdValidatorPort>;
}

interface Refusal {
	status: number;
	fault: Fault;
}

function refusalOf(error: unknown): Refusal {
	const classified = classifyError(error);
	return { status: classified.status ?? 500, fault: classified.fault };
}

function tryRoute(entry: JournalEntry, ctx: VerdictContext): Route | Refusal {
	try {
		return route(entry.method, { path: entry.path, query: entry.query }, entry.contentType, ctx.paths);
	} catch (error) {
		return refusalOf(error);
	}
}

function decodeAs(
	entry: JournalEntry,
	body: Uint8Array,
	call: Extract<Route, { kind: 'call' }>,
	ctx: VerdictContext,
	loose: boolean,
): DecodedRequest | Refusal {
	const codec = { namespace: ctx.namespace, endpointPath: ctx.paths[call.endpoint] };
	try {
		if (call.binding === 'httpGet' || call.binding === 'httpPost') {
			lookupPathOperation(call.subPath, call.endpoint, codec.endpointPath);
		}
		const request = {
			method: entry.method,
			subPath: call.subPath,
			query: call.query,
			headers: entry.request.headers,
			body,
		};
		const decoded = decodeRequest(call.binding, request, codec, loose);
		if (OPERATIONS[decoded.operation].endpoint !== call.endpoint) {
			throw unknownOperation(decoded.operation, codec.endpointPath);
		}
		return decoded;
	} catch (error) {
		return refusalOf(error);
	}
}

function isRefusal(value: object): value is Refusal {
	return 'fault' in value;
}

/** The WSDL check: the SOAP Body's element against the schema; GET/POST fields against the message parts. */
async function wsdlCheck(
	bodyText: string,
	binding: BindingName,
	endpoint: Endpoint,
	ctx: VerdictContext,
	nearMisses: NearMiss[],
): Promise<Verdict['wsdl']> {
	if (binding === 'httpGet' || binding === 'httpPost') {
		const problems = nearMisses
			.filter((miss) => miss.kind === 'parameter' || miss.kind === 'operation' || miss.kind === 'endpoint')
			.map((miss) => ({ line: 0, message: miss.differs }));
		return {
			valid: problems.length === 0,
			problems,
			checked: `the fields against the WSDL's ${binding === 'httpGet' ? 'HttpGet' : 'HttpPost'} message parts`,
		};
	}
	if (!ctx.validator) return undefined;
	const validator = await ctx.validator();
	const problems = validator.validate(ctx.wsdl[endpoint], ctx.namespace, bodyText, 'soapBody');
	return { valid: problems.length === 0, problems, checked: "the Body's element against the WSDL's schema" };
}

/** The verdict on one journaled exchange, with replay's near miss when no recording held it. */
export async function verdictOf(entry: JournalEntry, ctx: VerdictContext): Promise<Verdict> {
	const verdict = await judged(entry, ctx);
	const missed = recordingMiss(entry);
	if (missed.length > 0) verdict.nearMisses = [...missed, ...verdict.nearMisses];
	return verdict;
}

async function judged(entry: JournalEntry, ctx: VerdictContext): Promise<Verdict> {
	const routed = tryRoute(entry, ctx);
	if (isRefusal(routed)) {
		const notFound = routed.status === 404;
		return {
			summary: `Production refuses this request: HTTP ${routed.status}, ${routed.fault.message}`,
			refusal: routed,
			production: [],
			ruleIssues: [],
			nearMisses: notFound ? nearMissesOf(entry, '', ctx, { kind: 'notFound' }) : [],
		};
	}
	if (routed.kind !== 'call') {
		return {
			summary: 'A service document (page, WSDL or DISCO), not an operation call.',
			production: [],
			ruleIssues: [],
			nearMisses: [],
		};
	}
	const bodyText = entry.request.body.text;
	if (entry.request.body.truncated) {
		return {
			summary: 'The body was kept as a head and a tail only, so it is not judged.',
			production: [],
			ruleIssues: [],
			nearMisses: [],
			note: `${entry.request.body.truncated.omittedChars} characters of the body were not kept.`,
		};
	}
	const body = new TextEncoder().encode(bodyText);
	const strict = decodeAs(entry, body, routed, ctx, false);
	const loose = decodeAs(entry, body, routed, ctx, true);
	const decoded = isRefusal(strict) ? (isRefusal(loose) ? undefined : loose) : strict;
	const issues = decoded ? checkParams(decoded.operation, decoded.params, { maxPageSize: ctx.maxPageSize }) : [];
	let refusal: Refusal | undefined = isRefusal(strict) ? strict : undefined;
	// The API key is checked before any rule: one production ignores (unqualified, say) is missing.
	if (!isRefusal(strict) && !isGiven(strict.params, 'sAPIKey')) {
		refusal = { status: 500, fault: { ...MISSING_API_KEY } };
	}
	if (!refusal && issues.length > 0) {
		refusal = { status: 500, fault: { code: 'Client', subcode: issues[0].subcode, message: issues[0].message } };
	}
	const nearMisses = nearMissesOf(entry, bodyText, ctx, {
		kind: 'call',
		binding: routed.binding,
		endpoint: routed.endpoint,
	});
	const production = isRefusal(loose) ? [] : loose.leniencies.map((leniency) => SANDBOX_WARNING_PREFIX + leniency);
	return {
		summary: refusal
			? `Production refuses this request: HTTP ${refusal.status}, ${refusal.fault.message}`
			: production.length > 0
				? 'Production accepts this request but ignores part of it.'
				: 'Production accepts this request as it is.',
		refusal,
		production,
		ruleIssues: issues.map((issue) => issue.message),
		wsdl: await wsdlCheck(bodyText, routed.binding, routed.endpoint, ctx, nearMisses),
		nearMisses,
	};
}

const verdicts = new WeakMap<JournalEntry, Promise<Verdict>>();

/** The verdict of an entry, computed once (entries never change once kept). */
export function cachedVerdictOf(entry: JournalEntry, ctx: VerdictContext): Promise<Verdict> {
	let verdict = verdicts.get(entry);
	if (!verdict) {
		verdict = verdictOf(entry, ctx);
		verdicts.set(entry, verdict);
	}
	return verdict;
}
