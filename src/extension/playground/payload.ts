/**
 * The payload of a response, for comparing bindings: what the service answered, without the
 * envelope. For SOAP the result element inside Body/<Operation>Response (or the Fault), for HTTP GET
 * and POST the root element; its content is written one element per line with local names, no
 * namespace declarations and no whitespace-only text, so the same data over two bindings gives the
 * same lines. A body that is not XML (an HTTP error's text) is its trimmed text. Pure.
 */
import { escapeAttr, escapeText, parseXml, XSI_NS, XMLNS_NS, type XmlElement } from '../../protocol/codecs/xml';

const SOAP_ENVELOPES = new Set([
	'http://schemas.xmlsoap.org/soap/envelope/',
	'http://www.w3.org/2003/05/soap-envelope',
]);

export function payloadOf(bodyText: string): string {
	if (bodyText.trim().length === 0) return '';
	let root: XmlElement;
	try {
		root = parseXml(bodyText);
	} catch {
		return bodyText.trim();
	}
	if (root.local === 'Envelope' && SOAP_ENVELOPES.has(root.ns)) {
		const body = root.children.find((el) => el.local === 'Body' && el.ns === root.ns);
		const answer = body?.children[0];
		if (!answer) return '';
		if (answer.local === 'Fault' && answer.ns === root.ns) return render(answer, '').join('\n');
		// <Operation>Response holds the result element (none for an operation without result).
		const result = answer.children[0];
		return result ? content(result) : '';
	}
	return content(root);
}

/** The inside of an element: its text, or its children one per line. */
function content(element: XmlElement): string {
	if (element.children.length === 0) return escapeText(element.text.trim());
	return element.children.flatMap((child) => render(child, '')).join('\n');
}

function attributes(element: XmlElement): string {
	return element.attrs
		.filter((a) => a.ns !== XMLNS_NS)
		.map((a) => ` ${a.ns === XSI_NS ? `xsi:${a.local}` : a.local}="${escapeAttr(a.value)}"`)
		.join('');
}

function render(element: XmlElement, indent: string): string[] {
	const open = `${indent}<${element.local}${attributes(element)}`;
	const text = escapeText(element.text.trim());
	if (element.children.length === 0) return [text.length > 0 ? `${open}>${text}</${element.local}>` : `${open} />`];
	return [
		`${open}>`,
		...(text.length > 0 ? [`${indent}  ${text}`] : []),
		...element.children.flatMap((child) => render(child, `${indent}  `)),
		`${indent}</${element.local}>`,
	];
}
