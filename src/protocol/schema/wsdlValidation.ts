/**
 * Checking a message against the XML Schema embedded in a WSDL. The schema work itself needs a real
 * validator (libxml2, see src/client/xsd/libxml2Validator.ts), which loads WebAssembly; it sits behind
 * the XsdValidatorPort so this module stays pure and any caller (the tests, request-file assertions)
 * can pass its own.
 */
import type { BindingName } from '../bindings/types';

/** What is validated: the whole document (HTTP GET/POST) or the one child of the SOAP Body. */
export type SchemaSubject = 'document' | 'soapBody';

/** One way a message breaks the schema. */
export interface SchemaProblem {
	/** 1-based line in the message; 0 when unknown. */
	line: number;
	message: string;
}

/** A validator of XML against the schema embedded in a WSDL. */
export interface XsdValidatorPort {
	/**
	 * The problems of `xml` (empty when valid) against the `<schema>` of `targetNamespace` that `wsdl`
	 * embeds in `wsdl:types`. A message that is not XML, or a SOAP Body without exactly one element,
	 * is a problem too.
	 */
	validate(wsdl: string, targetNamespace: string, xml: string, subject: SchemaSubject): SchemaProblem[];
}

/** The part of a response of `binding` that the WSDL's schema describes. */
export function schemaSubjectOf(binding: BindingName): SchemaSubject {
	return binding === 'soap11' || binding === 'soap12' ? 'soapBody' : 'document';
}

/** A successful response, as the service sent it. */
export interface ResponseToCheck {
	/** The WSDL of the endpoint that answered (its `?WSDL`). */
	wsdl: string;
	/** The XML namespace of the messages (the WSDL's targetNamespace). */
	namespace: string;
	binding: BindingName;
	/** The response body (UTF-8). */
	body: string | Uint8Array;
}

/** The problems of a successful response against its endpoint's own WSDL (faults are not described there). */
export function checkResponseAgainstWsdl(port: XsdValidatorPort, response: ResponseToCheck): SchemaProblem[] {
	const text = typeof response.body === 'string' ? response.body : new TextDecoder().decode(response.body);
	return port.validate(response.wsdl, response.namespace, text, schemaSubjectOf(response.binding));
}

/** Problems as lines of text, e.g. for an assertion message. */
export function formatSchemaProblems(problems: readonly SchemaProblem[]): string {
	return problems.map((p) => (p.line > 0 ? `line ${p.line}: ${p.message}` : p.message)).join('\n');
}
