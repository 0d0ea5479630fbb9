/**
 * Namespaces in XML 1.0: the bindings in scope while the parser walks the document, the declarations
 * an element makes and undoes, and the resolution of element and attribute names.
 */
import { CH_COLON, CH_X } from '../chars';
import { clip, failAt, type ParseInput } from './errors';
import { XML_NS, XMLNS_NS, type SubtreeSource, type XmlAttribute } from './model';

/** The namespace bindings of one document, innermost last. */
export class NamespaceScope {
	// A stack of URIs per prefix (O(1) lookups however many are in scope) and the log of declared
	// prefixes, innermost last, to undo an element's declarations when it closes.
	readonly bindings = new Map<string, string[]>([
		['xml', [XML_NS]],
		['xmlns', [XMLNS_NS]],
	]);
	private readonly declared: string[] = [];
	/** Prefix and local part of each qualified name with a colon. */
	private readonly qnames = new Map<string, [string, string]>();

	constructor(private readonly input: ParseInput) {}

	/** Where the log of declarations stands: give it to undeclare when the element closes. */
	mark(): number {
		return this.declared.length;
	}

	/** Undoes the namespace declarations made after `mark`. */
	undeclare(mark: number): void {
		const declared = this.declared;
		while (declared.length > mark) (this.bindings.get(declared.pop() as string) as string[]).pop();
	}

	/** The namespace bound to `prefix` ('' for an undeclared default); fails for an unbound prefix. */
	lookup(prefix: string, p: number, what: string): string {
		const uris = this.bindings.get(prefix);
		if (uris !== undefined && uris.length > 0) return uris[uris.length - 1];
		if (prefix === '') return '';
		return failAt(
			this.input,
			'XML_NAMESPACE',
			`prefix '${clip(prefix)}' of ${what} is not bound to a namespace`,
			p,
		);
	}

	/** [prefix, local] of a qualified name containing a colon; fails when it is not a QName. */
	split(name: string, p: number): [string, string] {
		let parts = this.qnames.get(name);
		if (parts === undefined) {
			const i = name.indexOf(':');
			if (i === 0 || i === name.length - 1 || name.indexOf(':', i + 1) !== -1) {
				failAt(this.input, 'XML_NAMESPACE', `'${clip(name)}' is not a valid qualified name`, p);
			}
			parts = [name.slice(0, i), name.slice(i + 1)];
			if (this.qnames.size < 10_000) this.qnames.set(name, parts);
		}
		return parts;
	}

	/** Pushes the namespace bindings declared among `attrs` (attribute i written at attrPos[i]). */
	declare(attrs: XmlAttribute[], attrPos: readonly number[]): void {
		const input = this.input;
		for (let i = 0; i < attrs.length; i++) {
			const a = attrs[i];
			const at = attrPos[i];
			const name = a.name;
			if (name.charCodeAt(0) !== CH_X || !name.startsWith('xmlns')) continue;
			let prefix: string;
			if (name.length === 5) prefix = '';
			else if (name.charCodeAt(5) === CH_COLON) prefix = name.slice(6);
			else continue;
			if ((prefix === '' && name.length > 5) || prefix.indexOf(':') !== -1) {
				failAt(input, 'XML_NAMESPACE', `'${clip(name)}' is not a valid namespace declaration`, at);
			}
			const uri = a.value;
			if (prefix === 'xmlns') failAt(input, 'XML_NAMESPACE', "the prefix 'xmlns' must not be declared", at);
			if (prefix === 'xml' && uri !== XML_NS) {
				failAt(input, 'XML_NAMESPACE', `the prefix 'xml' can only be bound to ${XML_NS}`, at);
			}
			if (prefix !== 'xml' && uri === XML_NS) {
				failAt(input, 'XML_NAMESPACE', `only the prefix 'xml' can be bound to ${XML_NS}`, at);
			}
			if (uri === XMLNS_NS) failAt(input, 'XML_NAMESPACE', `no prefix can be bound to ${XMLNS_NS}`, at);
			if (prefix !== '' && uri === '') {
				failAt(
					input,
					'XML_NAMESPACE',
					`the prefix '${clip(prefix)}' cannot be bound to an empty namespace in XML 1.0`,
					at,
				);
			}
			const uris = this.bindings.get(prefix);
			if (uris === undefined) this.bindings.set(prefix, [uri]);
			else uris.push(uri);
			this.declared.push(prefix);
		}
	}

	/** Fills in local and ns of `attrs` (created with local = name, ns = ''; attribute i written at attrPos[i]). */
	resolveAttrs(attrs: XmlAttribute[], attrPos: readonly number[]): void {
		let prefixed = 0;
		for (let i = 0; i < attrs.length; i++) {
			const a = attrs[i];
			if (a.name.indexOf(':') === -1) {
				if (a.name === 'xmlns') a.ns = XMLNS_NS;
			} else {
				const [prefix, local] = this.split(a.name, attrPos[i]);
				a.local = local;
				a.ns = prefix === 'xmlns' ? XMLNS_NS : this.lookup(prefix, attrPos[i], `attribute '${clip(a.name)}'`);
				prefixed++;
			}
		}
		if (prefixed > 1) {
			// Two prefixes bound to the same URI make the same expanded name (Namespaces in XML §6.3).
			const seen = new Set<string>();
			for (let i = 0; i < attrs.length; i++) {
				const a = attrs[i];
				if (a.ns === '' || a.ns === XMLNS_NS) continue;
				const key = a.ns + '\u0000' + a.local;
				if (seen.has(key)) {
					failAt(this.input, 'XML_MALFORMED', `duplicate attribute {${a.ns}}${a.local}`, attrPos[i]);
				}
				seen.add(key);
			}
		}
	}
}

/** The SubtreeSource a parser hands out: its namespace bindings where the subtree starts. */
export interface ParserSubtreeSource extends SubtreeSource {
	bindings: ReadonlyMap<string, readonly string[]>;
}

/**
 * lookupNs of every ParserSubtreeSource: one function for the life of the process rather than a
 * closure per parse, which optimised readers inline and would lose at each collection (see keepShape).
 */
export function lookupBoundNs(this: ParserSubtreeSource, prefix: string): string | undefined {
	const uris = this.bindings.get(prefix);
	if (uris !== undefined && uris.length > 0) return uris[uris.length - 1];
	return prefix === '' ? '' : undefined;
}
