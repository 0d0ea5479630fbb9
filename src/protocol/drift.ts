/**
 * Drift: where two services answer the same request differently in shape, not in value. Compared are
 * the HTTP status, the content type, the headers a client acts on, the outcome (a result, a fault,
 * text, nothing, or an answer that does not decode as the operation's result), the fault's code and
 * subcode, and the answer's element tree: which elements are present, absent or nil, and their
 * structure (a record where a list stands, a value where a record stands). Values never count: two
 * accounts hold different adverts, so an element of list items whose form varies (nil in some) agrees
 * with any answer showing one of its forms. The service's own namespace counts as one, whatever its URI. Pure.
 */
import { getBinding } from './bindings';
import type { BindingName, CodecContext } from './bindings/types';
import type { OperationName } from './catalogue';
import { parseXml, type XmlElement } from './codecs/xml';
import { XSI_NS } from './codecs/xml/model';

/** An answer as received: status, headers (lower-case names) and the body as text. */
export interface AnswerText {
	status: number;
	headers: Readonly<Record<string, string | undefined>>;
	body: string;
}

/** How an answer is read: the operation and binding it answers, in which namespace and at which path. */
export interface AnswerContext {
	operation?: OperationName;
	binding?: BindingName;
	codec: CodecContext;
}

export type DriftAspect = 'status' | 'contentType' | 'header' | 'outcome' | 'fault' | 'element';

/** One way the two answers differ. */
export interface Drift {
	aspect: DriftAspect;
	/** Where: a header's name, or an element path such as `AdvertPaged/Adverts/APIAdvert/latitude`. */
	path?: string;
	/** What the recorded (live) answer has, in a few words. */
	recorded: string;
	/** What the sandbox answers instead. */
	sandbox: string;
}

/** Headers whose presence changes what a client does. */
export const HEADERS_THAT_MATTER = ['retry-after', 'location', 'www-authenticate', 'content-encoding', 'set-cookie'];

type Outcome = 'result' | 'fault' | 'text' | 'empty' | 'unreadable';
/** How an element stands in an answer: left out, nil, or there (with or without content). */
type Form = 'absent' | 'nil' | 'present';

interface ShapeNode {
	forms: Set<Form>;
	/** Whether it holds text of its own (a value), as a leaf does and a record does not. */
	text: boolean;
	children: Map<string, ShapeNode>;
}

interface AnswerShape {
	status: number;
	contentType: string;
	headers: Set<string>;
	outcome: Outcome;
	/** Why the answer does not decode as the operation's (outcome 'unreadable'). */
	problem?: string;
	fault?: { code: string; subcode?: string };
	rootKey?: string;
	tree?: ShapeNode;
}

const SOAP_ENVELOPES = new Set([
	'http://schemas.xmlsoap.org/soap/envelope/',
	'http://www.w3.org/2003/05/soap-envelope',
]);

function normalisedContentType(value: string | undefined): string {
	return (value ?? '').toLowerCase().replace(/\s+/g, '').replace(/"/g, '');
}

/** An element's key: its local name, with its namespace unless it is the service's own. */
function keyOf(element: XmlElement, namespace: string): string {
	if (element.ns === namespace || element.ns === '') return element.local;
	return `{${element.ns}}${element.local}`;
}

function isNil(element: XmlElement): boolean {
	return element.attrs.some((attr) => attr.local === 'nil' && attr.ns === XSI_NS && /^(true|1)$/.test(attr.value));
}

function shapeOf(element: XmlElement, namespace: string): ShapeNode {
	const node: ShapeNode = {
		forms: new Set([isNil(element) ? 'nil' : 'present']),
		text: element.text.trim() !== '',
		children: new Map(),
	};
	for (const child of element.children) {
		const key = keyOf(child, namespace);
		const shape = shapeOf(child, namespace);
		const earlier = node.children.get(key);
		node.children.set(key, earlier ? merged(earlier, shape) : shape);
	}
	return node;
}

/** Two instances of one element (items of a list): what either has, and 'absent' where one lacks a child. */
function merged(a: ShapeNode, b: ShapeNode): ShapeNode {
	const node: ShapeNode = { forms: new Set([...a.forms, ...b.forms]), text: a.text || b.text, children: new Map() };
	for (const key of new Set([...a.children.keys(), ...b.children.keys()])) {
		const left = a.children.get(key);
		const right = b.children.get(key);
		if (left && right) node.children.set(key, merged(left, right));
		else {
			const only = (left ?? right)!;
			node.children.set(key, { ...only, forms: new Set([...only.forms, 'absent']) });
		}
	}
	return node;
}

/** The element that carries the answer: the Body's first child for SOAP, the root otherwise. */
function payloadOf(root: XmlElement): XmlElement | undefined {
	if (root.local === 'Envelope' && SOAP_ENVELOPES.has(root.ns)) {
		const body = root.children.find((child) => child.local === 'Body' && child.ns === root.ns);
		return body?.children[0];
	}
	return root;
}

function shapeOfAnswer(answer: AnswerText, ctx: AnswerContext): AnswerShape {
	const contentType = normalisedContentType(answer.headers['content-type']);
	const headers = new Set(HEADERS_THAT_MATTER.filter((name) => answer.headers[name] !== undefined));
	const shape: AnswerShape = { status: answer.status, contentType, headers, outcome: 'text' };
	if (answer.body.trim() === '') {
		shape.outcome = 'empty';
		return shape;
	}
	if (ctx.operation && ctx.binding) {
		try {
			const decoded = getBinding(ctx.binding).decodeResponse(
				ctx.operation,
				{ status: answer.status, headers: answer.headers, body: new TextEncoder().encode(answer.body) },
				ctx.codec,
			);
			shape.outcome = decoded.ok ? 'result' : 'fault';
			if (!decoded.ok) {
				shape.fault = { code: decoded.fault.code };
				if (decoded.fault.subcode !== undefined) shape.fault.subcode = decoded.fault.subcode;
			}
		} catch (error) {
			shape.outcome = 'unreadable';
			shape.problem = error instanceof Error ? error.message : String(error);
		}
	}
	if (contentType.includes('xml')) {
		try {
			const payload = payloadOf(parseXml(answer.body));
			if (payload) {
				shape.rootKey = keyOf(payload, ctx.codec.namespace);
				shape.tree = shapeOf(payload, ctx.codec.namespace);
			}
		} catch {
			// Not XML: the outcome says so.
		}
	}
	return shape;
}

function describeOutcome(shape: AnswerShape): string {
	switch (shape.outcome) {
		case 'result':
			return 'a result';
		case 'fault':
			return `a fault (${shape.fault?.code}${shape.fault?.subcode ? `/${shape.fault.subcode}` : ''})`;
		case 'empty':
			return 'no body';
		case 'text':
			return 'a body that is not an answer of the operation';
		case 'unreadable':
			return `an answer that does not decode (${shape.problem})`;
	}
}

function describeForms(forms: Set<Form>): string {
	const order: Form[] = ['present', 'nil', 'absent'];
	const words: Record<Form, string> = { present: 'present', nil: 'nil', absent: 'left out' };
	return order
		.filter((form) => forms.has(form))
		.map((form) => words[form])
		.join(' or ');
}

/**
 * Whether two elements stand alike. An element of list items seen in several forms (nil in some adverts,
 * present in others) varies with the data: it agrees with any side that shows one of those forms, as
 * two accounts' lists differ in which items have a value. Forms that do not overlap at all are drift.
 */
function compatibleForms(a: Set<Form>, b: Set<Form>): boolean {
	return [...a].some((form) => b.has(form));
}

/**
 * The element differences, depth first. An element with no children on one side is not descended: an
 * empty list is a value apart from a full one; but a value (text) where the other side has a record is drift.
 */
function treeDrift(recorded: ShapeNode, sandbox: ShapeNode, path: string, drift: Drift[], limit: number): void {
	const leafA = recorded.children.size === 0;
	const leafB = sandbox.children.size === 0;
	if (leafA || leafB) {
		if (leafA !== leafB && (leafA ? recorded.text : sandbox.text)) {
			const what = (leaf: boolean): string => (leaf ? 'a value' : 'a record (elements)');
			drift.push({ aspect: 'element', path, recorded: what(leafA), sandbox: what(leafB) });
		}
		return;
	}
	for (const key of new Set([...recorded.children.keys(), ...sandbox.children.keys()])) {
		if (drift.length >= limit) return;
		const a = recorded.children.get(key);
		const b = sandbox.children.get(key);
		const where = `${path}/${key}`;
		const formsA = a?.forms ?? new Set<Form>(['absent']);
		const formsB = b?.forms ?? new Set<Form>(['absent']);
		if (!compatibleForms(formsA, formsB)) {
			drift.push({
				aspect: 'element',
				path: where,
				recorded: describeForms(formsA),
				sandbox: describeForms(formsB),
			});
		}
		if (a && b) treeDrift(a, b, where, drift, limit);
	}
}

/** Every way the sandbox's answer differs in shape from the recorded one, at most `limit`. */
export function driftOf(
	recorded: AnswerText,
	recordedCtx: AnswerContext,
	sandbox: AnswerText,
	sandboxCtx: AnswerContext,
	limit = 100,
): Drift[] {
	const a = shapeOfAnswer(recorded, recordedCtx);
	const b = shapeOfAnswer(sandbox, sandboxCtx);
	const drift: Drift[] = [];
	if (a.status !== b.status) drift.push({ aspect: 'status', recorded: String(a.status), sandbox: String(b.status) });
	if (a.contentType !== b.contentType) {
		drift.push({ aspect: 'contentType', recorded: a.contentType || 'none', sandbox: b.contentType || 'none' });
	}
	for (const name of HEADERS_THAT_MATTER) {
		if (a.headers.has(name) !== b.headers.has(name)) {
			const shown = (has: boolean, answer: AnswerText) => (has ? `${name}: ${answer.headers[name]}` : 'absent');
			drift.push({
				aspect: 'header',
				path: name,
				recorded: shown(a.headers.has(name), recorded),
				sandbox: shown(b.headers.has(name), sandbox),
			});
		}
	}
	if (a.outcome !== b.outcome) {
		drift.push({ aspect: 'outcome', recorded: describeOutcome(a), sandbox: describeOutcome(b) });
		return drift;
	}
	if (a.fault && b.fault && (a.fault.code !== b.fault.code || a.fault.subcode !== b.fault.subcode)) {
		drift.push({ aspect: 'fault', recorded: describeOutcome(a), sandbox: describeOutcome(b) });
	}
	if (a.rootKey !== b.rootKey) {
		drift.push({
			aspect: 'element',
			path: '/',
			recorded: a.rootKey ? `<${a.rootKey}>` : 'no XML',
			sandbox: b.rootKey ? `<${b.rootKey}>` : 'no XML',
		});
	} else if (a.tree && b.tree) {
		treeDrift(a.tree, b.tree, a.rootKey ?? '', drift, limit);
	}
	return drift.slice(0, limit);
}

/** A drift as one line: `element AdvertPaged/Adverts/APIAdvert/latitude: nil (recorded) vs present (sandbox)`. */
export function formatDrift(drift: Drift): string {
	const what = drift.aspect === 'contentType' ? 'content type' : drift.aspect;
	return `${what}${drift.path ? ` ${drift.path}` : ''}: ${drift.recorded} (recorded) vs ${drift.sandbox} (sandbox)`;
}
