/**
 * Step 4 for SOAP: a streaming read of the body before the binding decodes it, so that unsafe or
 * broken XML is refused with HTTP 400 whatever the decoder does: not well-formed, a DOCTYPE (no DTD
 * and no entity expansion, ever) or nesting deeper than MAX_XML_DEPTH. It also finds the operation
 * element (first child of the SOAP Body) for the operation lookup.
 */
import { SaxesParser } from 'saxes';
import { malformedRequest } from './errors';

/** Deepest element nesting accepted; deeper documents are refused before decoding. */
export const MAX_XML_DEPTH = 100;

export interface XmlOutline {
	/** The first element inside the Envelope's Body (any namespace), if there is one. */
	operationElement?: { local: string; uri: string };
}

/** Checks that the body is safe, well-formed XML and returns what dispatch needs; throws a 400 HttpError. */
export function inspectXml(body: Uint8Array): XmlOutline {
	const text = new TextDecoder('utf-8').decode(body);
	if (text.trim() === '') throw malformedRequest('The request body is empty; a SOAP envelope was expected.');
	const parser = new SaxesParser({ xmlns: true, position: true });
	const outline: XmlOutline = {};
	let depth = 0;
	let bodyDepth = -1;
	parser.on('doctype', () => {
		throw malformedRequest('A DOCTYPE is not allowed in requests.');
	});
	parser.on('opentag', (tag) => {
		depth += 1;
		if (depth > MAX_XML_DEPTH) throw malformedRequest(`The XML is nested deeper than ${MAX_XML_DEPTH} elements.`);
		if (depth === 2 && tag.local === 'Body') bodyDepth = depth;
		else if (bodyDepth > 0 && depth === bodyDepth + 1 && !outline.operationElement) {
			outline.operationElement = { local: tag.local ?? tag.name, uri: tag.uri ?? '' };
		}
	});
	parser.on('closetag', () => {
		if (depth === bodyDepth) bodyDepth = -2;
		depth -= 1;
	});
	parser.on('error', (error) => {
		throw malformedRequest(`The request is not well-formed XML: ${error.message}`);
	});
	parser.write(text).close();
	return outline;
}
