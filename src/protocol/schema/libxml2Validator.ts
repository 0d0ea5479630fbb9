/**
 * The XsdValidatorPort over libxml2 compiled to WebAssembly (npm libxml2-wasm: no native build and no
 * download at install). The package is an ES module with top-level await, so it is loaded with a
 * dynamic import; schemas are compiled once per WSDL and namespace and kept until dispose().
 */
import type { SchemaProblem, SchemaSubject, XsdValidatorPort } from './wsdlValidation';
import { escapeAttr } from '../codecs/xml';

type Libxml2 = typeof import('libxml2-wasm', { with: { 'resolution-mode': 'import' } });
type XmlDocument = InstanceType<Libxml2['XmlDocument']>;
type XsdValidator = InstanceType<Libxml2['XsdValidator']>;

const XSD_NS = 'http://www.w3.org/2001/XMLSchema';

/** A libxml2-backed validator; dispose() frees the compiled schemas. */
export interface Libxml2XsdValidator extends XsdValidatorPort {
	dispose(): void;
}

/** Loads libxml2 (once per process) and returns a validator. */
export async function loadLibxml2Validator(): Promise<Libxml2XsdValidator> {
	const lib: Libxml2 = await import('libxml2-wasm');
	return new Validator(lib);
}

class Validator implements Libxml2XsdValidator {
	private readonly compiled = new Map<string, { doc: XmlDocument; validator: XsdValidator }>();

	constructor(private readonly lib: Libxml2) {}

	validate(wsdl: string, targetNamespace: string, xml: string, subject: SchemaSubject): SchemaProblem[] {
		const validator = this.schema(wsdl, targetNamespace);
		let doc: XmlDocument;
		try {
			doc = this.lib.XmlDocument.fromString(xml);
		} catch (error) {
			return [{ line: 0, message: `not well-formed XML: ${messageOf(error)}` }];
		}
		try {
			const target = subject === 'document' ? doc.root : this.soapBodyChild(doc);
			if (typeof target === 'string') return [{ line: 0, message: target }];
			try {
				validator.validate(target);
				return [];
			} catch (error) {
				if (error instanceof this.lib.XmlValidateError) {
					return error.details.map((d) => ({ line: d.line, message: d.message.trim() }));
				}
				throw error;
			}
		} finally {
			doc.dispose();
		}
	}

	dispose(): void {
		for (const { doc, validator } of this.compiled.values()) {
			validator.dispose();
			doc.dispose();
		}
		this.compiled.clear();
	}

	/** The one element child of the SOAP Body, or what is wrong. */
	private soapBodyChild(doc: XmlDocument) {
		const body = doc.root.find('*[local-name()="Body"]');
		if (body.length !== 1) return `expected one SOAP Body, found ${body.length}`;
		const children = (body[0] as InstanceType<Libxml2['XmlElement']>).find('*');
		if (children.length !== 1) return `expected one element in the SOAP Body, found ${children.length}`;
		return children[0] as InstanceType<Libxml2['XmlElement']>;
	}

	/** The compiled schema of `targetNamespace` in the WSDL's types. */
	private schema(wsdl: string, targetNamespace: string): XsdValidator {
		const key = `${targetNamespace}\n${wsdl}`;
		const known = this.compiled.get(key);
		if (known) return known.validator;
		const wsdlDoc = this.lib.XmlDocument.fromString(wsdl);
		let text: string;
		try {
			const schemas = wsdlDoc.find('//s:schema', { s: XSD_NS });
			const schema = schemas.find(
				(node) =>
					node instanceof this.lib.XmlElement && node.attr('targetNamespace')?.value === targetNamespace,
			) as InstanceType<Libxml2['XmlElement']> | undefined;
			if (!schema) throw new Error(`The WSDL embeds no schema for the namespace "${targetNamespace}".`);
			text = standalone(schema);
		} finally {
			wsdlDoc.dispose();
		}
		const doc = this.lib.XmlDocument.fromString(text);
		const validator = this.lib.XsdValidator.fromDoc(doc);
		this.compiled.set(key, { doc, validator });
		return validator;
	}
}

/** The schema element as a document of its own: the namespaces it inherits from the WSDL declared on it. */
function standalone(schema: InstanceType<Libxml2['XmlElement']>): string {
	const own = schema.nsDeclarations;
	const inherited = Object.entries(schema.namespaces)
		.filter(([prefix]) => !(prefix in own))
		.map(([prefix, uri]) => ` ${prefix === '' ? 'xmlns' : `xmlns:${prefix}`}="${escapeAttr(uri)}"`)
		.join('');
	const text = schema.toString({ format: false });
	const nameEnd = text.search(/[\s/>]/);
	return text.slice(0, nameEnd) + inherited + text.slice(nameEnd);
}

function messageOf(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}
