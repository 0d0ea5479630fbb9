/**
 * Near misses, as WireMock lists them for a request that matched no stub: for a request that reached
 * no operation, or reached one with parts production would not read, the closest operations,
 * parameters, namespaces or paths, what differs and the fix. Computed from the journal's redacted
 * entry when it is viewed (or written to the journal file).
 */
import type { BindingName } from '../../protocol/bindings/types';
import {
	OPERATIONS,
	OPERATION_NAMES,
	resolveOperationName,
	soapAction,
	type Endpoint,
	type OperationName,
} from '../../protocol/catalogue';
import { parseXml, type XmlElement } from '../../protocol/codecs/xml';
import { closestNames } from '../../protocol/requestFiles/issues';
import type { JournalEntry } from './types';

export type NearMissKind =
	| 'path'
	| 'operation'
	| 'endpoint'
	| 'namespace'
	| 'soapAction'
	| 'parameter'
	| 'envelope'
	/** Strict replay found no recorded answer: the closest recorded request. */
	| 'recording';

export interface NearMiss {
	kind: NearMissKind;
	/** What the request had ('' when it had nothing there). */
	sent: string;
	/** The closest valid choices, closest first. */
	closest: string[];
	/** What differs between what was sent and the closest choice. */
	differs: string;
	/** What to change. */
	fix: string;
	/** 1-based line in the request body, when the near miss is in the body. */
	line?: number;
}

export interface NearMissContext {
	namespace: string;
	paths: Readonly<Record<Endpoint, string>>;
}

const ENVELOPE_NS: Record<'soap11' | 'soap12', string> = {
	soap11: 'http://schemas.xmlsoap.org/soap/envelope/',
	soap12: 'http://www.w3.org/2003/05/soap-envelope',
};

/** The near miss of a request replay found in no recording: the closest recorded one and what differs. */
export function recordingMiss(entry: JournalEntry): NearMiss[] {
	const replay = entry.replay;
	if (replay?.outcome !== 'unmatched') return [];
	const served = replay.mode === 'strict' ? 'answered with the NotRecorded fault' : 'answered by the sandbox instead';
	if (!replay.closest) {
		return [
			{
				kind: 'recording',
				sent: entry.operation ?? `${entry.method} ${entry.path}`,
				closest: [],
				differs: `${replay.why ?? 'nothing recorded is close'}; ${served}`,
				fix: 'record this request against the live service, or send one that is recorded',
			},
		];
	}
	return [
		{
			kind: 'recording',
			sent: entry.operation ?? `${entry.method} ${entry.path}`,
			closest: [`${replay.closest.recording} #${replay.closest.exchange}`],
			differs: `${replay.closest.differs.join('; ') || 'only what replay ignores'}; ${served}`,
			fix: replay.closest.differs.length
				? `send the recorded values, or record this request too`
				: 'record this request too',
		},
	];
}

/** How `sent` differs from `expected`, in a few words. */
export function describeDifference(sent: string, expected: string): string {
	if (sent === '') return `nothing was sent; "${expected}" is expected`;
	if (sent.toLowerCase() === expected.toLowerCase()) {
		return `"${sent}" differs from "${expected}" in letter case only`;
	}
	if (`${sent}/` === expected) return `"${sent}" lacks the trailing "/" of "${expected}"`;
	if (sent === `${expected}/`) return `"${sent}" has a trailing "/" that "${expected}" has not`;
	if (sent.replace(/^https:/, 'http:') === expected) return `"${sent}" uses https where "${expected}" uses http`;
	return `"${sent}" instead of "${expected}"`;
}

/** An operation name that is not on `endpoint`: on the other endpoint, or misspelt. */
function operationMiss(name: string, endpoint: Endpoint, ctx: NearMissContext, line?: number): NearMiss[] {
	const exact = resolveOperationName(name);
	if (exact && OPERATIONS[exact].endpoint !== endpoint) {
		const there = ctx.paths[OPERATIONS[exact].endpoint];
		return [
			{
				kind: 'endpoint',
				sent: `${ctx.paths[endpoint]} ${name}`,
				closest: [`${there} ${exact}`],
				differs: `${exact} is an operation of ${there}, not of ${ctx.paths[endpoint]}`,
				fix: `send it to ${there}`,
				line,
			},
		];
	}
	const closest = closestNames(name, OPERATION_NAMES);
	return [
		{
			kind: 'operation',
			sent: name,
			closest: closest.map((op) =>
				OPERATIONS[op as OperationName].endpoint === endpoint
					? op
					: `${op} (${ctx.paths[OPERATIONS[op as OperationName].endpoint]})`,
			),
			differs:
				closest.length > 0
					? describeDifference(name, closest[0])
					: `${name || '(none)'} is no operation of the service`,
			fix:
				closest.length > 0
					? `name the operation ${closest[0]}`
					: `name one of the operations listed at ${ctx.paths[endpoint]}`,
			line,
		},
	];
}

/** Near misses of a path that is no endpoint (404). */
function pathMisses(entry: JournalEntry, ctx: NearMissContext): NearMiss[] {
	const segments = entry.path.split('/');
	const endpoints = Object.values(ctx.paths);
	const candidates = [...endpoints, ...OPERATION_NAMES.map((op) => `${ctx.paths[OPERATIONS[op].endpoint]}/${op}`)];
	// Operation paths first (they explain more of what was sent), each against as many segments as it has.
	let best: { sent: string; closest: string[] } | undefined;
	for (const length of [...new Set(candidates.map((c) => c.split('/').length))].sort((a, b) => b - a)) {
		const sent = segments.slice(0, length).join('/');
		const closest = closestNames(
			sent,
			candidates.filter((c) => c.split('/').length === length),
		);
		if (closest.length > 0) {
			best = { sent, closest };
			break;
		}
	}
	if (!best) {
		return [
			{
				kind: 'path',
				sent: entry.path,
				closest: endpoints,
				differs: 'the path is not under an endpoint',
				fix: `send SOAP to ${endpoints.join(' or ')}, HTTP GET/POST to <endpoint>/<Operation>`,
			},
		];
	}
	return [
		{
			kind: 'path',
			sent: entry.path,
			closest: best.closest,
			differs: describeDifference(best.sent, best.closest[0]),
			fix: `use the path ${best.closest[0]}`,
		},
	];
}
/** GET/POST: the operation named by the path, then its fields against the operation's parameters. */
function fieldMisses(entry: JournalEntry, bodyText: string, ctx: NearMissContext, endpoint: Endpoint): NearMiss[] {
	const name = decodeURIComponentSafe(entry.path.slice(ctx.paths[endpoint].length).replace(/^\/+|\/+$/g, ''));
	const operation = resolveOperationName(name);
	if (!operation || OPERATIONS[operation].endpoint !== endpoint) return operationMiss(name, endpoint, ctx);
	const fields = new URLSearchParams(entry.binding === 'httpGet' ? entry.query : bodyText);
	const sent = [...new Set(fields.keys())];
	const params = OPERATIONS[operation].params;
	const known = new Set(params.map((param) => param.name));
	const unknown = sent.filter((field) => !known.has(field));
	const misses: NearMiss[] = [];
	const where = entry.binding === 'httpGet' ? 'the query' : 'the form';
	for (const param of params) {
		if (param.type === 'string[]' || fields.has(param.name)) continue;
		const near = unknown.find((field) => closestNames(field, [param.name]).length > 0);
		if (near !== undefined) unknown.splice(unknown.indexOf(near), 1);
		misses.push({
			kind: 'parameter',
			sent: near ?? '',
			closest: [param.name],
			differs:
				near !== undefined
					? `${describeDifference(near, param.name)} (field names are case-sensitive)`
					: `${operation} has the field ${param.name} and ${where} has none`,
			fix:
				near !== undefined
					? `rename the field ${near} to ${param.name}`
					: `add ${param.name}= to ${where} (an empty value means "not given"; production refuses a missing field)`,
		});
	}
	for (const field of unknown) {
		const closest = closestNames(field, [...known]);
		misses.push({
			kind: 'parameter',
			sent: field,
			closest,
			differs: `${field} is not a parameter of ${operation}; production ignores it`,
			fix:
				closest.length > 0
					? `rename it to ${closest[0]}`
					: `remove it (see ${ctx.paths[endpoint]}?op=${operation})`,
		});
	}
	return misses;
}

function decodeURIComponentSafe(text: string): string {
	try {
		return decodeURIComponent(text);
	} catch {
		return text;
	}
}

/** SOAP: envelope version, the operation element's name and namespace, SOAPAction and parameter elements. */
function soapMisses(
	entry: JournalEntry,
	bodyText: string,
	ctx: NearMissContext,
	binding: 'soap11' | 'soap12',
	endpoint: Endpoint,
): NearMiss[] {
	let root: XmlElement;
	try {
		root = parseXml(bodyText);
	} catch {
		return [];
	}
	const misses: NearMiss[] = [];
	const expectedEnvelope = ENVELOPE_NS[binding];
	if (root.ns !== expectedEnvelope) {
		const other = binding === 'soap11' ? 'soap12' : 'soap11';
		misses.push({
			kind: 'envelope',
			sent: root.ns,
			closest: [expectedEnvelope],
			differs: describeDifference(root.ns, expectedEnvelope),
			fix:
				root.ns === ENVELOPE_NS[other]
					? `send a ${other === 'soap12' ? 'SOAP 1.2' : 'SOAP 1.1'} envelope with Content-Type ${other === 'soap12' ? 'application/soap+xml' : 'text/xml'}`
					: `put the Envelope in the namespace "${expectedEnvelope}"`,
			line: root.line,
		});
		return misses;
	}
	const body = root.children.find((child) => child.local === 'Body' && child.ns === expectedEnvelope);
	const element = body?.children[0];
	if (!element) return misses;
	if (element.ns !== ctx.namespace) {
		misses.push({
			kind: 'namespace',
			sent: element.ns,
			closest: [ctx.namespace],
			differs: describeDifference(element.ns, ctx.namespace),
			fix: `write <${element.local} xmlns="${ctx.namespace}">`,
			line: element.line,
		});
	}
	const operation = resolveOperationName(element.local);
	if (!operation || operation !== element.local || OPERATIONS[operation].endpoint !== endpoint) {
		return misses.concat(operationMiss(element.local, endpoint, ctx, element.line));
	}
	const expectedAction = soapAction(ctx.namespace, operation);
	const action = entry.soapAction;
	if (action !== undefined && action !== '' && action !== expectedAction) {
		misses.push({
			kind: 'soapAction',
			sent: action,
			closest: [expectedAction],
			differs: describeDifference(action, expectedAction),
			fix:
				binding === 'soap11'
					? `send the header SOAPAction: "${expectedAction}"`
					: `send Content-Type: application/soap+xml; charset=utf-8; action="${expectedAction}"`,
		});
	}
	const params = OPERATIONS[operation].params.map((param) => param.name);
	for (const child of element.children) {
		if (params.includes(child.local)) {
			if (child.ns === ctx.namespace) continue;
			misses.push({
				kind: 'namespace',
				sent: child.ns,
				closest: [ctx.namespace],
				differs: `<${child.name}> is ${child.ns ? `in "${child.ns}"` : 'unqualified (no namespace)'}; parameters are in "${ctx.namespace}" and production ignores it`,
				fix: `qualify it: <${child.local} xmlns="${ctx.namespace}">, or put xmlns="${ctx.namespace}" on <${operation}> and write the parameters without a prefix`,
				line: child.line,
			});
			continue;
		}
		const closest = closestNames(child.local, params);
		misses.push({
			kind: 'parameter',
			sent: child.local,
			closest,
			differs:
				closest.length > 0
					? `${describeDifference(child.local, closest[0])}; production ignores an unknown element`
					: `<${child.local}> is not a parameter of ${operation}; production ignores it`,
			fix: closest.length > 0 ? `rename <${child.local}> to <${closest[0]}>` : `remove <${child.local}>`,
			line: child.line,
		});
	}
	return misses;
}

/** The near misses of one exchange (empty when the request reached its operation as production reads it). */
export function nearMissesOf(
	entry: JournalEntry,
	bodyText: string,
	ctx: NearMissContext,
	routed: { kind: 'notFound' } | { kind: 'call'; binding: BindingName; endpoint: Endpoint },
): NearMiss[] {
	if (routed.kind === 'notFound') return pathMisses(entry, ctx);
	const { binding, endpoint } = routed;
	if (binding === 'httpGet' || binding === 'httpPost') return fieldMisses(entry, bodyText, ctx, endpoint);
	return soapMisses(entry, bodyText, ctx, binding, endpoint);
}
